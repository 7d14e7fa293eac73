import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { type DashboardSession, signInToDashboard } from '../../helpers/dashboard-session.js';
import { reportDemoProgress, startDemoJob } from '../../../src/demos/index.js';
import { inTransaction } from '../../../src/platform/command.js';
import { failJob, finishJob } from '../../helpers/pipeline.js';

/** The dashboard's pages over HTTP, as a browser without script uses them: forms, redirects, what the page says. */
describe('the dashboard pages', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let origin: string;
  let session: DashboardSession;
  let cookie: string;
  let csrf: string;

  before(async () => {
    app = await startTestApp();
    [ada, bob] = await Promise.all([app.createUser({ email: 'ada@example.com', credits: 10 }), app.createUser({ email: 'bob@example.com' })]);
    session = await signInToDashboard(app, ada);
    ({ origin, cookie, csrf } = session);
  });
  after(() => app.stop());

  const post: DashboardSession['post'] = (...args) => session.post(...args);
  const get = (path: string) => session.get(path);
  const text = (path: string) => session.text(path);

  it('welcomes a new account with the first steps, under a strict CSP with no inline script or style', async () => {
    const home = await get('/app/');
    const csp = home.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    const page = await home.text();
    assert.match(page, /Welcome to Showreel/);
    assert.match(page, /Create project/);
    assert.match(page, /<a href="\/docs">API reference<\/a>/, 'the API reference is one click away');
    assert.doesNotMatch(page, /<script>|<style>| style="/, 'no inline script or style');
    const script = /src="(\/app\/static\/dashboard\.js\?v=[^"]+)"/.exec(page)![1]!;
    const first = await fetch(`${app.url}${script}`);
    assert.equal(first.status, 200);
    assert.match(first.headers.get('cache-control')!, /immutable/);
    const again = await fetch(`${app.url}/app/static/dashboard.js`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(again.status, 304, 'revalidated by its ETag');
  });

  it('creates and edits a project, with its demo count, webhook and signing secret; escapes what was typed', async () => {
    const created = await post('/app/projects', { csrf, name: 'Shop <script>x</script>', url: 'https://shop.example/', viewport: 'mobile', refresh_schedule: 'manual' });
    assert.equal(created.status, 303);
    const path = created.headers.get('location')!.split('?')[0]!;
    const page = await text(path);
    assert.ok(page.includes('Shop &lt;script&gt;x&lt;/script&gt;') && !page.includes('<script>x'));
    assert.match(page, /\/api\/v1\/webhooks\/projects\/[^/]+\/refresh/);
    assert.match(page, /whsec_/);
    const id = path.split('/').pop()!;
    const saved = await post(path, { csrf, name: 'Shop', url: 'https://shop.example/pricing', viewport: 'desktop', refresh_schedule: 'weekly' });
    assert.equal(saved.status, 303);
    const project = (await app.api(`/api/v1/projects/${id}`, { key: ada.key })).body;
    assert.deepEqual([project.name, project.url, project.refresh_schedule], ['Shop', 'https://shop.example/pricing', 'weekly']);
    const bad = await post(path, { csrf, name: '  ', url: 'not a url' });
    assert.equal(bad.status, 400);
    const said = await bad.text();
    assert.match(said, /class="error"/);
    assert.match(said, /The name cannot be blank\./, 'a name of spaces is blank, not "at least 1 character"');

    const revealed = await (await post(`${path}/signing-secret`, { csrf })).text();
    const secret = (await app.api(`/api/v1/projects/${id}/signing-secret`, { key: ada.key })).body.signing_secret;
    assert.ok(revealed.includes(secret));
    const rotated = await (await post(`${path}/signing-secret/rotate`, { csrf })).text();
    const fresh = (await app.api(`/api/v1/projects/${id}/signing-secret`, { key: ada.key })).body.signing_secret;
    assert.notEqual(fresh, secret);
    assert.ok(rotated.includes(fresh) && rotated.includes('rotated'));
    assert.match(await text('/app/projects'), /<td class="num">0<\/td>/, 'the list shows the demo count');
  });

  it('sends a form address loaded in the address bar to its page, and answers an unknown address with a page', async () => {
    for (const [form, page] of [['/app/demos', '/app/'], ['/app/credits/purchase', '/app/credits'], ['/app/credits/auto-topoff', '/app/credits']]) {
      const response = await get(form!);
      assert.equal(response.status, 303, form);
      assert.equal(response.headers.get('location'), page, form);
    }
    const unknown = await get('/app/no-such-page');
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await unknown.text(), /There is no page at this address/);
  });

  it('shows another account\u2019s project or demo as not found, and refuses changes to it', async () => {
    const theirs = (await app.api('/api/v1/projects', { key: bob.key, body: { name: 'Bob site', url: 'https://bob.example/' } })).body;
    const page = await get(`/app/projects/${theirs.id}`);
    assert.equal(page.status, 404);
    assert.doesNotMatch(await page.text(), /Bob site/);
    assert.equal((await post(`/app/projects/${theirs.id}/signing-secret/rotate`, { csrf })).status, 404);
    assert.equal((await post(`/app/projects/${theirs.id}`, { csrf, name: 'mine now' })).status, 404);
  });

  it('creates a demo, shows its progress, then the player, snippets and history; refreshes and deletes it', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Docs', url: 'https://docs.example/' } })).body;
    const created = await post('/app/demos', { csrf, project_id: project.id, prompt: 'Show the <em>install</em> guide', duration_target: '5s', format: 'mp4', resolution: '720p', mode: 'script', template: 'plain-scroll' });
    assert.equal(created.status, 303);
    const path = created.headers.get('location')!;
    const demoId = path.split('/').pop()!;
    const waiting = await text(path);
    assert.match(waiting, new RegExp(`data-progress="${demoId}"`));
    assert.match(waiting, /http-equiv="refresh"/, 'without script the page reloads itself');
    assert.ok(waiting.includes('Show the &lt;em&gt;install&lt;/em&gt; guide'));
    assert.match(waiting, /Queued: waiting for a worker…/);
    assert.match(waiting, /<span class="badge busy" data-phase="queued">Queued<\/span>/);
    const [row] = await app.sql<{ latest_job_id: string; presentation: string }[]>`select latest_job_id, presentation from demos where id = ${demoId}`;
    assert.equal(JSON.parse(row!.presentation).recordingTemplate.id, 'plain-scroll');
    // A first recording stays pending while a worker runs it: the badge and the line name its phase, not its status.
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, demoId, row!.latest_job_id, 1, { actor: 'pipeline' });
      await reportDemoProgress(tx, demoId, row!.latest_job_id, 'recording', 0.4, { actor: 'pipeline' });
    });
    const recording = await text(path);
    assert.match(recording, /data-progress-step>Recording</);
    assert.match(recording, /data-phase="recording">Recording<\/span>/);
    assert.doesNotMatch(recording, /data-phase="queued"|data-progress-step>Queued/);
    await finishJob(app.sql, demoId, row!.latest_job_id);

    const ready = await text(path);
    assert.match(ready, new RegExp(`<video[^>]+src="/video/${demoId}\\.mp4`));
    assert.match(ready, new RegExp(`/share/${demoId}`));
    assert.match(ready, /&lt;iframe src=&quot;[^&]+\/embed\//, 'the iframe snippet, as text');
    assert.match(ready, /sdk\.js/);
    assert.match(ready, new RegExp(`/gif/${demoId}\\.gif`));
    assert.match(ready, new RegExp(`/thumb/${demoId}\\.png`));
    assert.match(await text('/app/'), new RegExp(`href="/app/demos/${demoId}"`), 'the grid lists it');

    const all = await post(`/app/projects/${project.id}/refresh`, { csrf });
    assert.equal(all.status, 303);
    assert.match(await text(all.headers.get('location')!), /1 demo queued for re-recording/);
    const refreshed = await post(`${path}/refresh`, { csrf });
    assert.equal(refreshed.status, 303);
    assert.match(await text(refreshed.headers.get('location')!), /Refresh started/);
    const deleted = await post(`${path}/delete`, { csrf });
    assert.equal(deleted.status, 303);
    assert.match(await text(deleted.headers.get('location')!), /The demo was deleted/);
    assert.equal((await get(path)).status, 404);
  });

  it('says why a recording failed and what to do next', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Fails', url: 'https://f.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Tour' } })).body;
    await failJob(app.sql, demo.id, demo.jobId, 'The page did not load within 30 s.');
    const page = await text(`/app/demos/${demo.id}`);
    assert.match(page, /The recording failed: The page did not load within 30 s\. Press Try again to record it again; the credit was refunded\./);
    assert.match(page, /action="\/app\/demos\/[^"]+\/refresh"><input[^>]+><button type="submit" class="" data-refresh-submit>Try again for 1 credit<\/button>/, 'with a Try again button that says what it costs');
    assert.doesNotMatch(page, /first recording is on its way/);
    assert.doesNotMatch(page, /data-progress=/);
  });

  it('restyles with every presentation member from the form', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Restyle', url: 'https://r.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Tour' } })).body;
    await finishJob(app.sql, demo.id, demo.jobId);
    const form = await text(`/app/demos/${demo.id}/restyle`);
    for (const name of ['bg_kind', 'mockup', 'padding', 'zoom_enabled', 'cursor_style', 'click_style', 'fade_in_ms', 'intro', 'debug_hud', 'data-preview']) {
      assert.ok(form.includes(name), `the form has ${name}`);
    }
    const fields = {
      csrf, bg_kind: 'gradient', bg_from: '#112233', bg_to: '#445566', bg_angle: '90', mockup: 'macos-light', padding: '0.12',
      zoom_enabled: 'on', zoom_intensity: '2', zoom_transition_ms: '500', cursor_style: 'dot', cursor_color: '#ff0000', cursor_size: '30',
      click_style: 'glow', click_color: '#00ff00', click_scale: '1.5', fade_in_ms: '200', fade_out_ms: '400', fade_color: 'white',
      intro: 'on', intro_ms: '700', outro_ms: '800', debug_hud: 'on',
    };
    // Posted untouched (a browser without script, whose button is not disabled), the form is refused: no credit spent.
    const untouched = new URLSearchParams(
      [...form.matchAll(/<input id="f-(\w+)" name="\w+" type="(?:number|color)" (?:min="[^"]*" max="[^"]*" step="[^"]*" )?value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const refusedSame = await post(`/app/demos/${demo.id}/restyle`, {
      ...Object.fromEntries(untouched), csrf, bg_kind: 'gradient', mockup: 'macos-light', zoom_enabled: 'on', cursor_style: 'arrow', click_style: 'ripple', fade_color: 'black', intro: 'on',
    });
    assert.equal(refusedSame.status, 400);
    assert.match(await refusedSame.text(), /Nothing changed: this is already the demo’s look/);
    const answer = await post(`/app/demos/${demo.id}/restyle`, fields);
    assert.equal(answer.status, 303, await answer.text());
    // The new look rides on the restyle job until the recording replaces the demo's.
    const [row] = await app.sql<{ presentation: unknown }[]>`select presentation from demo_jobs where demo_id = ${demo.id} and kind = 'restyle'`;
    const p = (typeof row!.presentation === 'string' ? JSON.parse(row!.presentation) : row!.presentation) as Record<string, any>;
    assert.deepEqual(p.background, { from: '#112233', to: '#445566', angle: 90 });
    assert.equal(p.mockup, 'macos-light');
    assert.deepEqual(p.zoom, { enabled: true, intensity: 2, transitionMs: 500 });
    assert.deepEqual(p.windowAnimation, { intro: true, outro: false, introDurationMs: 700, outroDurationMs: 800 });
    assert.equal(p.fade.color, 'white');
    assert.equal(p.debugHud, true);
    const refused = await post(`/app/demos/${demo.id}/restyle`, { ...fields, padding: '0.9' });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /padding/);
  });

  it('explains, instead of showing a form that cannot work, when a demo has no recorded script to restyle', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Not yet', url: 'https://n.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Tour' } })).body;
    const page = await text(`/app/demos/${demo.id}/restyle`);
    assert.match(page, /This demo has no recording yet: it can be restyled once its first recording is ready\./);
    assert.doesNotMatch(page, /data-restyle/, 'no form');
  });

  it('creates a key shown once, lists it by prefix and revokes it', async () => {
    const created = await post('/app/keys', { csrf, name: 'CI <pipeline>', type: 'live', project_id: '', allowed_domains: '' });
    assert.equal(created.status, 303, 'the key is shown by the page the post redirects to');
    const page = await text(created.headers.get('location')!);
    const key = /id="new-key" readonly value="([^"]+)"/.exec(page)![1]!;
    assert.equal((await app.api('/api/v1/usage', { key })).status, 200, 'the key works');
    assert.ok(page.includes('CI &lt;pipeline&gt;'));
    const list = await text('/app/keys');
    assert.ok(!list.includes(key), 'never shown again');
    const keyId = /action="\/app\/keys\/([^/]+)\/revoke"/.exec(list.slice(list.indexOf('CI &lt;pipeline&gt;')))![1]!;
    const revoked = await post(`/app/keys/${keyId}/revoke`, { csrf });
    assert.equal(revoked.status, 303);
    assert.equal((await app.api('/api/v1/usage', { key })).status, 401);
  });

  it('says what a publishable key made without domains may do (any page; new demos of its project’s site), on the form, the new key and the list', async () => {
    const form = await text('/app/keys');
    assert.match(form, /starts new demos \(paid from your credits\) only for pages of its project’s own site, up to a daily cap\. Domains narrow that further and refuse requests from other sites’ pages; left empty, the key works from any page\./);
    const bare = await post('/app/keys', { csrf, name: 'Bare embed key', type: 'publishable', project_id: '', allowed_domains: '' });
    assert.equal(bare.status, 303);
    const bareShown = await text(bare.headers.get('location')!);
    assert.match(bareShown, /with no allowed domains it works from any page, and starts new demos only for pages of your project’s own site, within a daily cap\./);
    assert.doesNotMatch(bareShown, /class="warning"|cannot start new demos/, 'no warning of a key that does not work');
    const scoped = await post('/app/keys', { csrf, name: 'Site embed key', type: 'publishable', project_id: '', allowed_domains: 'docs.example' });
    assert.equal(scoped.status, 303);
    assert.match(await text(scoped.headers.get('location')!), /it only works from its allowed domains, within a daily cap\./);
    const list = await text('/app/keys');
    const row = (name: string) => list.slice(list.indexOf(name), list.indexOf('</tr>', list.indexOf(name)));
    assert.match(row('Bare embed key'), /any page; new demos of the project’s site only/);
    assert.match(row('Site embed key'), /docs\.example/);
    assert.doesNotMatch(row('Site embed key'), /any page/);
  });

  it('sells nothing without payments: the credits page says so, and a posted buy form or auto top-off is refused', async () => {
    const before = (await app.api('/api/v1/credits', { key: ada.key })).body.balance;
    const credits = await text('/app/credits');
    assert.match(credits, /This service sells no credits: payments are not configured here\. An administrator grants credits/);
    assert.ok(!credits.includes('action="/app/credits/purchase"'), 'no buy button that could only be refused');
    const bought = await post('/app/credits/purchase', { csrf, packId: '20' });
    assert.equal(bought.status, 403);
    assert.match(await bought.text(), /Payments are not configured on this service; an administrator grants credits\./);
    assert.equal((await app.api('/api/v1/credits', { key: ada.key })).body.balance, before);
    const saved = await post('/app/credits/auto-topoff', { csrf, enabled: 'on', packId: '50', threshold: '3' });
    assert.equal(saved.status, 403);
    assert.deepEqual((await app.api('/api/v1/credits/auto-topoff', { key: ada.key })).body, { enabled: false, packId: '20', threshold: 1 });
    assert.match(await text('/app/usage'), /Credits spent/);
  });

  it('refuses every signed-in change without the token or from another site, and a post without a session', async () => {
    assert.equal((await post('/app/credits/purchase', { packId: '5' })).status, 403);
    assert.equal((await post('/app/credits/purchase', { csrf, packId: '5' }, cookie, 'https://evil.example')).status, 403);
    assert.equal((await post('/app/keys', { csrf, name: 'x' }, '')).status, 401);
    const upload = await fetch(`${app.url}/app/demos/upload?project_id=x&prompt=y`, { method: 'POST', headers: { cookie, origin, 'content-type': 'video/mp4' }, body: 'x' });
    assert.equal(upload.status, 403, 'an upload needs the token in X-CSRF-Token');
    assert.deepEqual(Object.keys(await upload.json()), ['error']);
  });

  it('ignores the session cookie on API changes sent from another origin (a text/plain form with a JSON body)', async () => {
    const balance = async () => (await app.api('/api/v1/credits', { key: ada.key })).body.balance as number;
    const before = await balance();
    const forged = await fetch(`${app.url}/api/v1/credits/purchase`, {
      method: 'POST',
      headers: { cookie, origin: 'https://sibling.example', 'content-type': 'text/plain' },
      body: '{"packId":"100"}',
    });
    assert.equal(forged.status, 401);
    assert.equal(await balance(), before, 'nothing was bought');
    // Counted as signed in, these get as far as the purchase itself, which this service refuses (it sells nothing):
    // a 403 saying so, where a request without the session is a 401.
    const refusedForPayments = (response: { status: number; body: any }) => response.status === 403 && /Payments are not configured/.test(response.body.error);
    const fromHere = await app.api('/api/v1/credits/purchase', { cookie, headers: { origin }, body: { packId: '5' } });
    assert.ok(refusedForPayments(fromHere), 'the dashboard\u2019s own origin may');
    const noOrigin = await app.api('/api/v1/credits/purchase', { cookie, body: { packId: '5' } });
    assert.ok(refusedForPayments(noOrigin), 'a client that is not a browser sends no Origin');
    // Without Origin (an old browser, a privacy proxy), the other signs a browser leaves still count.
    const signs: Array<Record<string, string>> = [{ referer: 'https://sibling.example/page' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }];
    for (const headers of signs) {
      const unsigned = await app.api('/api/v1/credits/purchase', { cookie, headers, body: { packId: '100' } });
      assert.equal(unsigned.status, 401, JSON.stringify(headers));
    }
    const ownReferer = await app.api('/api/v1/credits/purchase', { cookie, headers: { referer: `${origin}/app/credits`, 'sec-fetch-site': 'same-origin' }, body: { packId: '5' } });
    assert.ok(refusedForPayments(ownReferer), 'a page of the dashboard itself');
    const read = await fetch(`${app.url}/api/v1/credits`, { headers: { cookie, origin: 'https://sibling.example' } });
    assert.equal(read.status, 200, 'reads are not changes (CORS keeps their answers from other origins)');

    // A page elsewhere cannot follow the user's progress over the socket with their cookie (cross-site WebSocket
    // hijacking); the dashboard's own page can.
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'WS', url: 'https://ws.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Tour' } })).body;
    const upgrade = (from: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${app.url.replace('http', 'ws')}/api/v1/demos/${demo.id}/ws`, { headers: { cookie, origin: from } });
        socket.once('open', () => (socket.close(), resolve(101)));
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      });
    assert.equal(await upgrade('https://sibling.example'), 401);
    assert.equal(await upgrade(origin), 101);
  });
});
