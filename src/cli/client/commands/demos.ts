import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { paths } from '../../api-schema.js';
import { UsageError } from '../../command.js';
import { type ClientCommand, oneOf, type Parsed, requiredOption, stringOption } from '../command.js';
import { type ClientContext, ClientError, humanBytes, table, truncate, unwrap } from '../context.js';
import { progressPrinter } from '../progress-printer.js';
import { type Progress, waitForDemo } from '../wait-for-demo.js';

const idArgument = { min: 1, max: 1 };
const waitHelp = '--wait           follow the job with a progress bar until the demo is ready (Ctrl-C stops waiting, not the job)';

/** The public addresses of a demo (media and share pages need no key: they are unlisted by id). */
const demoUrls = (baseUrl: string, id: string, format: string) => ({
  shareUrl: `${baseUrl}/share/${id}`,
  video: `${baseUrl}/video/${id}.${format}`,
  gif: `${baseUrl}/gif/${id}.gif`,
  thumbnail: `${baseUrl}/thumb/${id}.png`,
});

type CreateDemoBody = paths['/api/v1/demos']['post']['requestBody']['content']['application/json'];
type TemplateId = NonNullable<NonNullable<CreateDemoBody['presentation']>['recordingTemplate']>['id'];

/** The tour styles `--template` takes: the API's own list (a value it does not know, or one left out, fails the type check). */
const TEMPLATES = [
  'auto', 'cinematic', 'guided-tour', 'plain-scroll', 'section-focus', 'hero-spotlight', 'feature-sweep', 'conversion-flow', 'pricing-focus', 'proof-scroll',
] as const satisfies readonly TemplateId[];
const everyTemplate: [Exclude<TemplateId, (typeof TEMPLATES)[number]>] extends [never] ? true : never = true;
void everyTemplate;
const MODES = ['script', 'agent'] as const satisfies ReadonlyArray<NonNullable<CreateDemoBody['mode']>>;

/** The columns the API returns as JSON text, shown by `demos show --json` as the JSON they hold. */
const JSON_TEXT_FIELDS = ['action_script', 'ai_plan', 'presentation', 'context', 'snapshots', 'recording_log'] as const;

function withJsonFields<T extends Record<string, unknown>>(demo: T): T {
  const out: Record<string, unknown> = { ...demo };
  for (const name of JSON_TEXT_FIELDS) {
    const value = out[name];
    if (typeof value !== 'string') continue;
    try {
      out[name] = JSON.parse(value);
    } catch {
      // plain text (a log, an older row): left as it is
    }
  }
  return out as T;
}

async function readPresentation(file: string): Promise<Record<string, unknown>> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--presentation ${file}: ${(error as Error).message}`);
  }
}

/**
 * With --wait: the live bar, the demo's id and how to download it (stderr), then the share URL; a failed demo is exit 1 with its error. Ctrl-C ends the wait
 * only (exit 130): the job runs on, and `demos show` finds it.
 */
async function maybeWait(parsed: Parsed, context: ClientContext, accepted: { id: string }): Promise<void> {
  if (!parsed.values.wait) {
    context.print(accepted, () => `Demo ${accepted.id} is queued. Follow it with: showreel demos show ${accepted.id}`);
    return;
  }
  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error('interrupted'));
  // on, not once: Ctrl-C may arrive twice (from the terminal and through bin/showreel.mjs's relay).
  process.on('SIGINT', interrupt);
  const printer = progressPrinter();
  let final: Progress;
  try {
    final = await waitForDemo(context, accepted.id, (p) => printer.update(p), controller.signal);
  } catch (error) {
    printer.done();
    if (controller.signal.aborted) {
      context.note(`Stopped waiting; the demo goes on. See it with: showreel demos show ${accepted.id}`);
      process.exitCode = 130;
      return;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
  printer.done();
  if (final.status !== 'ready') {
    // Scripts (--json) still get the demo's id and outcome on stdout; the sentence goes to stderr.
    if (context.json) context.print({ id: accepted.id, status: final.status, error: final.error ?? null }, () => '');
    throw new ClientError(`Demo ${accepted.id} ${final.status}: ${(final.error ?? 'no reason given').replace(/[.!?]$/, '')}.`);
  }
  const demo = unwrap(await (await context.api()).GET('/api/v1/demos/{id}', { params: { path: { id: accepted.id } } }));
  const urls = demoUrls(context.baseUrl, demo.id, demo.format);
  // Issue 55: what the prompt asked for that the page lacks, on stderr: stdout stays the share URL a script reads.
  if (!context.json) for (const warning of demo.warnings) context.note(`Warning: ${warning}`);
  // Issue 57: the id the next steps take (download, show, refresh), on stderr beside the bar, for the same reason.
  if (!context.json) context.note(`Demo ${demo.id} is ready. Download it with: showreel demos download ${demo.id} --out demo.${demo.format}`);
  context.print({ ...accepted, status: final.status, shareUrl: urls.shareUrl, videoUrl: urls.video, warnings: demo.warnings }, () => urls.shareUrl);
}

export const demosList: ClientCommand = {
  name: 'demos list',
  summary: 'List your demos, newest first',
  usage: 'demos list [--project ID]',
  help: ['--project ID     only this project\'s demos'],
  options: { project: { type: 'string' } },
  async run(parsed, context) {
    const project = stringOption(parsed, 'project');
    const { demos } = unwrap(await (await context.api()).GET('/api/v1/demos', { params: { query: project ? { project_id: project } : {} } }));
    context.print({ demos }, () =>
      table(
        ['ID', 'STATUS', 'SOURCE', 'FORMAT', 'CREATED', 'PROMPT'],
        demos.map((d) => [d.id, d.status, d.source, d.format, d.created_at.slice(0, 16).replace('T', ' '), truncate(d.prompt, 50)]),
      ),
    );
  },
};

export const demosCreate: ClientCommand = {
  name: 'demos create',
  summary: 'Ask for a demo of a project\'s site; generation runs on the service',
  usage: 'demos create --project ID --prompt TEXT [--template STYLE] [--mode script|agent] [--format mp4|webm] [--resolution 720p|1080p] [--duration 5s|10s|30s] [--aspect 9:16,1:1] [--presentation FILE] [--wait]',
  help: [
    '--project ID        the project (required)',
    '--prompt TEXT       what the demo shows (required)',
    `--template STYLE    the tour style: ${TEMPLATES.join(', ')} (default auto: the service picks)`,
    '--mode MODE         script (a tour planned up front, the default) or agent (a browsing agent decides each step)',
    '--format, --resolution, --duration   defaults mp4, 1080p, 10s',
    '--aspect LIST       vertical and square cuts beside the 16:9 video, from the same recording (no extra credit): 9:16, 1:1 or both',
    '--presentation FILE a JSON presentation config (--template overrides its recordingTemplate.id, --aspect its aspect)',
    waitHelp,
  ],
  options: {
    project: { type: 'string' },
    prompt: { type: 'string' },
    template: { type: 'string' },
    mode: { type: 'string' },
    format: { type: 'string' },
    resolution: { type: 'string' },
    duration: { type: 'string' },
    presentation: { type: 'string' },
    aspect: { type: 'string' },
    wait: { type: 'boolean' },
  },
  async run(parsed, context) {
    const body = {
      project_id: requiredOption(parsed, 'project'),
      prompt: requiredOption(parsed, 'prompt'),
      format: oneOf(stringOption(parsed, 'format'), ['mp4', 'webm'] as const, 'format'),
      resolution: oneOf(stringOption(parsed, 'resolution'), ['720p', '1080p'] as const, 'resolution'),
      duration_target: oneOf(stringOption(parsed, 'duration'), ['5s', '10s', '30s'] as const, 'duration'),
      presentation: stringOption(parsed, 'presentation') ? await readPresentation(stringOption(parsed, 'presentation')!) : undefined,
      mode: oneOf(stringOption(parsed, 'mode'), MODES, 'mode'),
    };
    const template = oneOf(stringOption(parsed, 'template'), TEMPLATES, 'template');
    if (template) {
      const recordingTemplate = (body.presentation?.recordingTemplate ?? {}) as Record<string, unknown>;
      body.presentation = { ...body.presentation, recordingTemplate: { ...recordingTemplate, id: template } };
    }
    // Issue 59: the cuts, as the API takes them (it says which value is wrong).
    const aspect = stringOption(parsed, 'aspect');
    if (aspect !== undefined) body.presentation = { ...body.presentation, aspect: ['16:9', ...aspect.split(',').map((a) => a.trim().replace(/x/i, ':')).filter((a) => a !== '16:9')] };
    const accepted = unwrap(await (await context.api()).POST('/api/v1/demos', { body: body as never }));
    await maybeWait(parsed, context, accepted);
  },
};

export const demosShow: ClientCommand = {
  name: 'demos show',
  summary: 'A demo: its status, latest job, media and share URLs',
  usage: 'demos show ID',
  positionals: idArgument,
  async run(parsed, context) {
    const demo = unwrap(await (await context.api()).GET('/api/v1/demos/{id}', { params: { path: { id: parsed.positionals[0]! } } }));
    const urls = demoUrls(context.baseUrl, demo.id, demo.format);
    context.print(withJsonFields(demo), () =>
      [
        `id:        ${demo.id}`,
        `project:   ${demo.project_id}`,
        `status:    ${demo.status}${demo.error ? ` (${demo.error})` : ''}`,
        `source:    ${demo.source}`,
        `prompt:    ${demo.prompt}`,
        ...demo.warnings.map((warning) => `warning:   ${warning}`),
        `format:    ${demo.format} ${demo.resolution}, version ${demo.version}`,
        `latest job: ${demo.latestJob ? `${demo.latestJob.status}${demo.latestJob.step ? ` (${demo.latestJob.step})` : ''}` : '-'}`,
        ...(demo.status === 'ready' ? [`share:     ${urls.shareUrl}`, `video:     ${urls.video}`] : []),
        // Issue 59: each cut made beside the 16:9 video.
        ...demo.variants.map((variant) => `${variant.aspect.padEnd(5)} cut: ${variant.video_url}`),
      ].join('\n'),
    );
  },
};

export const demosRefresh: ClientCommand = {
  name: 'demos refresh',
  summary: 'Re-plan and re-record a generated demo',
  usage: 'demos refresh ID [--wait]',
  help: [waitHelp],
  options: { wait: { type: 'boolean' } },
  positionals: idArgument,
  async run(parsed, context) {
    const accepted = unwrap(await (await context.api()).POST('/api/v1/demos/{id}/refresh', { params: { path: { id: parsed.positionals[0]! } } }));
    await maybeWait(parsed, context, accepted);
  },
};

export const demosRestyle: ClientCommand = {
  name: 'demos restyle',
  summary: 'Re-record a demo from its stored script with a new presentation',
  usage: 'demos restyle ID --presentation FILE [--wait]',
  help: ['--presentation FILE a JSON presentation config (required)', waitHelp],
  options: { presentation: { type: 'string' }, wait: { type: 'boolean' } },
  positionals: idArgument,
  async run(parsed, context) {
    const presentation = await readPresentation(requiredOption(parsed, 'presentation'));
    const accepted = unwrap(
      await (await context.api()).POST('/api/v1/demos/{id}/restyle', { params: { path: { id: parsed.positionals[0]! } }, body: { presentation } as never }),
    );
    await maybeWait(parsed, context, accepted);
  },
};

export const demosDelete: ClientCommand = {
  name: 'demos delete',
  summary: 'Delete a demo and its media',
  usage: 'demos delete ID',
  positionals: idArgument,
  async run(parsed, context) {
    const id = parsed.positionals[0]!;
    const result = unwrap(await (await context.api()).DELETE('/api/v1/demos/{id}', { params: { path: { id } } }));
    context.print(result, () => `Deleted demo ${id}.`);
  },
};

export const demosDownload: ClientCommand = {
  name: 'demos download',
  summary: 'Download a ready demo\'s video, GIF or thumbnail',
  usage: 'demos download ID [--what video|gif|thumbnail] [--out FILE]',
  help: ['--what KIND       video (default), gif or thumbnail', '--out FILE       where to write it (default: <id>.<ext> here; a directory: <id>.<ext> in it)'],
  options: { what: { type: 'string' }, out: { type: 'string' } },
  positionals: idArgument,
  async run(parsed, context) {
    const what = oneOf(stringOption(parsed, 'what'), ['video', 'gif', 'thumbnail'] as const, 'what') ?? 'video';
    const demo = unwrap(await (await context.api()).GET('/api/v1/demos/{id}', { params: { path: { id: parsed.positionals[0]! } } }));
    if (demo.status !== 'ready' && !demo.video_key) {
      throw new ClientError(
        demo.status === 'failed'
          ? `Demo ${demo.id} failed and has no video: ${demo.error ?? 'no reason given'} Refresh it to try again.`
          : `Demo ${demo.id} is ${demo.status}: there is nothing to download yet.`,
      );
    }
    const url = demoUrls(context.baseUrl, demo.id, demo.format)[what];
    const extension = what === 'video' ? demo.format : what === 'gif' ? 'gif' : 'png';
    const out = await outputFile(stringOption(parsed, 'out'), `${demo.id}.${extension}`);
    const response = await fetch(url);
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => null)) as { error?: string } | null;
      throw new ClientError(body?.error ?? `Downloading ${url} answered ${response.status}.`);
    }
    // Into a file beside the target, renamed over it only once whole: a download that breaks off leaves an
    // existing file as it was, and no half file under the name.
    const partial = path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.part`);
    try {
      await pipeline(Readable.fromWeb(response.body as never), createWriteStream(partial, { flags: 'wx' }));
      await fs.rename(partial, out);
    } catch (error) {
      await fs.rm(partial, { force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new ClientError(`Cannot write ${out}: ${code === 'EROFS' ? 'read-only file system' : 'permission denied'}.`);
      if (code === 'EISDIR') throw new ClientError(`Cannot write ${out}: it is a directory.`);
      if (typeof code === 'string') throw error;
      throw new ClientError(`The download of ${url} broke off (${(error as Error).message}); ${out} was not written.`);
    }
    const { size } = await fs.stat(out);
    context.print({ id: demo.id, what, file: out, bytes: size }, () => `Wrote ${out} (${humanBytes(size)}).`);
  },
};

/** --out as a file to write: a directory (or a path ending in /) gets `name` in it; its directory must exist. */
async function outputFile(given: string | undefined, name: string): Promise<string> {
  if (given === undefined) return name;
  const isDirectory = /[/\\]$/.test(given) || (await fs.stat(given).then((s) => s.isDirectory(), () => false));
  const out = isDirectory ? path.join(given, name) : given;
  const directory = path.dirname(out);
  if (!(await fs.stat(directory).then((s) => s.isDirectory(), () => false))) throw new ClientError(`Cannot write ${out}: the directory ${directory} does not exist.`);
  return out;
}
