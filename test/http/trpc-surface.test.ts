/**
 * /trpc is the internal admin client's door, not a second public API (issue 15, finding 2): it serves only the
 * admin procedures, one call per request, and applies the same body rules as REST (1 MB, no NUL) before any
 * procedure runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAdminClient } from '../../scripts/admin-client.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { rawRequest } from '../helpers/raw-request.js';

describe('the /trpc surface', () => {
  let app: TestApp;
  let admin: TestUser;
  let alice: TestUser;

  before(async () => {
    app = await startTestApp();
    admin = await app.createUser({ admin: true });
    alice = await app.createUser();
  });
  after(() => app?.stop());

  const trpc = (path: string, options: { key?: string; body?: string; method?: string } = {}) =>
    app.api(`/trpc/${path}`, {
      ...(options.key ? { key: options.key } : {}),
      ...(options.body === undefined ? {} : { rawBody: options.body, headers: { 'content-type': 'application/json' } }),
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    });

  it('does not serve the public procedures: sign-in, projects and credits are REST only', async () => {
    const signIn = await trpc('auth.signIn', { body: JSON.stringify({ email: alice.email, password: alice.password }) });
    assert.equal(signIn.status, 404, signIn.text);
    assert.equal(signIn.headers.get('set-cookie'), null, 'no session comes out of /trpc');
    assert.equal((await trpc('projects.list', { key: alice.key })).status, 404);
    assert.equal((await trpc('credits.purchase', { key: alice.key, body: JSON.stringify({ packId: '5' }) })).status, 404);

    // The same sign-in over REST still works.
    const rest = await app.api('/api/v1/auth/sign-in', { body: { email: alice.email, password: alice.password } });
    assert.equal(rest.status, 200);
  });

  it('keeps the admin client working', async () => {
    const page = await createAdminClient({ url: app.url, apiKey: admin.key }).readAll.query({ limit: 1 });
    assert.ok(Array.isArray(page.events));
  });

  it('refuses a body over 1 MB with 413 before reading it, whatever the procedure', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    // Known procedure or not, with or without a key: the body is refused before anything reads it whole.
    for (const [path, expected] of [['admin.rebuildReadModels', [413]], ['auth.signIn', [404, 413]]] as const) {
      const started = Date.now();
      const response = await rawRequest(app.url, `/trpc/${path}`, { headers: { 'content-type': 'application/json' }, body: big });
      assert.ok((expected as readonly number[]).includes(response.status), `${path}: ${response.status} ${response.body.toString()}`);
      assert.ok(Date.now() - started < 2_000);
    }
    const withKey = await rawRequest(app.url, '/trpc/admin.rebuildReadModels', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.key}` },
      body: big,
    });
    assert.equal(withKey.status, 413);
    assert.equal(withKey.json().error.data.code, 'PAYLOAD_TOO_LARGE', 'the admin client reads it as a tRPC error');
  });

  it('refuses a body over 1 MB sent without a length (chunked) with 413', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
    const response = await rawRequest(app.url, '/trpc/admin.rebuildReadModels', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.key}` },
      body: big,
      chunked: true,
    });
    assert.equal(response.status, 413, response.body.toString());

    const rest = await rawRequest(app.url, '/api/v1/auth/sign-in', { headers: { 'content-type': 'application/json' }, body: big, chunked: true });
    assert.equal(rest.status, 413, 'REST answers the same');
    assert.deepEqual(Object.keys(rest.json()), ['error']);
  });

  it('answers one call per request: a batch is a 400', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: { limit: 1 }, 1: { limit: 1 } }));
    const response = await trpc(`admin.readAll,admin.readAll?batch=1&input=${input}`, { key: admin.key });
    assert.equal(response.status, 400, response.text);
  });

  it('refuses NUL characters in the input with 400, as REST does', async () => {
    const query = encodeURIComponent(JSON.stringify({ streamId: 'user-\u0000' }));
    const inQuery = await trpc(`admin.readStream?input=${query}`, { key: admin.key });
    assert.equal(inQuery.status, 400, inQuery.text);
    assert.match(inQuery.body.error.message, /NUL/);

    const inBody = await trpc('admin.rebuildReadModels', { key: admin.key, body: JSON.stringify({ note: 'a\u0000b' }) });
    assert.equal(inBody.status, 400, inBody.text);

    const signIn = await trpc('auth.signIn', { body: JSON.stringify({ email: 'a\u0000@example.com', password: 'x' }) });
    assert.ok(signIn.status >= 400 && signIn.status < 500, `${signIn.status} ${signIn.text}`);
  });

  it('answers a bad percent-encoding in the procedure path with 400, not 500', async () => {
    const response = await trpc('admin.%E0%A4%A', { key: admin.key });
    assert.equal(response.status, 400, response.text);
  });
});
