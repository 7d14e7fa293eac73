import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/**
 * A project URL is tried when it is saved: a page that is not there, or a port where nothing listens, is said on the
 * form at once instead of failing the first recording. Everything here is served on 127.0.0.1; nothing of the
 * internet is reached.
 */
describe('a project URL that does not answer is said at once', () => {
  let app: TestApp;
  let ada: TestUser;
  let site: http.Server;
  let origin: string;
  let closedPort: number;

  before(async () => {
    site = http.createServer((request, response) => {
      if (request.url === '/moved') return void response.writeHead(301, { location: '/missing' }).end();
      if (request.url === '/gone') return void response.writeHead(410).end('gone');
      if (request.url === '/broken') return void response.writeHead(500).end('oops');
      if (request.url === '/' || request.url === '/pricing') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Shop</h1>');
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // A port that was free a moment ago and has nothing listening on it now.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    app = await startTestApp({ SHOWREEL_CHECK_PROJECT_URLS: '1' });
    ada = await app.createUser();
  });
  after(async () => {
    await app.stop();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  const create = (url: string, extra: Record<string, unknown> = {}) => app.api('/api/v1/projects', { key: ada.key, body: { name: 'Shop', url, ...extra } });

  it('creates a project whose page answers', async () => {
    const created = await create(`${origin}/`);
    assert.equal(created.status, 201);
  });

  it('refuses a page answering 404 or 410, naming the page and the answer', async () => {
    const missing = await create(`${origin}/missing`);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, `The page ${origin}/missing answered 404 Not Found: check the address.`);
    const gone = await create(`${origin}/gone`);
    assert.equal(gone.status, 400);
    assert.equal(gone.body.error, `The page ${origin}/gone answered 410 Gone: check the address.`);
  });

  it('follows a redirect and says where it led', async () => {
    const moved = await create(`${origin}/moved`);
    assert.equal(moved.status, 400);
    assert.equal(moved.body.error, `The page ${origin}/moved (it redirects to ${origin}/missing) answered 404 Not Found: check the address.`);
  });

  it('refuses a port where nothing listens, and a port browsers refuse', async () => {
    const refused = await create(`http://127.0.0.1:${closedPort}/`);
    assert.equal(refused.status, 400);
    assert.equal(
      refused.body.error,
      `Nothing answers at 127.0.0.1:${closedPort}: the connection was refused. Check the address and its port, or start the site first.`,
    );
    const badPort = await create('http://127.0.0.1:6000/');
    assert.equal(badPort.status, 400);
    assert.match(badPort.body.error, /^Browsers refuse to open port 6000, so the page cannot be recorded/);
  });

  it('accepts what may be momentary or may differ for a signed-in browser: a 500, a host with no DNS answer, a 404 behind a sign-in', async () => {
    assert.equal((await create(`${origin}/broken`)).status, 201);
    assert.equal((await create('https://not-live-yet.invalid/')).status, 201);
    const signedIn = await create(`${origin}/dashboard`, { access: { sign_in: { url: `${origin}/login`, username: 'ada', password: 'secret' } } });
    assert.equal(signedIn.status, 201, JSON.stringify(signedIn.body));
  });

  it('tries a changed URL on update, and only a changed one', async () => {
    const project = (await create(`${origin}/pricing`)).body;
    const patch = (body: unknown) => app.api(`/api/v1/projects/${project.id}`, { key: ada.key, method: 'PATCH', body });
    const moved = await patch({ url: `${origin}/old-pricing` });
    assert.equal(moved.status, 400);
    assert.equal(moved.body.error, `The page ${origin}/old-pricing answered 404 Not Found: check the address.`);
    assert.equal((await app.api(`/api/v1/projects/${project.id}`, { key: ada.key })).body.url, `${origin}/pricing`, 'the URL stays as it was');
    assert.equal((await patch({ url: `${origin}/` })).status, 200);
  });

  it('shows the reason on the dashboard’s project form, with what was typed kept', async () => {
    const dashboardOrigin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    const post = (path: string, fields: Record<string, string>, cookie = '') =>
      fetch(`${app.url}${path}`, {
        method: 'POST', redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: dashboardOrigin, cookie },
        body: new URLSearchParams(fields).toString(),
      });
    const signedIn = await post('/app/sign-in', { email: ada.email, password: ada.password });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const home = await (await fetch(`${app.url}/app/projects`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(home)![1]!;
    const answer = await post('/app/projects', { csrf, name: 'Shop', url: `${origin}/missing`, viewport: 'desktop', refresh_schedule: 'manual' }, cookie);
    assert.equal(answer.status, 400);
    const page = await answer.text();
    assert.ok(page.includes(`The page ${origin}/missing answered 404 Not Found: check the address.`), 'the reason is on the page');
    assert.ok(page.includes(`value="${origin}/missing"`), 'the URL typed is still in the field');
  });
});
