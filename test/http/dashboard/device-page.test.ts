import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** A person signs in to the dashboard in a browser and approves the code their terminal shows. */
describe('the dashboard device page', () => {
  let app: TestApp;
  let user: TestUser;
  /** The service's public origin (PUBLIC_URL), which a browser on it sends as Origin; the test talks to 127.0.0.1. */
  let publicOrigin: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ email: 'ola@example.com' });
    publicOrigin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
  });
  after(() => app.stop());

  /** A form post as a browser sends it: urlencoded, from this origin, without following redirects. */
  const post = (path: string, fields: Record<string, string>, cookie = '', origin = publicOrigin) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie },
      body: new URLSearchParams(fields).toString(),
    });
  const get = (path: string, cookie = '') => fetch(`${app.url}${path}`, { redirect: 'manual', headers: { cookie } });
  const csrfIn = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

  async function signIn(): Promise<string> {
    const response = await post('/app/sign-in', { email: user.email, password: user.password, next: '/app/device' });
    assert.equal(response.status, 303);
    return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  }

  it('sends a visitor to sign in, then back to the device page with the code still filled in', async () => {
    const { user_code, verification_uri_complete } = (await app.api('/api/v1/device/code', { body: { client_name: 'showreel CLI', scope: 'write' } })).body;
    const path = new URL(verification_uri_complete).pathname + new URL(verification_uri_complete).search;
    const first = await get(path);
    assert.equal(first.status, 303);
    const signInPath = first.headers.get('location')!;
    assert.match(signInPath, /^\/app\/sign-in\?next=/);
    const form = await (await get(signInPath)).text();
    const next = /name="next" value="([^"]+)"/.exec(form)![1]!.replaceAll('&amp;', '&');
    assert.equal(next, path);

    const signedIn = await post('/app/sign-in', { email: user.email, password: user.password, next });
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.headers.get('location'), path);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const page = await get(path, cookie);
    const text = await page.text();
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.ok(text.includes(`value="${user_code}"`), 'the code is prefilled');
    assert.ok(text.includes('showreel CLI') && text.includes('ola@example.com'), 'the client and the account are named');
  });

  it('approves with Approve, and the terminal gets its key; Deny ends the grant', async () => {
    const cookie = await signIn();
    const started = (await app.api('/api/v1/device/code', { body: { client_name: 'ci-runner', scope: 'write' } })).body;
    const page = await (await get(`/app/device?user_code=${started.user_code}`, cookie)).text();
    const approved = await post('/app/device', { csrf: csrfIn(page), user_code: started.user_code, decision: 'approve' }, cookie);
    assert.equal(approved.status, 200);
    assert.match(await approved.text(), /Device approved/);
    const token = await app.api('/api/v1/device/token', { body: { device_code: started.device_code, grant_type: GRANT_TYPE } });
    assert.equal(token.status, 200);

    const other = (await app.api('/api/v1/device/code', { body: { client_name: 'unknown laptop', scope: 'write' } })).body;
    const denied = await post('/app/device', { csrf: csrfIn(page), user_code: other.user_code, decision: 'deny' }, cookie);
    assert.match(await denied.text(), /Device denied/);
    const refused = await app.api('/api/v1/device/token', { body: { device_code: other.device_code, grant_type: GRANT_TYPE } });
    assert.deepEqual(refused.body, { error: 'access_denied' });
  });

  it('refuses a form without the CSRF token or from another site, and escapes what was typed', async () => {
    const cookie = await signIn();
    const started = (await app.api('/api/v1/device/code', { body: { client_name: '<img src=x onerror=alert(1)>', scope: 'write' } })).body;
    const page = await (await get(`/app/device?user_code=${started.user_code}`, cookie)).text();
    assert.ok(!page.includes('<img src=x'), 'the client name is escaped');
    assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'));

    const forged = await post('/app/device', { user_code: started.user_code, decision: 'approve' }, cookie);
    assert.equal(forged.status, 403);
    const crossSite = await post('/app/device', { csrf: csrfIn(page), user_code: started.user_code }, cookie, 'https://evil.example');
    assert.equal(crossSite.status, 403);
    const loginCsrf = await post('/app/sign-in', { email: user.email, password: user.password }, '', 'https://evil.example');
    assert.equal(loginCsrf.status, 403);
    const pending = await app.api('/api/v1/device/token', { body: { device_code: started.device_code, grant_type: GRANT_TYPE } });
    assert.deepEqual(pending.body, { error: 'authorization_pending' }, 'nothing was approved');
  });

  it('shows a wrong password or an unknown code on the page, and never redirects to another host', async () => {
    const wrong = await post('/app/sign-in', { email: user.email, password: 'not it', next: '/app/' });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /incorrect/);
    const offsite = await post('/app/sign-in', { email: user.email, password: user.password, next: '//evil.example/x' });
    assert.equal(offsite.headers.get('location'), '/app/');
    const cookie = (offsite.headers.get('set-cookie') ?? '').split(';')[0]!;
    const page = await (await get('/app/device', cookie)).text();
    const unknown = await post('/app/device', { csrf: csrfIn(page), user_code: 'BBBB-BBBB' }, cookie);
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /unknown or has expired/);
  });

  it('falls back to the dashboard for a next that is not a clean path here, after sign-in and sign-up alike', async () => {
    // `/app/€` cannot be a Location header; it used to fail with 500 after the session had been issued.
    // (Two sign-ins only: each counts against the per-email sign-in limit; the form shows the rest below.)
    for (const next of ['/app/€', '/\tevil.example']) {
      const signedIn = await post('/app/sign-in', { email: user.email, password: user.password, next });
      assert.equal(signedIn.status, 303, `sign-in with next=${JSON.stringify(next)}`);
      assert.equal(signedIn.headers.get('location'), '/app/');
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      assert.equal((await get('/app/', cookie)).status, 200, 'the session works');
    }
    const signedUp = await post('/app/sign-up', { email: 'nils@example.com', password: 'correct horse battery', next: '/app/€' });
    assert.equal(signedUp.status, 303);
    assert.equal(signedUp.headers.get('location'), '/app/');
    for (const next of ['/app/€', '/app/a b', 'https://evil.example/', '/app/\u{1F600}', '//evil.example']) {
      const form = await (await get(`/app/sign-in?next=${encodeURIComponent(next)}`)).text();
      assert.match(form, /name="next" value="\/app\/"/, next);
    }
    // An encoded address, as the service itself makes them, still comes back.
    const encoded = await post('/app/sign-in', { email: user.email, password: user.password, next: '/app/device?user_code=BCDF-GHJK&x=%E2%82%AC' });
    assert.equal(encoded.headers.get('location'), '/app/device?user_code=BCDF-GHJK&x=%E2%82%AC');
  });

  it('signs out with the form, and the session stops working', async () => {
    const cookie = await signIn();
    const home = await (await get('/app/', cookie)).text();
    assert.match(home, /ola@example\.com/);
    const out = await post('/app/sign-out', { csrf: csrfIn(home) }, cookie);
    assert.equal(out.status, 303);
    assert.equal((await get('/app/', cookie)).status, 303, 'back to sign-in');
  });
});
