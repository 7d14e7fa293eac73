import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

describe('signing in and out', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ email: 'Dana@Example.com', password: 'a long passphrase' });
  });
  after(() => app.stop());

  const signIn = (email: string, password: string) => app.api('/api/v1/auth/sign-in', { body: { email, password } });
  const cookieOf = (setCookie: string | null) => setCookie?.split(';')[0] ?? '';

  it('sets an HttpOnly, SameSite=Lax session cookie that opens the API', async () => {
    const response = await signIn('dana@example.com', 'a long passphrase');
    assert.equal(response.status, 200);
    assert.equal(response.body.user_id, user.userId);
    const setCookie = response.headers.get('set-cookie') ?? '';
    assert.match(setCookie, /^showreel\.session_token=[\w-]{40,};/);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    assert.doesNotMatch(setCookie, /Secure/, 'plain http PUBLIC_URL: no Secure flag');

    const projects = await app.api('/api/v1/projects', { cookie: cookieOf(setCookie) });
    assert.equal(projects.status, 200);
  });

  it('stores only a hash of the session token', async () => {
    const response = await signIn('dana@example.com', 'a long passphrase');
    const token = cookieOf(response.headers.get('set-cookie')).split('=')[1]!;
    const rows = await app.sql`select token_hash from sessions`;
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.token_hash !== token && /^[0-9a-f]{64}$/.test(r.token_hash)));
  });

  it('revokes the session on sign-out', async () => {
    const response = await signIn('dana@example.com', 'a long passphrase');
    const cookie = cookieOf(response.headers.get('set-cookie'));
    const out = await app.api('/api/v1/auth/sign-out', { method: 'POST', cookie });
    assert.equal(out.status, 200);
    assert.deepEqual(out.body, { ok: true });
    assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
    const afterwards = await app.api('/api/v1/projects', { cookie });
    assert.equal(afterwards.status, 401);
  });

  it('answers a page of another site 403 on sign-up, sign-in and sign-out, and its sign-out leaves the session working', async () => {
    const response = await signIn('dana@example.com', 'a long passphrase');
    const cookie = cookieOf(response.headers.get('set-cookie'));
    const foreign = { origin: 'https://evil.example', 'content-type': 'text/plain' };
    const out = await app.api('/api/v1/auth/sign-out', { method: 'POST', cookie, headers: foreign });
    assert.equal(out.status, 403, out.text);
    assert.match(out.body.error, /another site/);
    assert.equal(out.headers.get('set-cookie'), null, 'the cookie is not cleared either');
    assert.equal((await app.api('/api/v1/projects', { cookie })).status, 200, 'the session still works');

    // Login CSRF: another site cannot sign a visitor into an account of its choosing.
    const body = JSON.stringify({ email: 'dana@example.com', password: 'a long passphrase' });
    for (const origin of ['https://evil.example', 'null']) {
      const signedIn = await app.api('/api/v1/auth/sign-in', { rawBody: body, headers: { ...foreign, origin } });
      assert.equal(signedIn.status, 403, `${origin}: ${signedIn.text}`);
      assert.equal(signedIn.headers.get('set-cookie'), null);
    }
    const signUp = await app.api('/api/v1/auth/sign-up', { rawBody: JSON.stringify({ email: 'csrf@example.com', password: 'a long passphrase' }), headers: foreign });
    assert.equal(signUp.status, 403, signUp.text);

    // The service's own pages (Origin = PUBLIC_URL, http://localhost:<port> here) sign in and out as before.
    const own = { origin: app.url.replace('127.0.0.1', 'localhost') };
    const here = await app.api('/api/v1/auth/sign-in', { body: { email: 'dana@example.com', password: 'a long passphrase' }, headers: own });
    assert.equal(here.status, 200, here.text);
    const hereOut = await app.api('/api/v1/auth/sign-out', { method: 'POST', cookie: cookieOf(here.headers.get('set-cookie')), headers: own });
    assert.equal(hereOut.status, 200, hereOut.text);
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const wrong = await signIn('dana@example.com', 'not it');
    const unknown = await signIn('nobody@example.com', 'not it');
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(wrong.headers.get('set-cookie'), null);
  });

  it('rejects a sign-in without a password as bad input', async () => {
    const response = await app.api('/api/v1/auth/sign-in', { body: { email: 'dana@example.com' } });
    assert.equal(response.status, 400);
    assert.match(response.body.error, /password is required/);
  });

  it('stores passwords as salted scrypt hashes', async () => {
    const [row] = await app.sql`select password_hash from users where id = ${user.userId}`;
    assert.match(row!.password_hash, /^scrypt\$32768\$8\$1\$/);
    assert.ok(!String(row!.password_hash).includes('a long passphrase'));
  });

  it('marks the cookie Secure when the service is public over https', async () => {
    const secureApp = await startTestApp({ PUBLIC_URL: 'https://showreel.example' });
    try {
      const someone = await secureApp.createUser({ password: 'another passphrase' });
      const response = await secureApp.api('/api/v1/auth/sign-in', { body: { email: someone.email, password: 'another passphrase' } });
      assert.match(response.headers.get('set-cookie') ?? '', /; Secure/);
    } finally {
      await secureApp.stop();
    }
  });
});

describe('credentials on the API', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser();
  });
  after(() => app.stop());

  it('accepts a live key as a bearer token and in X-API-Key', async () => {
    assert.equal((await app.api('/api/v1/projects', { key: user.key })).status, 200);
    assert.equal((await app.api('/api/v1/projects', { headerKey: user.key })).status, 200);
  });

  it('answers 401 {error} without credentials, with a wrong key, or a malformed Authorization header', async () => {
    const attempts = [
      await app.api('/api/v1/projects'),
      await app.api('/api/v1/projects', { key: 'sr_live_wrong' }),
      await app.api('/api/v1/projects', { headerKey: 'something-else' }),
      await app.api('/api/v1/projects', { headers: { authorization: 'Basic Zm9vOmJhcg==' } }),
      await app.api('/api/v1/projects', { cookie: 'showreel.session_token=forged' }),
    ];
    for (const response of attempts) {
      assert.equal(response.status, 401);
      assert.deepEqual(Object.keys(response.body), ['error']);
    }
  });

  it('refuses publishable keys everywhere but embed generation (403), and as bearer tokens (401)', async () => {
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['acme.example'] } });
    const publishable = created.body.key as string;
    assert.match(publishable, /^sr_pub_/);
    for (const [method, path, body] of [
      ['GET', '/api/v1/projects'],
      ['POST', '/api/v1/projects', { name: 'x', url: 'https://x.example' }],
      ['GET', '/api/v1/api-keys'],
      ['POST', '/api/v1/api-keys', {}],
    ] as Array<[string, string, unknown?]>) {
      const response = await app.api(path, { headerKey: publishable, method, body });
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.match(response.body.error, /Publishable keys/);
    }
    assert.equal((await app.api('/api/v1/projects', { key: publishable })).status, 401);
  });

  it('lets a project-scoped key reach only its own project', async () => {
    const a = await app.api('/api/v1/projects', { key: user.key, body: { name: 'A', url: 'https://a.example' } });
    const b = await app.api('/api/v1/projects', { key: user.key, body: { name: 'B', url: 'https://b.example' } });
    const scoped = await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'CI for A', project_id: a.body.id } });
    assert.equal(scoped.status, 201);
    const key = scoped.body.key as string;

    assert.equal((await app.api(`/api/v1/projects/${a.body.id}`, { key })).status, 200);
    assert.equal((await app.api(`/api/v1/projects/${b.body.id}`, { key })).status, 404);
    const listed = await app.api('/api/v1/projects', { key });
    assert.deepEqual(listed.body.projects.map((p: { id: string }) => p.id), [a.body.id]);
    assert.equal((await app.api('/api/v1/projects', { key, body: { name: 'C', url: 'https://c.example' } })).status, 403);
    // A demo of its own project, then one of the other (the check travels with the demo's writes): 202, then 404.
    assert.equal((await app.api('/api/v1/demos', { key, body: { project_id: a.body.id, prompt: 'Tour' } })).status, 202);
    const other = await app.api('/api/v1/demos', { key, body: { project_id: b.body.id, prompt: 'Tour' } });
    assert.equal(other.status, 404);
    assert.deepEqual(other.body, { error: 'Project not found.' });
    assert.equal((await app.api(`/api/v1/demos?project_id=${b.body.id}`, { key: user.key })).body.demos.length, 0);
  });
});
