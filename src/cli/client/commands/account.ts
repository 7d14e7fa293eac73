import fs from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../command.js';
import { type ClientCommand, integerOption, oneOf, requiredOption, stringOption } from '../command.js';
import { ApiError, ClientError, table, truncate, unwrap } from '../context.js';

/** Projects, API keys, credits, usage and uploads: thin commands over one endpoint each. */

const viewports = ['desktop', 'mobile', 'tablet'] as const;
const schedules = ['manual', 'daily', 'weekly', 'on-deploy'] as const;

export const projectsList: ClientCommand = {
  name: 'projects list',
  summary: 'List your projects',
  usage: 'projects list',
  async run(_parsed, context) {
    const { projects } = unwrap(await (await context.api()).GET('/api/v1/projects'));
    context.print({ projects }, () =>
      table(['ID', 'NAME', 'DEMOS', 'SCHEDULE', 'URL'], projects.map((p) => [p.id, p.name, p.demo_count, p.refresh_schedule, p.url])),
    );
  },
};

export const projectsCreate: ClientCommand = {
  name: 'projects create',
  summary: 'Create a project for a site',
  usage: 'projects create --name NAME --url URL [--viewport desktop|mobile|tablet]',
  help: ['--name NAME      1 to 100 characters (required)', '--url URL        the site (required)', '--viewport V     desktop (default), mobile or tablet'],
  options: { name: { type: 'string' }, url: { type: 'string' }, viewport: { type: 'string' } },
  async run(parsed, context) {
    const body = { name: requiredOption(parsed, 'name'), url: requiredOption(parsed, 'url'), viewport: oneOf(stringOption(parsed, 'viewport'), viewports, 'viewport') };
    const project = unwrap(await (await context.api()).POST('/api/v1/projects', { body }));
    context.print(project, () => `Created project ${project.id} (${project.name}). Its signing secret, shown only now: ${project.signing_secret}`);
  },
};

export const projectsUpdate: ClientCommand = {
  name: 'projects update',
  summary: 'Change a project',
  usage: 'projects update ID [--name NAME] [--url URL] [--viewport V] [--schedule manual|daily|weekly|on-deploy]',
  help: [
    '--name NAME      1 to 100 characters',
    '--url URL        the site',
    '--viewport V     desktop, mobile or tablet',
    '--schedule S     manual, daily, weekly or on-deploy (refreshes its demos)',
    '(only what is given changes)',
  ],
  options: { name: { type: 'string' }, url: { type: 'string' }, viewport: { type: 'string' }, schedule: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(parsed, context) {
    const body = {
      name: stringOption(parsed, 'name'),
      url: stringOption(parsed, 'url'),
      viewport: oneOf(stringOption(parsed, 'viewport'), viewports, 'viewport'),
      refresh_schedule: oneOf(stringOption(parsed, 'schedule'), schedules, 'schedule'),
    };
    if (Object.values(body).every((v) => v === undefined)) throw new UsageError('Nothing to change: give --name, --url, --viewport or --schedule.');
    const project = unwrap(await (await context.api()).PATCH('/api/v1/projects/{id}', { params: { path: { id: parsed.positionals[0]! } }, body }));
    context.print(project, () => `Updated project ${project.id} (${project.name}).`);
  },
};

const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

export const keysList: ClientCommand = {
  name: 'keys list',
  summary: 'List your API keys (never their secrets)',
  usage: 'keys list',
  async run(_parsed, context) {
    const { keys } = unwrap(await (await context.api()).GET('/api/v1/api-keys'));
    context.print({ keys }, () =>
      table(
        ['ID', 'PREFIX', 'TYPE', 'NAME', 'PROJECT', 'LAST USED', 'CREATED'],
        // Times to the minute in UTC, as the other tables print them (issue 57: raw ISO strings here).
        keys.map((k) => [k.id, k.key_prefix, k.type, k.name, k.project_id ?? 'all', k.last_used_at ? minute(k.last_used_at) : 'never', minute(k.created_at)]),
      ),
    );
  },
};

export const keysCreate: ClientCommand = {
  name: 'keys create',
  summary: 'Create an API key; its secret is shown this once',
  usage: 'keys create [--name NAME] [--type live|publishable] [--project ID] [--domain D ...]',
  help: [
    '--name NAME      what the key is for (default: "Live key" or "Publishable key")',
    '--type T         live (default) or publishable (embeds only)',
    '--project ID     scope the key to one project',
    '--domain D       an allowed domain of a publishable key (repeatable)',
  ],
  options: { name: { type: 'string' }, type: { type: 'string' }, project: { type: 'string' }, domain: { type: 'string', multiple: true } },
  async run(parsed, context) {
    const domains = parsed.values.domain as string[] | undefined;
    const body = {
      name: stringOption(parsed, 'name'),
      type: oneOf(stringOption(parsed, 'type'), ['live', 'publishable'] as const, 'type'),
      project_id: stringOption(parsed, 'project'),
      allowed_domains: domains,
    };
    const key = unwrap(await (await context.api()).POST('/api/v1/api-keys', { body }));
    context.print(key, () => `Created ${key.type} key ${key.id} (${key.name}). Keep it now, it is not shown again:\n${key.key}`);
  },
};

export const keysRevoke: ClientCommand = {
  name: 'keys revoke',
  summary: 'Revoke an API key: it stops working at once',
  usage: 'keys revoke ID',
  positionals: { min: 1, max: 1 },
  async run(parsed, context) {
    const id = parsed.positionals[0]!;
    const result = unwrap(await (await context.api()).DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } }));
    context.print({ ...result, id }, () => `Revoked key ${id}.`);
  },
};

export const credits: ClientCommand = {
  name: 'credits',
  summary: 'Your balance, auto top-off and recent transactions; or buy a pack (prints where to pay); or set auto top-off',
  usage: 'credits | credits buy PACK | credits topoff on|off [--pack N] [--threshold N] | credits history [--limit N] [--cursor C]',
  help: ['--pack N         the pack auto top-off buys (5, 20, 50, 100; default: the one set before, else 20)', '--threshold N    top off when a charge finds the balance below N (1 to the pack’s credits)', '--limit, --cursor paging of credits history'],
  options: { pack: { type: 'string' }, threshold: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
  positionals: { min: 0, max: 2 },
  async run(parsed, context) {
    const [action, argument] = parsed.positionals;
    const api = await context.api();
    if (action === 'buy') {
      if (!argument) throw new UsageError('Usage: showreel credits buy PACK (5, 20, 50 or 100)');
      if (!['5', '20', '50', '100'].includes(argument)) throw new UsageError(`PACK must be one of: 5, 20, 50, 100 (got "${argument}").`);
      // A checkout to pay in the browser (the credits come with the payment service's confirmation); on a service
      // without payments, its 403 says that an administrator grants credits.
      const checkout = unwrap(await api.POST('/api/v1/credits/purchase', { body: { packId: argument as '5' | '20' | '50' | '100' } }));
      context.print(checkout, () => `Pay for the ${argument}-credit pack here (the credits are added once the payment is confirmed):\n${checkout.checkoutUrl}`);
      return;
    }
    if (action === 'topoff') {
      if (argument !== 'on' && argument !== 'off') throw new UsageError('Usage: showreel credits topoff on|off [--pack N] [--threshold N]');
      const body = {
        enabled: argument === 'on',
        packId: oneOf(stringOption(parsed, 'pack'), ['5', '20', '50', '100'] as const, 'pack'),
        threshold: integerOption(parsed, 'threshold', 1),
      };
      const setting = unwrap(await api.PUT('/api/v1/credits/auto-topoff', { body }));
      context.print(setting, () => `Auto top-off ${setting.enabled ? `on: the ${setting.packId} pack when the balance is below ${setting.threshold}` : 'off'}.`);
      return;
    }
    if (action === 'history') {
      const limit = integerOption(parsed, 'limit', 1);
      const cursor = stringOption(parsed, 'cursor');
      const page = unwrap(await api.GET('/api/v1/credits/transactions', { params: { query: { limit, cursor } as never } }));
      context.print(page, () =>
        [
          table(['WHEN', 'TYPE', 'AMOUNT', 'BALANCE', 'DESCRIPTION'], page.transactions.map((t) => [t.created_at.slice(0, 16).replace('T', ' '), t.type, t.amount, t.balance_after, truncate(t.description, 60)])),
          ...(page.nextCursor ? [`More: showreel credits history${limit !== undefined ? ` --limit ${limit}` : ''} --cursor ${page.nextCursor}`] : []),
        ].join('\n'),
      );
      return;
    }
    if (action !== undefined) throw new UsageError(`Unknown credits action "${action}". Usage: showreel ${credits.usage}`);
    // The overview takes no options and no second word: silently ignoring them would show something else than asked.
    if (argument !== undefined || Object.keys(parsed.values).some((name) => ['pack', 'threshold', 'limit', 'cursor'].includes(name))) {
      throw new UsageError(`"showreel credits" alone shows the overview; use "credits history [--limit N]" for transactions. Usage: showreel ${credits.usage}`);
    }
    const overview = unwrap(await api.GET('/api/v1/credits'));
    const topoff = overview.autoTopoff as { enabled: boolean; packId: string; threshold?: number };
    context.print(overview, () =>
      [
        `balance:    ${overview.balance} credits`,
        `auto top-off: ${topoff.enabled ? `on, pack ${topoff.packId} below ${topoff.threshold ?? 1}` : 'off'}`,
        '',
        table(['WHEN', 'TYPE', 'AMOUNT', 'BALANCE', 'DESCRIPTION'], overview.recentTransactions.map((t) => [t.created_at.slice(0, 16).replace('T', ' '), t.type, t.amount, t.balance_after, truncate(t.description, 60)])),
      ].join('\n'),
    );
  },
};

export const usage: ClientCommand = {
  name: 'usage',
  summary: 'Your plan and this month\'s usage',
  usage: 'usage',
  async run(_parsed, context) {
    const u = unwrap(await (await context.api()).GET('/api/v1/usage'));
    context.print(u, () =>
      [
        `plan:        ${u.plan.name} (uploads: ${u.plan.formats.join(', ')}; ${u.plan.resolutions.join(', ')})`,
        `this month:  ${u.usage.demos_generated} generated, ${u.usage.refreshes} refreshes, ${u.usage.restyles} restyles, ${u.usage.uploads} uploads`,
        `credits:     ${u.usage.credits_spent} spent, balance ${u.balance}`,
        `auto top-off: ${u.autoTopoff.enabled ? `on, pack ${u.autoTopoff.packId} below ${u.autoTopoff.threshold}` : 'off'}`,
      ].join('\n'),
    );
  },
};

const VIDEO_TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.webm': 'video/webm' };

/** POST with a file as the body (raw bytes, Content-Length set by fetch from the buffer). */
async function readUpload(file: string) {
  return fs.readFile(file).catch((error: Error) => {
    throw new UsageError(`${file}: ${error.message}`);
  });
}

type UploadBytes = Awaited<ReturnType<typeof readUpload>>;

async function postBytes(url: string, key: string, body: UploadBytes, contentType: string) {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body });
  const parsed = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) throw new ApiError(response.status, typeof parsed?.error === 'string' ? parsed.error : `The service answered ${response.status}.`);
  return parsed!;
}

/** What the local-assets endpoint takes, by the bytes (as the service judges them): checked before anything is sent. */
const ASSETS = [
  { option: 'thumbnail', type: 'thumbnail', mediaType: 'image/png', what: 'a PNG image', is: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { option: 'gif', type: 'gif', mediaType: 'image/gif', what: 'a GIF image', is: (b: Buffer) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
] as const;

export const upload: ClientCommand = {
  name: 'upload',
  summary: 'Publish a locally recorded MP4 or WebM as a ready demo',
  usage: 'upload FILE --project ID --prompt TEXT [--title TEXT] [--thumbnail PNG] [--gif GIF]',
  help: ['--project ID     the project (required)', '--prompt TEXT    what it shows (required)', '--title TEXT     its title (default: from the prompt)', '--thumbnail PNG  replace the derived thumbnail', '--gif GIF        replace the derived GIF'],
  options: { project: { type: 'string' }, prompt: { type: 'string' }, title: { type: 'string' }, thumbnail: { type: 'string' }, gif: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(parsed, context) {
    const file = parsed.positionals[0]!;
    const contentType = VIDEO_TYPES[path.extname(file).toLowerCase()];
    if (!contentType) throw new UsageError('The file must be an .mp4 or .webm video.');
    const query = new URLSearchParams({ project_id: requiredOption(parsed, 'project'), prompt: requiredOption(parsed, 'prompt') });
    const title = stringOption(parsed, 'title');
    if (title) query.set('title', title);
    // Every file is read and checked before the first request: a missing or wrong thumbnail must not leave a demo
    // behind that the user never heard of (and would upload again).
    const video = await readUpload(file);
    const extras: Array<{ type: string; mediaType: string; bytes: UploadBytes }> = [];
    for (const asset of ASSETS) {
      const given = stringOption(parsed, asset.option);
      if (!given) continue;
      const bytes = await readUpload(given);
      if (!asset.is(bytes)) throw new UsageError(`--${asset.option} must be ${asset.what}; ${given} is not.`);
      extras.push({ type: asset.type, mediaType: asset.mediaType, bytes });
    }
    const key = await context.key();
    const api = `${context.baseUrl}/api/v1`;
    const created = await postBytes(`${api}/demos/local-upload?${query}`, key, video, contentType);
    const assets: Record<string, unknown> = {};
    for (const extra of extras) {
      try {
        assets[extra.type] = await postBytes(`${api}/demos/${created.id}/local-assets?type=${extra.type}`, key, extra.bytes, extra.mediaType);
      } catch (error) {
        throw new ClientError(`Uploaded demo ${created.id} (${String(created.shareUrl)}), but its ${extra.type} was refused: ${(error as Error).message} It keeps the derived one.`);
      }
    }
    context.print({ ...created, assets }, () => `Uploaded demo ${created.id}: ${created.shareUrl}`);
  },
};
