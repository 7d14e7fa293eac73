import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isClientCommand } from '../../src/cli/client/commands-index.js';
import { clientCommandWords } from '../../src/cli/client/run.js';
import { completeDemoJob, failDemoJob, reportDemoProgress, startDemoJob } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { type CliResult, cliLauncher } from '../helpers/cli.js';
import { makeMediaFixtures, type MediaFixtures } from '../pipeline/media-fixtures.js';

const metadata = { actor: 'test' };


/**
 * The `showreel` client, as a user runs it: a child process of bin/showreel.mjs against a real server (its own
 * PostgreSQL), with its own config directory. No worker runs: demos stay pending unless a test moves them.
 */
describe('showreel as an API client (issue 13)', () => {
  let app: TestApp;
  let user: TestUser;
  let media: MediaFixtures;
  let configHome: string;
  let work: string;
  const { launch, finished, run: showreel, kill } = cliLauncher({ cwd: () => work, configHome: () => configHome, serviceUrl: () => app.url });

  before(async () => {
    [app, media] = await Promise.all([startTestApp(), makeMediaFixtures()]);
    user = await app.createUser({ credits: 50 });
    configHome = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-cli-config-'));
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-cli-work-'));
  });
  after(async () => {
    kill();
    await app.stop();
    await media.cleanup();
    await fs.rm(configHome, { recursive: true, force: true });
    await fs.rm(work, { recursive: true, force: true });
  });

  const asUser = (args: string[]) => showreel(args, { SHOWREEL_API_KEY: user.key });
  const json = (result: CliResult) => {
    assert.equal(result.code, 0, `exit ${result.code}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };

  async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, withinMs = 20_000): Promise<T> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('logs in through the device flow, keeps the key 0600, says who it is, and logout revokes the key', async () => {
    const signedIn = await app.api('/api/v1/auth/sign-in', { body: { email: user.email, password: user.password } });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;

    const login = launch(['login']);
    // The person reads the code from the terminal and approves it in the dashboard.
    const userCode = await until('the user code', () => /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(login.output.stderr)?.[1]);
    // The code and the link are written one after the other; on a busy machine they can arrive as two chunks.
    await until('the approval link', () => (new RegExp(`/app/device\\?user_code=${userCode}`).test(login.output.stderr) ? true : undefined), 5000).catch(() => undefined);
    assert.match(login.output.stderr, new RegExp(`/app/device\\?user_code=${userCode}`));
    const approved = await app.api('/api/v1/device/authorize', { cookie, body: { user_code: userCode } });
    assert.equal(approved.status, 200);
    const loggedIn = await finished(login);
    assert.equal(loggedIn.code, 0, loggedIn.stderr);
    assert.match(loggedIn.stdout, new RegExp(`Logged in to ${app.url} as ${user.email}`));

    const file = path.join(configHome, 'showreel', 'config.json');
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    const stored = JSON.parse(await fs.readFile(file, 'utf8'));
    assert.match(stored.key, /^sr_live_/);

    const whoami = await showreel(['whoami']);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.match(whoami.stdout, new RegExp(user.email));
    assert.equal(json(await showreel(['whoami', '--json'])).key_id, stored.key_id);

    // SHOWREEL_API_KEY wins over the stored key.
    const other = await app.createUser();
    assert.equal(json(await showreel(['whoami', '--json'], { SHOWREEL_API_KEY: other.key })).email, other.email);

    // Logging in again replaces the key in the file, and revokes the one it replaces: no live key left forgotten.
    const again = launch(['login']);
    const secondCode = await until('the second user code', () => /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(again.output.stderr)?.[1]);
    assert.equal((await app.api('/api/v1/device/authorize', { cookie, body: { user_code: secondCode } })).status, 200);
    const relogged = await finished(again);
    assert.equal(relogged.code, 0, relogged.stderr);
    assert.match(relogged.stderr, new RegExp(`The key this computer used before \\(${stored.key_id}\\) was revoked`));
    assert.equal((await app.api('/api/v1/projects', { key: stored.key })).status, 401);
    const current = JSON.parse(await fs.readFile(file, 'utf8'));
    assert.notEqual(current.key_id, stored.key_id);

    const logout = await showreel(['logout']);
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stdout, /revoked/);
    await assert.rejects(fs.stat(file));
    assert.equal((await app.api('/api/v1/projects', { key: current.key })).status, 401);

    const after = await showreel(['whoami']);
    assert.equal(after.code, 1);
    assert.match(after.stderr, /Not logged in/);
  });

  it('creates a project and a demo, lists and shows it as JSON', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Acme', '--url', 'https://acme.example', '--json']));
    assert.equal(project.name, 'Acme');
    const created = json(await asUser(['demos', 'create', '--project', project.id, '--prompt', 'Show the pricing page', '--json']));
    assert.equal(created.status, 'pending');

    const listed = json(await asUser(['demos', 'list', '--project', project.id, '--json']));
    assert.deepEqual(listed.demos.map((d: { id: string }) => d.id), [created.id]);
    const shown = json(await asUser(['demos', 'show', created.id, '--json']));
    assert.equal(shown.prompt, 'Show the pricing page');
    assert.equal(shown.latestJob.status, 'queued');

    const table = await asUser(['demos', 'list']);
    assert.match(table.stdout, /^ID\s+STATUS/);
    assert.match(table.stdout, new RegExp(`${created.id}\\s+pending`));
    assert.match(json(await asUser(['projects', 'list', '--json'])).projects[0].id, new RegExp(project.id));
  });

  it('demos create --wait follows the socket live, and a failed demo is exit 1 with its error', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Wait', '--url', 'https://wait.example', '--json']));
    const child = launch(['demos', 'create', '--project', project.id, '--prompt', 'Tour', '--wait'], { SHOWREEL_API_KEY: user.key });
    await until('the first state', () => (/queued/.test(child.output.stderr) ? true : undefined));
    const [demo] = await app.sql<{ id: string; latest_job_id: string }[]>`select id, latest_job_id from demos where project_id = ${project.id}`;
    // What a worker would report, step by step.
    await inTransaction(app.sql, (tx) => startDemoJob(tx, demo!.id, demo!.latest_job_id, 1, metadata));
    await inTransaction(app.sql, (tx) => reportDemoProgress(tx, demo!.id, demo!.latest_job_id, 'recording', 0.5, metadata));
    await until('the recording step', () => (/50% .*recording/.test(child.output.stderr) ? true : undefined));
    await inTransaction(app.sql, (tx) => failDemoJob(tx, demo!.id, demo!.latest_job_id, 'The page did not load.', metadata));
    const result = await finished(child);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /failed: The page did not load\.\n/, 'one period');
    const download = await asUser(['demos', 'download', demo!.id]);
    assert.equal(download.code, 1);
    assert.match(download.stderr, /failed and has no video: The page did not load\. Refresh it to try again\./);
  });

  it('says what the page did not have: after demos create --wait on stderr (stdout stays the share URL), and in demos show', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Warned', '--url', 'https://warned.example', '--json']));
    const child = launch(['demos', 'create', '--project', project.id, '--prompt', 'Show the roadmap, then end on the pricing', '--wait'], { SHOWREEL_API_KEY: user.key });
    await until('the first state', () => (/queued/.test(child.output.stderr) ? true : undefined));
    const [demo] = await app.sql<{ id: string; latest_job_id: string }[]>`select id, latest_job_id from demos where project_id = ${project.id}`;
    const warning = 'Couldn’t find “the roadmap” on this page; the video shows the parts that were found.';
    // What a worker reports when the plan found the pricing and not the roadmap.
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, demo!.id, demo!.latest_job_id, 1, metadata);
      await completeDemoJob(tx, { demoId: demo!.id, jobId: demo!.latest_job_id, videoKey: 'v.mp4', gifKey: null, thumbnailKey: null, durationMs: 10_000, warnings: [warning] }, metadata);
    });
    const result = await finished(child);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout.trim(), new RegExp(`^\\S+/share/${demo!.id}$`), 'stdout is the share URL alone');
    assert.ok(result.stderr.includes(`Warning: ${warning}\n`), result.stderr);
    assert.ok(result.stderr.includes(`Demo ${demo!.id} is ready. Download it with: showreel demos download ${demo!.id} --out demo.mp4\n`), 'the id the next step needs');
    const shown = await asUser(['demos', 'show', demo!.id]);
    assert.ok(shown.stdout.includes(`warning:   ${warning}\n`), shown.stdout);
    assert.deepEqual(json(await asUser(['demos', 'show', demo!.id, '--json'])).warnings, [warning]);
  });

  it('demos create --aspect asks for the vertical and square cuts, and demos show lists each cut made', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Cuts', '--url', 'https://cuts.example', '--json']));
    const created = json(await asUser(['demos', 'create', '--project', project.id, '--prompt', 'Tour', '--aspect', '9:16,1x1', '--json']));
    const [row] = await app.sql<{ presentation: string; latest_job_id: string }[]>`select presentation, latest_job_id from demos where id = ${created.id}`;
    assert.deepEqual(JSON.parse(row!.presentation).aspect, ['16:9', '9:16', '1:1']);
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, created.id, row!.latest_job_id, 1, metadata);
      await completeDemoJob(tx, {
        demoId: created.id, jobId: row!.latest_job_id, videoKey: 'v.mp4', gifKey: null, thumbnailKey: null, durationMs: 10_000,
        variants: [{ aspect: '9:16', videoKey: 'v-9x16.mp4', gifKey: null, thumbnailKey: null }],
      }, metadata);
    });
    const shown = await asUser(['demos', 'show', created.id]);
    assert.match(shown.stdout, new RegExp(`9:16  cut: \\S+/video/${created.id}\\.mp4\\?aspect=9x16\n`));
    const wrong = await asUser(['demos', 'create', '--project', project.id, '--prompt', 'Tour', '--aspect', '4:3']);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /aspect/);
  });

  it('--wait polls when the WebSocket is refused', async () => {
    // A front that passes HTTP through and refuses every upgrade, as some proxies do.
    const front = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
      const upstream = await fetch(`${app.url}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    front.on('upgrade', (_req, socket) => socket.destroy());
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const frontUrl = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
    try {
      const project = json(await asUser(['projects', 'create', '--name', 'Poll', '--url', 'https://poll.example', '--json']));
      const child = launch(['demos', 'create', '--project', project.id, '--prompt', 'Tour', '--wait', '--base-url', frontUrl], { SHOWREEL_API_KEY: user.key });
      await until('the first polled state', () => (/queued/.test(child.output.stderr) ? true : undefined));
      const [demo] = await app.sql<{ id: string; latest_job_id: string }[]>`select id, latest_job_id from demos where project_id = ${project.id}`;
      await inTransaction(app.sql, (tx) => failDemoJob(tx, demo!.id, demo!.latest_job_id, 'Polled to the end.', metadata));
      const result = await finished(child);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /failed: Polled to the end\./);
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('Ctrl-C stops waiting, not the job', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Interrupt', '--url', 'https://int.example', '--json']));
    const child = launch(['demos', 'create', '--project', project.id, '--prompt', 'Tour', '--wait'], { SHOWREEL_API_KEY: user.key });
    await until('the first state', () => (/queued/.test(child.output.stderr) ? true : undefined));
    child.kill('SIGINT');
    const result = await finished(child);
    assert.equal(result.code, 130);
    assert.match(result.stderr, /Stopped waiting; the demo goes on/);
    const [demo] = await app.sql<{ status: string }[]>`select status from demos where project_id = ${project.id}`;
    assert.equal(demo!.status, 'pending');
  });

  it('uploads an MP4 with a thumbnail and a GIF, and downloads the same bytes back', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Upload', '--url', 'https://up.example', '--json']));
    const uploaded = json(
      await asUser(['upload', media.mp4, '--project', project.id, '--prompt', 'Recorded locally', '--thumbnail', media.png, '--gif', media.animatedGif, '--json']),
    );
    assert.equal(uploaded.status, 'ready');
    assert.equal(uploaded.assets.thumbnail.type, 'thumbnail');
    assert.equal(uploaded.assets.gif.type, 'gif');

    const out = path.join(work, 'out.mp4');
    const downloaded = json(await asUser(['demos', 'download', uploaded.id, '--out', out, '--json']));
    assert.equal(downloaded.file, out);
    assert.deepEqual(await fs.readFile(out), await fs.readFile(media.mp4));
    const thumb = json(await asUser(['demos', 'download', uploaded.id, '--what', 'thumbnail', '--json']));
    assert.deepEqual(await fs.readFile(path.join(work, thumb.file)), await fs.readFile(media.png));
  });

  it('login checks it can keep a key before it asks the service for one', async () => {
    const notADirectory = path.join(work, 'config-is-a-file');
    await fs.writeFile(notADirectory, '');
    const result = await showreel(['login'], { XDG_CONFIG_HOME: notADirectory });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^Error: Cannot keep a key in .+config-is-a-file\/showreel \(ENOTDIR\)\. Set XDG_CONFIG_HOME to a writable directory\.\n$/);
    assert.doesNotMatch(result.stderr, /one-time code/, 'no code was asked for');
  });

  it('sends a stored key only to the service it was issued by', async () => {
    // Another service that would log whatever credential it is sent.
    const seen: string[] = [];
    const stranger = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    const strangerUrl = `http://127.0.0.1:${(stranger.address() as { port: number }).port}`;
    const file = path.join(configHome, 'showreel', 'config.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ base_url: app.url, key: user.key, key_id: 'k' }), { mode: 0o600 });
    try {
      const elsewhere = await showreel(['whoami'], { SHOWREEL_URL: strangerUrl });
      assert.equal(elsewhere.code, 1);
      assert.match(elsewhere.stderr, new RegExp(`^Error: The key "showreel login" stored is for ${app.url}, not ${strangerUrl}: run "showreel login --base-url ${strangerUrl}"`));
      assert.deepEqual(seen, [], 'the other service saw no key');
      // With no --base-url or SHOWREEL_URL, the stored service is the one called.
      const home = await showreel(['whoami', '--json'], { SHOWREEL_URL: '' });
      assert.equal(json(home).email, user.email);
    } finally {
      await fs.rm(file, { force: true });
      stranger.close();
    }
  });

  it('logout says which service it could not reach, and --forget forgets the key here only', async () => {
    const file = path.join(configHome, 'showreel', 'config.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ base_url: 'http://127.0.0.1:1', key: 'sr_live_x', key_id: 'gone' }), { mode: 0o600 });
    const unreachable = await showreel(['logout']);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^Error: Could not reach http:\/\/127\.0\.0\.1:1 to revoke the key; it is still stored\./);
    assert.ok(await fs.stat(file), 'kept');
    const forgotten = await showreel(['logout', '--forget']);
    assert.equal(forgotten.code, 0, forgotten.stderr);
    assert.match(forgotten.stdout, /Forgotten here; the key gone still works until you revoke it/);
    await assert.rejects(fs.stat(file));
  });

  it('downloads into a directory, and says in one line what is wrong with --out', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Files', '--url', 'https://files.example', '--json']));
    const uploaded = json(await asUser(['upload', media.mp4, '--project', project.id, '--prompt', 'Files', '--json']));
    const directory = path.join(work, 'downloads');
    await fs.mkdir(directory);
    const into = json(await asUser(['demos', 'download', uploaded.id, '--out', directory, '--json']));
    assert.equal(into.file, path.join(directory, `${uploaded.id}.mp4`));
    assert.deepEqual(await fs.readFile(into.file), await fs.readFile(media.mp4));
    assert.deepEqual((await fs.readdir(directory)).sort(), [`${uploaded.id}.mp4`], 'no partial file left beside it');
    const missing = await asUser(['demos', 'download', uploaded.id, '--out', path.join(work, 'nowhere', 'x.mp4')]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, `Error: Cannot write ${path.join(work, 'nowhere', 'x.mp4')}: the directory ${path.join(work, 'nowhere')} does not exist.\n`);
  });

  it('checks every file of an upload before sending any: a bad thumbnail leaves no demo behind', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Checked', '--url', 'https://checked.example', '--json']));
    for (const thumbnail of [path.join(work, 'no-such.png'), media.animatedGif]) {
      const refused = await asUser(['upload', media.mp4, '--project', project.id, '--prompt', 'x', '--thumbnail', thumbnail]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
    }
    assert.deepEqual(json(await asUser(['demos', 'list', '--project', project.id, '--json'])).demos, []);
  });

  it('refuses an empty id, and a service that does not answer JSON, in one line each', async () => {
    const empty = await asUser(['demos', 'show', '']);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /An argument is empty\. Usage: showreel demos show ID/);
    const page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>sign in</html>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const html = await asUser(['projects', 'list', '--base-url', `http://127.0.0.1:${(page.address() as { port: number }).port}`]);
      assert.equal(html.code, 1);
      assert.equal(html.stderr, 'Error: the service did not answer JSON: is --base-url (or SHOWREEL_URL) the Showreel service itself?\n');
    } finally {
      page.close();
    }
  });

  it('keys create and revoke: the revoked key is a 401 at once', async () => {
    const created = json(await asUser(['keys', 'create', '--name', 'CI', '--json']));
    assert.equal(json(await showreel(['usage', '--json'], { SHOWREEL_API_KEY: created.key })).account.email, user.email);
    assert.ok(json(await asUser(['keys', 'list', '--json'])).keys.some((k: { id: string }) => k.id === created.id));
    // As a person reads it: times to the minute like the other tables (it was just used), "never" for one not used.
    const unused = json(await asUser(['keys', 'create', '--name', 'Spare', '--json']));
    const lines = (await asUser(['keys', 'list'])).stdout.split('\n');
    assert.match(lines.find((line) => line.startsWith(created.id))!, /\s\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.match(lines.find((line) => line.startsWith(unused.id))!, /\snever\s+\d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.doesNotMatch(lines.join('\n'), /T\d\d:\d\d:\d\d/, 'no raw ISO times');
    json(await asUser(['keys', 'revoke', created.id, '--json']));
    const refused = await showreel(['usage'], { SHOWREEL_API_KEY: created.key });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^Error: .+/);
  });

  it('credits: balance, top-off with a threshold, history; buying and top-off refused where payments are not configured', async () => {
    const overview = json(await asUser(['credits', '--json']));
    assert.equal(typeof overview.balance, 'number');
    // SHOWREEL_PAYMENTS=none (the test app's default, issue 34): nothing is sold, the refusal says who grants credits.
    for (const args of [['credits', 'buy', '20'], ['credits', 'topoff', 'on', '--pack', '5']]) {
      const refused = await asUser(args);
      assert.equal(refused.code, 1, args.join(' '));
      assert.equal(refused.stderr, 'Error: Payments are not configured on this service; an administrator grants credits.\n');
    }
    assert.equal(json(await asUser(['credits', '--json'])).balance, overview.balance);
    const topoff = json(await asUser(['credits', 'topoff', 'off', '--pack', '5', '--threshold', '2', '--json']));
    assert.deepEqual(topoff, { enabled: false, packId: '5', threshold: 2 });
    const history = json(await asUser(['credits', 'history', '--limit', '1', '--json']));
    assert.equal(history.transactions.length, 1);
    assert.equal(typeof history.nextCursor, 'string');
    const text = await asUser(['usage']);
    assert.match(text.stdout, /plan:\s+Free \(uploads: mp4;/, "the plan limits the formats of uploads, not of generated demos");
  });

  it('demos create takes a tour style and a planning mode; show --json gives the JSON columns as JSON (issue 35)', async () => {
    const project = json(await asUser(['projects', 'create', '--name', 'Styles', '--url', 'https://styles.example', '--json']));
    const created = json(await asUser(['demos', 'create', '--project', project.id, '--prompt', 'Show the plans', '--template', 'pricing-focus', '--mode', 'agent', '--json']));
    const [row] = await app.sql<{ mode: string }[]>`select mode from demos where id = ${created.id}`;
    assert.equal(row!.mode, 'agent');
    await app.sql`update demos set action_script = ${JSON.stringify({ steps: [{ action: 'scrollTo', selector: '#pricing' }] })} where id = ${created.id}`;
    const shown = json(await asUser(['demos', 'show', created.id, '--json']));
    assert.deepEqual(shown.action_script, { steps: [{ action: 'scrollTo', selector: '#pricing' }] }, 'an object, not a string holding JSON');
    assert.equal(shown.presentation.recordingTemplate.id, 'pricing-focus');
    const badStyle = await asUser(['demos', 'create', '--project', project.id, '--prompt', 'x', '--template', 'proof_scroll']);
    assert.equal(badStyle.code, 2);
    assert.match(badStyle.stderr, /--template must be one of: auto, cinematic, .*proof-scroll\./);
  });

  it('under --json, every error is {"error": …} on stderr with a non-zero exit; sizes are for people (issue 35)', async () => {
    const notFound = await asUser(['demos', 'show', 'no-such-demo', '--json']);
    assert.equal(notFound.code, 1);
    assert.equal(notFound.stdout, '');
    assert.deepEqual(JSON.parse(notFound.stderr), { error: 'Demo not found.' });
    const usage = await asUser(['demos', 'create', '--prompt', 'x', '--json']);
    assert.equal(usage.code, 2);
    assert.deepEqual(JSON.parse(usage.stderr), { error: '--project is required.' });
    const unknownOption = await asUser(['demos', 'list', '--bogus', '--json']);
    assert.equal(unknownOption.code, 2);
    assert.match(JSON.parse(unknownOption.stderr).error, /--bogus/);
    const unreachable = await showreel(['projects', 'list', '--json', '--base-url', 'http://127.0.0.1:1'], { SHOWREEL_API_KEY: user.key });
    assert.equal(unreachable.code, 1);
    assert.match(JSON.parse(unreachable.stderr).error, /could not reach the service/);

    const project = json(await asUser(['projects', 'create', '--name', 'Sizes', '--url', 'https://sizes.example', '--json']));
    const uploaded = json(await asUser(['upload', media.mp4, '--project', project.id, '--prompt', 'Sizes', '--json']));
    const bytes = (await fs.stat(media.mp4)).size;
    const wrote = await asUser(['demos', 'download', uploaded.id, '--out', path.join(work, 'sized.mp4')]);
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.match(wrote.stdout, /^Wrote .*sized\.mp4 \(\d+\.\d (KB|MB)\)\.$/m);
    assert.doesNotMatch(wrote.stdout, new RegExp(`${bytes} bytes`));
    assert.equal(json(await asUser(['demos', 'download', uploaded.id, '--out', path.join(work, 'sized2.mp4'), '--json'])).bytes, bytes, 'scripts keep the exact count');
  });

  it('exit codes: 2 for bad usage, 1 for what the API refused (its error printed), --help on every command', async () => {
    const unknownOption = await asUser(['demos', 'list', '--bogus']);
    assert.equal(unknownOption.code, 2);
    assert.match(unknownOption.stderr, /--bogus/);
    const missing = await asUser(['demos', 'create', '--prompt', 'x']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--project is required/);
    const badChoice = await asUser(['demos', 'download', 'x', '--what', 'poster']);
    assert.equal(badChoice.code, 2);
    const noSuchDemo = await asUser(['demos', 'show', 'no-such-demo']);
    assert.equal(noSuchDemo.code, 1);
    assert.match(noSuchDemo.stderr, /^Error: Demo not found\.$/m);
    const badKey = await showreel(['whoami'], { SHOWREEL_API_KEY: 'sr_live_nope' });
    assert.equal(badKey.code, 1);
    const badPack = await asUser(['credits', 'buy', '7']);
    assert.equal(badPack.code, 2);
    assert.match(badPack.stderr, /PACK must be one of: 5, 20, 50, 100 \(got "7"\)/);
    const ignoredOption = await asUser(['credits', '--limit', '2']);
    assert.equal(ignoredOption.code, 2, 'the overview takes no paging: not silently ignored');
    const unreachable = await showreel(['projects', 'list', '--base-url', 'http://127.0.0.1:1'], { SHOWREEL_API_KEY: user.key });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /could not reach the service/);

    // main.ts routes by the first word before loading anything: every client command must be routed there.
    for (const word of clientCommandWords()) assert.ok(isClientCommand(word), word);
    // Global options may also come before the command.
    assert.ok(Array.isArray(json(await asUser(['--json', 'projects', 'list'])).projects));
    const before = await asUser(['--base-url', 'http://127.0.0.1:1', 'projects', 'list']);
    assert.equal(before.code, 1);
    assert.match(before.stderr, /could not reach the service/);
    const helpFor = await showreel(['help', 'demos', 'create']);
    assert.equal(helpFor.code, 0);
    assert.match(helpFor.stdout, /Usage: showreel demos create --project ID/, '"help <command>" is that command\'s help');
    for (const words of [['--help'], ['login', '--help'], ['demos', 'create', '--help'], ['demos', '--help'], ['credits', '--help'], ['upload', '-h']]) {
      const help = await showreel(words);
      assert.equal(help.code, 0, words.join(' '));
      assert.match(help.stdout, /showreel/, words.join(' '));
    }
  });
});
