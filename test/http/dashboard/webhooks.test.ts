import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { notifyDemoWebhooks } from '../../../src/webhooks/index.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { type DashboardSession, signInToDashboard } from '../../helpers/dashboard-session.js';

/** The project page's outbound webhooks, as a browser without script uses them: forms, redirects, what it says. */
describe('the dashboard’s webhooks section', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let session: DashboardSession;
  let cookie: string;
  let csrf: string;

  before(async () => {
    app = await startTestApp();
    [ada, bob] = await Promise.all([app.createUser(), app.createUser()]);
    session = await signInToDashboard(app, ada);
    ({ cookie, csrf } = session);
  });
  after(() => app.stop());

  const post: DashboardSession['post'] = (...args) => session.post(...args);
  const get = (path: string) => session.get(path);
  const text = (path: string) => session.text(path);

  it('adds an endpoint and shows its secret once, lists it, rotates, shows the delivery log, deletes', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Shop', url: 'https://shop.example/' } })).body;
    const page = `/app/projects/${project.id}`;
    assert.match(await text(page), /Outbound webhooks[\s\S]*No endpoints yet/);

    const added = await post(`${page}/webhooks`, [['csrf', csrf], ['url', 'https://hooks.shop.example/showreel'], ['events', 'demo.ready'], ['events', 'demo.changed']]);
    assert.equal(added.status, 303);
    const shown = await text(added.headers.get('location')!.split('#')[0]!);
    const secret = /whsig_[A-Za-z0-9_-]{43}/.exec(shown)?.[0];
    assert.ok(secret, 'the secret is on the page the post led to');
    assert.match(shown, /shown only once/);
    const [hook] = (await app.api(`/api/v1/projects/${project.id}/webhooks`, { key: ada.key })).body.webhooks;
    assert.deepEqual(hook.events, ['demo.ready', 'demo.changed']);
    const again = await text(added.headers.get('location')!.split('#')[0]!);
    assert.ok(!again.includes(secret), 'a reload shows it no more');
    assert.match(again, /https:\/\/hooks\.shop\.example\/showreel/);

    const rotated = await post(`${page}/webhooks/${hook.id}/rotate`, [['csrf', csrf]]);
    assert.equal(rotated.status, 303);
    const newSecret = /whsig_[A-Za-z0-9_-]{43}/.exec(await text(rotated.headers.get('location')!.split('#')[0]!))?.[0];
    assert.ok(newSecret && newSecret !== secret, 'the new secret, once');

    // A delivery waits (no worker runs here): the log says so.
    await notifyDemoWebhooks(app.sql, { projectId: project.id, demoId: 'demo-1', type: 'demo.ready', data: {} });
    const log = await text(`${page}/webhooks/${hook.id}`);
    assert.match(log, /Delivery log[\s\S]*demo\.ready[\s\S]*pending/);

    const deleted = await post(`${page}/webhooks/${hook.id}/delete`, [['csrf', csrf]]);
    assert.equal(deleted.status, 303);
    const after = await text(deleted.headers.get('location')!.split('#')[0]!);
    assert.match(after, /deleted with its delivery log/);
    assert.match(after, /No endpoints yet/);
  });

  it('brings a refused address back with the reason and what was typed', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Shop', url: 'https://shop.example/' } })).body;
    const refused = await post(`/app/projects/${project.id}/webhooks`, [['csrf', csrf], ['url', 'https://user:pw@hooks.shop.example/'], ['events', 'demo.failed']]);
    assert.equal(refused.status, 400);
    const body = await refused.text();
    assert.match(body, /class="error"[^>]*>url must not carry a user name or password/);
    assert.match(body, /value="https:\/\/user:pw@hooks\.shop\.example\/"/);
    assert.match(body, /value="demo\.failed" checked/);
  });

  it('refuses a form without its CSRF token, and another user’s endpoint is a 404', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Shop', url: 'https://shop.example/' } })).body;
    const noToken = await post(`/app/projects/${project.id}/webhooks`, [['url', 'https://hooks.shop.example/'], ['events', 'demo.ready']]);
    assert.equal(noToken.status, 403);
    const foreign = await post(`/app/projects/${project.id}/webhooks`, [['csrf', csrf], ['url', 'https://hooks.shop.example/'], ['events', 'demo.ready']], cookie, 'https://evil.example');
    assert.equal(foreign.status, 403);
    assert.deepEqual((await app.api(`/api/v1/projects/${project.id}/webhooks`, { key: ada.key })).body.webhooks, []);

    const bobs = (await app.api('/api/v1/projects', { key: bob.key, body: { name: 'Bob', url: 'https://bob.example/' } })).body;
    const theirs = (await app.api(`/api/v1/projects/${bobs.id}/webhooks`, { key: bob.key, body: { url: 'https://hooks.bob.example/', events: ['demo.ready'] } })).body;
    assert.equal((await get(`/app/projects/${bobs.id}/webhooks/${theirs.id}`)).status, 404);
    assert.equal((await post(`/app/projects/${bobs.id}/webhooks/${theirs.id}/delete`, [['csrf', csrf]])).status, 404);
    assert.equal((await post(`/app/projects/${bobs.id}/webhooks/${theirs.id}/rotate`, [['csrf', csrf]])).status, 404);
    assert.equal((await app.api(`/api/v1/projects/${bobs.id}/webhooks`, { key: bob.key })).body.webhooks.length, 1);
  });
});
