import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { USER_CODE_ALPHABET } from '../../src/devices/user-code.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * A command-line client signs in through the browser (RFC 8628): it asks for a code pair, its person approves the
 * user code in the dashboard, and its next poll gets a live key named after it, once.
 */
describe('device login for command-line clients', () => {
  let app: TestApp;
  let user: TestUser;
  let cookie: string;

  before(async () => {
    app = await startTestApp({ SHOWREEL_DEVICE_CODE_LIMIT_PER_ADDRESS: '12' });
    user = await app.createUser();
    const signedIn = await app.api('/api/v1/auth/sign-in', { body: { email: user.email, password: user.password } });
    cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  });
  after(() => app.stop());

  const start = (clientName = 'showreel CLI on build-box') => app.api('/api/v1/device/code', { body: { client_name: clientName, scope: 'write' } });
  const poll = (deviceCode: string) => app.api('/api/v1/device/token', { body: { device_code: deviceCode, grant_type: GRANT_TYPE } });

  it('hands out a device code and a readable user code, with the page to approve it', async () => {
    const response = await start();
    assert.equal(response.status, 200, response.text);
    const body = response.body;
    assert.match(body.user_code, new RegExp(`^[${USER_CODE_ALPHABET}]{4}-[${USER_CODE_ALPHABET}]{4}$`));
    assert.ok(body.device_code.length >= 40);
    assert.match(body.verification_uri, /^http:\/\/localhost:\d+\/app\/device$/, 'the dashboard page, at PUBLIC_URL');
    assert.equal(body.verification_uri_complete, `${body.verification_uri}?user_code=${body.user_code}`);
    assert.equal(body.expires_in, 900);
    assert.equal(body.interval, 5);
    const [stored] = await app.sql`select * from device_grants`;
    assert.notEqual(stored!.device_code_hash, body.device_code, 'codes are stored hashed');
    assert.ok(!JSON.stringify(stored).includes(body.user_code.replace('-', '')));
  });

  it('refuses another scope or a bad body with 400 naming the field', async () => {
    const scope = await app.api('/api/v1/device/code', { body: { client_name: 'cli', scope: 'admin' } });
    assert.equal(scope.status, 400);
    assert.match(scope.body.error, /scope/);
    const name = await app.api('/api/v1/device/code', { body: { scope: 'write' } });
    assert.equal(name.status, 400);
    assert.match(name.body.error, /client_name/);
  });

  it('goes pending → slow_down when polled too fast → approved in the dashboard → one live key named after the client', async () => {
    const { device_code, user_code } = (await start('showreel CLI on laptop')).body;
    const first = await poll(device_code);
    assert.deepEqual([first.status, first.body], [400, { error: 'authorization_pending' }]);
    const hurried = await poll(device_code);
    assert.deepEqual([hurried.status, hurried.body], [400, { error: 'slow_down' }]);
    const [grant] = await app.sql`select interval_seconds from device_grants where status = 'pending' order by created_at desc limit 1`;
    assert.equal(grant!.interval_seconds, 10, 'slow_down adds 5 s to the interval');

    // The person types the code in any case, with or without its dash.
    const typed = user_code.toLowerCase().replace('-', ' ');
    const approved = await app.api('/api/v1/device/authorize', { cookie, body: { user_code: typed } });
    assert.deepEqual([approved.status, approved.body], [200, { ok: true, client_name: 'showreel CLI on laptop' }]);

    const token = await poll(device_code);
    assert.equal(token.status, 200, token.text);
    assert.equal(token.body.token_type, 'Bearer');
    const projects = await app.api('/api/v1/projects', { key: token.body.access_token });
    assert.equal(projects.status, 200, 'the token is a working live key');
    const keys = await app.api('/api/v1/api-keys', { key: user.key });
    assert.ok(keys.body.keys.some((k: { name: string; type: string }) => k.name === 'showreel CLI on laptop' && k.type === 'live'));
    const [event] = await app.sql`select type from events where type = 'ApiKeyCreated' and data->>'name' = 'showreel CLI on laptop'`;
    assert.ok(event, 'the key is an event like any key');

    const again = await poll(device_code);
    assert.deepEqual([again.status, again.body], [400, { error: 'invalid_grant' }]);
    const reuse = await app.api('/api/v1/device/authorize', { cookie, body: { user_code } });
    assert.equal(reuse.status, 409);
  });

  it('exchanges an approved code exactly once, however many polls race for it', async () => {
    const { device_code, user_code } = (await start('racer')).body;
    await app.api('/api/v1/device/authorize', { cookie, body: { user_code } });
    const results = await Promise.all(Array.from({ length: 10 }, () => poll(device_code)));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.ok(results.filter((r) => r.status !== 200).every((r) => r.body.error === 'invalid_grant'));
    const [count] = await app.sql`select count(*)::int as n from api_keys where name = 'racer'`;
    assert.equal(count!.n, 1);
  });

  it('takes the form-encoded requests of standard OAuth clients (RFC 8628 §3.1, §3.4) as well as JSON', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const started = await app.api('/api/v1/device/code', { rawBody: 'client_name=oauth+library&scope=write', headers: form });
    assert.equal(started.status, 200, started.text);
    const { device_code, user_code } = started.body;
    const body = `device_code=${encodeURIComponent(device_code)}&grant_type=${encodeURIComponent(GRANT_TYPE)}`;
    assert.deepEqual((await app.api('/api/v1/device/token', { rawBody: body, headers: form })).body, { error: 'authorization_pending' });
    await app.api('/api/v1/device/authorize', { cookie, body: { user_code } });
    const token = await app.api('/api/v1/device/token', { rawBody: body, headers: form });
    assert.equal(token.status, 200, token.text);
    assert.equal(token.body.token_type, 'Bearer');
    const missing = await app.api('/api/v1/device/token', { rawBody: 'grant_type=x', headers: form });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error, /device_code is required/);
  });

  it('ends a denied grant with access_denied', async () => {
    const { device_code, user_code } = (await start('stranger')).body;
    const denied = await app.api('/api/v1/device/authorize', { cookie, body: { user_code, decision: 'deny' } });
    assert.equal(denied.status, 200);
    assert.deepEqual((await poll(device_code)).body, { error: 'access_denied' });
  });

  it('approves only from a signed-in session: a key, even a valid one, is a 401; an unknown code a 404', async () => {
    const { user_code } = (await start()).body;
    const withKey = await app.api('/api/v1/device/authorize', { key: user.key, body: { user_code } });
    assert.equal(withKey.status, 401);
    const anonymous = await app.api('/api/v1/device/authorize', { body: { user_code } });
    assert.equal(anonymous.status, 401);
    const unknown = await app.api('/api/v1/device/authorize', { cookie, body: { user_code: 'BBBB-BBBB' } });
    assert.equal(unknown.status, 404);
    const garbage = await app.api('/api/v1/device/authorize', { cookie, body: { user_code: 'not a code' } });
    assert.equal(garbage.status, 404);
  });

  it('lets a code expire: 404 to approve, expired_token to poll', async () => {
    const { device_code, user_code } = (await start()).body;
    await app.sql`update device_grants set expires_at = now() - interval '1 second' where status = 'pending'`;
    assert.equal((await app.api('/api/v1/device/authorize', { cookie, body: { user_code } })).status, 404);
    assert.deepEqual((await poll(device_code)).body, { error: 'expired_token' });
    assert.deepEqual((await poll('no-such-code')).body, { error: 'invalid_grant' });
    const wrongGrant = await app.api('/api/v1/device/token', { body: { device_code, grant_type: 'password' } });
    assert.deepEqual([wrongGrant.status, wrongGrant.body], [400, { error: 'unsupported_grant_type' }]);
  });

  it('limits device codes per client address: 429 with Retry-After', async () => {
    let limited = null;
    for (let i = 0; i < 30 && !limited; i++) {
      const response = await start();
      if (response.status === 429) limited = response;
    }
    assert.ok(limited, 'a burst of device codes from one address is limited');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(typeof limited.body.error, 'string');
  });
});
