import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { runtimeSignature } from '../../src/embeds/index.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { failJob, finishJob } from '../helpers/pipeline.js';
import { renderEmbedNotice } from '../../src/http/embeds/embed-notice.js';
import { runSnippet } from './embed-harness.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe('signed runtime embeds: GET /embed/runtime', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;
  let secret: string;
  let readyId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 20 });
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } });
    projectId = project.body.id;
    secret = project.body.signing_secret;
    const created = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show the <b>pricing</b> & "plans"' } });
    readyId = created.body.id;
    await finishJob(app.sql, readyId, created.body.jobId);
  });
  after(() => app.stop());

  const env = () => ({ SHOWREEL_URL: app.url, SHOWREEL_PROJECT_ID: projectId, SHOWREEL_SIGNING_SECRET: secret });
  const sign = (payload: unknown, options: { expires?: number; key?: string; project?: string } = {}) => {
    const expires = String(options.expires ?? Math.floor(Date.now() / 1000) + 600);
    const encoded = payload === undefined ? null : Buffer.from(JSON.stringify(payload)).toString('base64url');
    const project = options.project ?? projectId;
    const query = new URLSearchParams({ project_id: project, expires });
    if (encoded !== null) query.set('payload', encoded);
    query.set('signature', runtimeSignature(options.key ?? secret, project, expires, encoded));
    return `/api/v1/embed/runtime?${query}`;
  };
  const get = (pathname: string) => app.api(pathname);

  it('plays a ready demo from URLs signed by the documented Node and Python snippets', async () => {
    for (const language of ['js', 'python'] as const) {
      const url = await runSnippet(language, env(), { demoId: readyId, autoplay: true, loop: true });
      assert.ok(url.startsWith(`${app.url}/api/v1/embed/runtime?`), url);
      const page = await fetch(url);
      assert.equal(page.status, 200, `${language}: ${await page.clone().text()}`);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors \*/);
      const html = await page.text();
      assert.match(html, new RegExp(`<video[^>]* loop muted autoplay poster="[^"]*/thumb/${readyId}\\.png\\?v=1"`));
      assert.match(html, new RegExp(`<source src="[^"]*/video/${readyId}\\.mp4\\?v=1"`));
      // What the user typed is text, never markup.
      assert.ok(!html.includes('<b>pricing</b>'));
    }
  });

  it('prints a working URL from `showreel embed-url`', async () => {
    const { stdout } = await run(process.execPath, [path.join(root, 'bin/showreel.mjs'), 'embed-url', '--project', projectId, '--payload', JSON.stringify({ demoId: readyId }), '--ttl', '120', '--base-url', app.url], {
      cwd: root,
      env: { ...process.env, SHOWREEL_SIGNING_SECRET: secret, SHOWREEL_DATA_DIR: app.dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    });
    const url = new URL(stdout.trim());
    assert.ok(Number(url.searchParams.get('expires')) - Date.now() / 1000 <= 120);
    assert.equal((await fetch(url)).status, 200);
  });

  it('answers 401 {error} for a missing, tampered or expired signature', async () => {
    const good = sign({ demoId: readyId });
    const cases = [
      good.replace(/&signature=[^&]+/, ''),
      good.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
      good.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1}`),
      sign({ demoId: readyId, autoplay: true }).replace(/payload=[^&]+/, `payload=${Buffer.from(JSON.stringify({ demoId: readyId })).toString('base64url')}`),
      sign({ demoId: readyId }, { key: 'sk_sign_not-the-secret' }),
      sign({ demoId: readyId }, { expires: Math.floor(Date.now() / 1000) - 1 }),
    ];
    for (const pathname of cases) {
      const answer = await get(pathname);
      assert.equal(answer.status, 401, pathname);
      assert.deepEqual(Object.keys(answer.body), ['error']);
    }
    assert.match((await get(cases[5]!)).body.error, /expired/);
  });

  it('shows a browser a small HTML notice for a bad URL, with the same status, while other clients keep {error}', async () => {
    const good = sign({ demoId: readyId });
    const tampered = good.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    const expired = sign({ demoId: readyId }, { expires: Math.floor(Date.now() / 1000) - 1 });
    // What Chromium sends when an iframe loads the URL.
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' };
    for (const [pathname, reason] of [[tampered, /signature/], [expired, /expired/]] as const) {
      const answer = await app.api(pathname, { headers: browser });
      assert.equal(answer.status, 401);
      assert.match(answer.headers.get('content-type')!, /^text\/html/);
      assert.equal(answer.headers.get('vary'), 'Accept');
      assert.match(answer.text, /<h1>This demo link has expired or is not valid<\/h1>/);
      assert.match(answer.text, reason);
      assert.doesNotMatch(answer.text, /\{"error"|<script/);
      const csp = answer.headers.get('content-security-policy')!;
      assert.match(csp, /frame-ancestors \*/, 'it shows inside customers\' iframes');
      assert.match(csp, /default-src 'none'/);
    }
    const missing = await app.api(sign({ demoId: '00000000-0000-4000-8000-000000000000' }), { headers: browser });
    assert.equal(missing.status, 404);
    assert.match(missing.text, /This demo is not available/);
    // A server checking its URLs, curl, fetch: JSON as before.
    for (const headers of [{ accept: 'application/json' }, { accept: '*/*' }, {}, { accept: 'application/json, text/html;q=0.5' }] as Array<Record<string, string>>) {
      const answer = await app.api(tampered, { headers });
      assert.equal(answer.status, 401, JSON.stringify(headers));
      assert.match(answer.headers.get('content-type')!, /^application\/json/);
      assert.deepEqual(Object.keys(answer.body), ['error']);
    }
  });

  it('escapes the reason it shows', () => {
    const page = renderEmbedNotice(400, 'payload.url <script>alert(1)</script> & "x"');
    assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;x&quot;/);
    assert.doesNotMatch(page, /<script>/);
  });

  it('stops every earlier URL at once when the signing secret is rotated', async () => {
    const before = sign({ demoId: readyId });
    assert.equal((await get(before)).status, 200);
    const rotated = await app.api(`/api/v1/projects/${projectId}/signing-secret/rotate`, { key: user.key, method: 'POST' });
    assert.equal((await get(before)).status, 401);
    secret = rotated.body.signing_secret;
    assert.equal((await get(sign({ demoId: readyId }))).status, 200);
  });

  it('answers 400 for an expiry more than 30 days ahead and for a bad payload, 404 for unknown projects and demos', async () => {
    const far = await get(sign({ demoId: readyId }, { expires: Math.floor(Date.now() / 1000) + 31 * 86400 }));
    assert.equal(far.status, 400);
    assert.match(far.body.error, /30 days/);
    assert.equal((await get(sign({ demoId: readyId }, { expires: Math.floor(Date.now() / 1000) + 29 * 86400 }))).status, 200);

    const expires = String(Math.floor(Date.now() / 1000) + 600);
    const signedRaw = (payload: string) => `/api/v1/embed/runtime?project_id=${projectId}&expires=${expires}&payload=${payload}&signature=${runtimeSignature(secret, projectId, expires, payload)}`;
    assert.equal((await get(signedRaw('not*base64'))).status, 400);
    assert.match((await get(signedRaw(Buffer.from('{nope').toString('base64url')))).body.error, /base64url-encoded JSON/);
    const badProps = await get(sign({ demoId: readyId, autoplay: 'yes' }));
    assert.equal(badProps.status, 400);
    assert.match(badProps.body.error, /payload\.autoplay/);
    const offSite = await get(sign({ url: 'https://elsewhere.example/', prompt: 'x' }));
    assert.equal(offSite.status, 400);
    assert.equal(offSite.body.error, "payload.url must be a page of the project's site (acme.example); elsewhere.example is not.");
    for (const payload of [{ demoId: `${readyId}\u0000` }, { url: 'https://acme.example/', prompt: 'Tour\u0000' }, { url: 'https://acme.example/', prompt: 'x', section: '\u0000' }]) {
      const nul = await get(sign(payload));
      assert.equal(nul.status, 400, JSON.stringify(payload));
      assert.match(nul.body.error, /payload must not contain NUL/);
    }
    // Half a surrogate pair, as JSON writes it ("\udc00"), cannot be stored either (it was a 500).
    const half = await get(sign({ url: 'https://acme.example/', prompt: 'a\udc00' }));
    assert.equal(half.status, 400, half.text);
    assert.match(half.body.error, /surrogate/);
    assert.equal((await get('/api/v1/embed/runtime?expires=1&signature=x')).status, 400);
    const wordExpiry = await get(`/api/v1/embed/runtime?project_id=${projectId}&expires=soon&signature=x`);
    assert.equal(wordExpiry.status, 400);
    assert.equal(wordExpiry.body.error, 'expires must be Unix seconds.');

    assert.equal((await get(sign({ demoId: readyId }, { project: 'no-such-project' }))).status, 404);
    assert.equal((await get(sign({ demoId: '00000000-0000-4000-8000-000000000000' }))).status, 404);
    const other = await app.createUser();
    const foreign = await app.api('/api/v1/projects', { key: other.key, body: { name: 'Other', url: 'https://other.example' } });
    const foreignDemo = await app.api('/api/v1/demos', { key: other.key, body: { project_id: foreign.body.id, prompt: 'Theirs' } });
    assert.equal((await get(sign({ demoId: foreignDemo.body.id }))).status, 404, 'a demo of another project is not found');
  });

  it('starts a generation (202 loading page), reuses it on every view, plays it when ready, and shows a recoverable error when it failed', async () => {
    const payload = { url: 'https://acme.example/pricing#top', prompt: 'Show the pricing', section: 'Pricing' };
    const first = await get(sign(payload));
    assert.equal(first.status, 202, first.text);
    assert.match(first.text, /data-state="recording"/);
    const demoId = /data-demo-id="([^"]+)"/.exec(first.text)![1]!;
    const again = await get(sign({ ...payload, url: 'https://acme.example/pricing?utm_source=mail' }));
    assert.equal(again.status, 202);
    assert.ok(again.text.includes(`data-demo-id="${demoId}"`), 'the same demo, not a second one');
    const count = await app.sql<{ n: number }[]>`select count(*)::int as n from demos where context_hash = (select context_hash from demos where id = ${demoId})`;
    assert.equal(count[0]!.n, 1);

    const [demo] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${demoId}`;
    await finishJob(app.sql, demoId, demo!.latest_job_id);
    const ready = await get(sign(payload));
    assert.equal(ready.status, 200);
    assert.match(ready.text, /<video/);

    const broken = await get(sign({ url: 'https://acme.example/broken', prompt: 'Breaks' }));
    const brokenId = /data-demo-id="([^"]+)"/.exec(broken.text)![1]!;
    const [brokenJob] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${brokenId}`;
    await failJob(app.sql, brokenId, brokenJob!.latest_job_id);
    const failedPage = await get(sign({ demoId: brokenId }));
    assert.equal(failedPage.status, 200);
    assert.match(failedPage.text, /could not be recorded/);
    // The generation URL starts a new one instead.
    const retried = await get(sign({ url: 'https://acme.example/broken', prompt: 'Breaks' }));
    assert.equal(retried.status, 202);
    assert.ok(!retried.text.includes(brokenId));
  });

  it('takes a payload of player props alone, or a page without a prompt, as embed/generate does', async () => {
    // The project's own page with the default prompt, played on a loop: no url or prompt needed.
    const propsOnly = await get(sign({ autoplay: true, loop: true }));
    assert.equal(propsOnly.status, 202, propsOnly.text);
    assert.equal(/data-demo-id="([^"]+)"/.exec((await get(sign({})).then((r) => r)).text)![1], /data-demo-id="([^"]+)"/.exec(propsOnly.text)![1], 'the same generation as no payload');
    const pageOnly = await get(sign({ url: 'https://acme.example/features' }));
    assert.equal(pageOnly.status, 202, pageOnly.text);
  });

  it('answers 429 when the owner cannot pay for a generation', async () => {
    const poor = await app.createUser({ credits: 0 });
    const project = await app.api('/api/v1/projects', { key: poor.key, body: { name: 'Poor', url: 'https://poor.example' } });
    const expires = String(Math.floor(Date.now() / 1000) + 600);
    const payload = Buffer.from(JSON.stringify({ url: 'https://poor.example/', prompt: 'Tour' })).toString('base64url');
    const answer = await get(`/api/v1/embed/runtime?project_id=${project.body.id}&expires=${expires}&payload=${payload}&signature=${runtimeSignature(project.body.signing_secret, project.body.id, expires, payload)}`);
    assert.equal(answer.status, 429);
    assert.deepEqual(Object.keys(answer.body), ['error']);
    assert.doesNotMatch(answer.body.error, /balance|\b0\b/, 'a visitor does not learn the owner\'s balance');
  });

  it('streams a demo’s progress to the public player socket without credentials, until it is ready', async () => {
    const created = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Socket' } });
    const socket = new WebSocket(`${app.url.replace(/^http/, 'ws')}/embed/${created.body.id}/ws`);
    const messages: any[] = [];
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    while (messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(messages[0].status, 'pending');
    await finishJob(app.sql, created.body.id, created.body.jobId);
    assert.equal(await closed, 1000);
    assert.equal(messages.at(-1).status, 'ready');

    const unknown = new WebSocket(`${app.url.replace(/^http/, 'ws')}/embed/00000000-0000-4000-8000-000000000000/ws`);
    unknown.on('error', () => undefined);
    const status = await new Promise<number>((resolve) =>
      unknown.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      }),
    );
    assert.equal(status, 404);
  });

  it('serves the player script with a long cache and an ETag, and the public progress of a demo', async () => {
    const page = await get(sign({ demoId: readyId }));
    const script = /<script src="([^"]+)"/.exec(page.text)![1]!.replace(/^https?:\/\/[^/]+/, app.url);
    const response = await fetch(script);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('cache-control') ?? '', /max-age=31536000, immutable/);
    const etag = response.headers.get('etag')!;
    assert.equal((await fetch(script, { headers: { 'if-none-match': etag } })).status, 304);
    const status = await get(`/embed/${readyId}/status`);
    assert.equal(status.status, 200);
    assert.equal(status.body.status, 'ready');
    assert.equal(status.body.playable, true);
  });
});
