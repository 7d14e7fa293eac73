import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey } from '../../src/keys/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/** A project's outbound webhook endpoints through the API: register, list, rotate, delete, and who may. */
describe('outbound webhook endpoints', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;

  before(async () => {
    app = await startTestApp();
    [ada, bob] = await Promise.all([app.createUser(), app.createUser()]);
  });
  after(() => app.stop());

  const newProject = async (user: TestUser, name = 'Site') =>
    (await app.api('/api/v1/projects', { key: user.key, body: { name, url: 'https://site.example' } })).body as { id: string };

  it('registers an endpoint, shows its signing secret once, and keeps it sealed at rest', async () => {
    const project = await newProject(ada);
    const created = await app.api(`/api/v1/projects/${project.id}/webhooks`, {
      key: ada.key,
      body: { url: 'https://hooks.acme.example/showreel', events: ['demo.failed', 'demo.ready', 'demo.ready'] },
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.secret, /^whsig_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(created.body.events, ['demo.ready', 'demo.failed'], 'each type once, in a fixed order');
    assert.equal(created.body.url, 'https://hooks.acme.example/showreel');
    assert.equal(created.body.project_id, project.id);

    const listed = await app.api(`/api/v1/projects/${project.id}/webhooks`, { key: ada.key });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.webhooks.map((w: any) => w.id), [created.body.id]);
    assert.ok(!listed.text.includes(created.body.secret), 'the list never shows the secret');

    const [row] = await app.sql<{ secret_enc: string }[]>`select secret_enc from webhook_endpoints where id = ${created.body.id}`;
    assert.ok(row && !row.secret_enc.includes(created.body.secret) && row.secret_enc.startsWith('v1.'), 'sealed in the read model');
    const events = await app.sql<{ data: string }[]>`select data::text from events where stream_id = ${`webhook-${created.body.id}`}`;
    assert.ok(events.length === 1 && !events[0]!.data.includes(created.body.secret), 'and in its event');
  });

  it('refuses what it could not deliver to, with a sentence saying why', async () => {
    const project = await newProject(ada);
    const attempt = (body: unknown) => app.api(`/api/v1/projects/${project.id}/webhooks`, { key: ada.key, body });
    const cases: Array<[unknown, RegExp]> = [
      [{ url: 'https://hooks.acme.example/', events: [] }, /events/],
      [{ url: 'https://hooks.acme.example/', events: ['demo.deleted'] }, /events/],
      [{ url: 'ftp://hooks.acme.example/', events: ['demo.ready'] }, /https/],
      [{ url: 'not a url', events: ['demo.ready'] }, /https/],
      [{ url: 'https://user:pass@hooks.acme.example/', events: ['demo.ready'] }, /user name or password/],
      [{ events: ['demo.ready'] }, /URL is required/],
    ];
    for (const [body, message] of cases) {
      const response = await attempt(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.error, message, JSON.stringify(body));
    }
  });

  it('keeps endpoints to their owner: another user’s project or endpoint is a 404', async () => {
    const project = await newProject(ada);
    const hook = (await app.api(`/api/v1/projects/${project.id}/webhooks`, { key: ada.key, body: { url: 'https://hooks.acme.example/', events: ['demo.ready'] } })).body;
    const bobs = await newProject(bob);
    const base = `/api/v1/projects/${project.id}/webhooks`;
    assert.equal((await app.api(base, { key: bob.key })).status, 404);
    assert.equal((await app.api(base, { key: bob.key, body: { url: 'https://evil.example/', events: ['demo.ready'] } })).status, 404);
    assert.equal((await app.api(`${base}/${hook.id}`, { key: bob.key, method: 'DELETE' })).status, 404);
    assert.equal((await app.api(`${base}/${hook.id}/rotate-secret`, { key: bob.key, method: 'POST' })).status, 404);
    assert.equal((await app.api(`${base}/${hook.id}/deliveries`, { key: bob.key })).status, 404);
    // Through Bob's own project, Ada's endpoint id is not there either.
    const other = `/api/v1/projects/${bobs.id}/webhooks/${hook.id}`;
    assert.equal((await app.api(other, { key: bob.key, method: 'DELETE' })).status, 404);
    assert.equal((await app.api(`${other}/deliveries`, { key: bob.key })).status, 404);
    // And through another of Ada's projects.
    const second = await newProject(ada, 'Second');
    assert.equal((await app.api(`/api/v1/projects/${second.id}/webhooks/${hook.id}/rotate-secret`, { key: ada.key, method: 'POST' })).status, 404);
    assert.equal((await app.api(base, { key: ada.key })).body.webhooks.length, 1, 'nothing was deleted');
  });

  it('confines a project-scoped key to its project and refuses a publishable key', async () => {
    const [mine, elsewhere] = [await newProject(ada, 'Scoped'), await newProject(ada, 'Other')];
    const { scoped, publishable } = await inTransaction(app.sql, async (tx) => ({
      scoped: (await createApiKey(tx, { userId: ada.userId, name: 'scoped', type: 'live', projectId: mine.id, allowedDomains: null }, { actor: 'test' })).key,
      publishable: (await createApiKey(tx, { userId: ada.userId, name: 'pub', type: 'publishable', projectId: mine.id, allowedDomains: null }, { actor: 'test' })).key,
    }));
    const body = { url: 'https://hooks.acme.example/', events: ['demo.ready'] };
    assert.equal((await app.api(`/api/v1/projects/${mine.id}/webhooks`, { key: scoped, body })).status, 201);
    assert.equal((await app.api(`/api/v1/projects/${elsewhere.id}/webhooks`, { key: scoped, body })).status, 404);
    assert.equal((await app.api(`/api/v1/projects/${elsewhere.id}/webhooks`, { key: scoped })).status, 404);
    assert.equal((await app.api(`/api/v1/projects/${mine.id}/webhooks`, { headerKey: publishable })).status, 403);
  });

  it('rotates the secret (the new one shown once) and deletes an endpoint with its log', async () => {
    const project = await newProject(ada);
    const base = `/api/v1/projects/${project.id}/webhooks`;
    const hook = (await app.api(base, { key: ada.key, body: { url: 'https://hooks.acme.example/', events: ['demo.ready'] } })).body;
    const rotated = await app.api(`${base}/${hook.id}/rotate-secret`, { key: ada.key, method: 'POST' });
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.secret, /^whsig_/);
    assert.notEqual(rotated.body.secret, hook.secret);
    const listed = (await app.api(base, { key: ada.key })).body.webhooks[0];
    assert.ok(listed.secret_rotated_at, 'the list says when it was rotated');

    assert.deepEqual((await app.api(`${base}/${hook.id}/deliveries`, { key: ada.key })).body, { deliveries: [] });
    const deleted = await app.api(`${base}/${hook.id}`, { key: ada.key, method: 'DELETE' });
    assert.deepEqual([deleted.status, deleted.body], [200, { ok: true }]);
    assert.deepEqual((await app.api(base, { key: ada.key })).body, { webhooks: [] });
    assert.equal((await app.api(`${base}/${hook.id}/deliveries`, { key: ada.key })).status, 404);
    assert.equal((await app.api(`${base}/${hook.id}`, { key: ada.key, method: 'DELETE' })).status, 404, 'deleting twice');
  });

  it('holds at most ten endpoints per project', async () => {
    const project = await newProject(ada);
    const base = `/api/v1/projects/${project.id}/webhooks`;
    for (let i = 0; i < 10; i++) {
      assert.equal((await app.api(base, { key: ada.key, body: { url: `https://hooks.acme.example/${i}`, events: ['demo.ready'] } })).status, 201);
    }
    const eleventh = await app.api(base, { key: ada.key, body: { url: 'https://hooks.acme.example/10', events: ['demo.ready'] } });
    assert.equal(eleventh.status, 409);
    assert.match(eleventh.body.error, /at most 10/);
  });
});

/** Without SHOWREEL_ALLOW_PRIVATE_URLS, as in production: https only, and a public host. */
describe('outbound webhook endpoints in production mode', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp({ SHOWREEL_ALLOW_PRIVATE_URLS: '0' });
    user = await app.createUser();
  });
  after(() => app.stop());

  it('refuses plain http and private or loopback hosts', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Site', url: 'https://93.184.215.14/' } })).body;
    const base = `/api/v1/projects/${project.id}/webhooks`;
    const http = await app.api(base, { key: user.key, body: { url: 'http://93.184.215.14/hook', events: ['demo.ready'] } });
    assert.equal(http.status, 400);
    assert.match(http.body.error, /https/);
    for (const url of ['https://127.0.0.1/hook', 'https://10.0.0.7/hook', 'https://169.254.169.254/latest', 'https://localhost/hook']) {
      const response = await app.api(base, { key: user.key, body: { url, events: ['demo.ready'] } });
      assert.equal(response.status, 400, url);
      assert.match(response.body.error, /public/, url);
    }
    const ok = await app.api(base, { key: user.key, body: { url: 'https://93.184.215.14/hook', events: ['demo.ready'] } });
    assert.equal(ok.status, 201, ok.text);
  });
});
