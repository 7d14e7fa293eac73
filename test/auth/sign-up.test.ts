import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** A person creates their own account: signed in at once, with the sign-up bonus unless the operator turned it off. */
describe('sign-up', () => {
  let app: TestApp;
  let noBonus: TestApp;
  before(async () => {
    [app, noBonus] = await Promise.all([
      startTestApp({ SHOWREEL_SIGNUP_CREDITS: '7', SHOWREEL_SIGN_UP_LIMIT_PER_ADDRESS: '4' }),
      startTestApp({ SHOWREEL_SIGNUP_BONUS: 'false' }),
    ]);
  });
  after(() => Promise.all([app.stop(), noBonus.stop()]));

  const cookieOf = (headers: Headers) => (headers.get('set-cookie') ?? '').split(';')[0]!;

  it('creates the account, signs it in and grants the bonus as its first transaction', async () => {
    const signedUp = await app.api('/api/v1/auth/sign-up', { body: { email: 'Nia@Example.com', password: 'a long passphrase' } });
    assert.equal(signedUp.status, 201, signedUp.text);
    assert.equal(signedUp.body.email, 'Nia@Example.com');
    const cookie = cookieOf(signedUp.headers);
    assert.match(cookie, /session_token=/);
    const credits = await app.api('/api/v1/credits', { cookie });
    assert.equal(credits.body.balance, 7);
    assert.deepEqual(credits.body.recentTransactions.map((t: { type: string; amount: number }) => [t.type, t.amount]), [['bonus', 7]]);
    const signIn = await app.api('/api/v1/auth/sign-in', { body: { email: 'nia@example.com', password: 'a long passphrase' } });
    assert.equal(signIn.status, 200, 'the new password works');
  });

  it('refuses a taken email (any case), a bad email and a short password, with a sentence', async () => {
    const taken = await app.api('/api/v1/auth/sign-up', { body: { email: 'NIA@example.com', password: 'another passphrase' } });
    assert.equal(taken.status, 409);
    assert.match(taken.body.error, /already exists/);
    const badEmail = await app.api('/api/v1/auth/sign-up', { body: { email: 'not-an-email', password: 'a long passphrase' } });
    assert.equal(badEmail.status, 400);
    // Beyond SMTP's limits no mail could reach the account: refused before anything is counted or hashed.
    const longLocal = await app.api('/api/v1/auth/sign-up', { body: { email: `${'a'.repeat(65)}@example.com`, password: 'a long passphrase' } });
    assert.equal(longLocal.status, 400);
    assert.equal(longLocal.body.error, 'The email address must have at most 64 characters before the @.');
    const longAddress = await app.api('/api/v1/auth/sign-up', { body: { email: `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.example`, password: 'a long passphrase' } });
    assert.equal(longAddress.status, 400);
    assert.match(longAddress.body.error, /The email address must be at most 254 characters/);
    const short = await app.api('/api/v1/auth/sign-up', { body: { email: 'short@example.com', password: 'short' } });
    assert.equal(short.status, 400);
    assert.match(short.body.error, /at least 10 characters/);
  });

  it('limits sign-ups per client address (429 with Retry-After)', async () => {
    // Counted before the password is hashed and before the email is looked up: a taken email counts too.
    const attempt = () => app.api('/api/v1/auth/sign-up', { body: { email: 'nia@example.com', password: 'a long passphrase' } });
    let last = await attempt();
    for (let i = 0; i < 5 && last.status !== 429; i++) last = await attempt();
    assert.equal(last.status, 429);
    assert.ok(Number(last.headers.get('retry-after')) > 0);
  });

  it('starts at 0 credits when SHOWREEL_SIGNUP_BONUS is off', async () => {
    const signedUp = await noBonus.api('/api/v1/auth/sign-up', { body: { email: 'zero@example.com', password: 'a long passphrase' } });
    assert.equal(signedUp.status, 201);
    const credits = await noBonus.api('/api/v1/credits', { cookie: cookieOf(signedUp.headers) });
    assert.equal(credits.body.balance, 0);
  });

  it('signs up in the dashboard and goes back to the page that asked', async () => {
    const origin = new URL((await noBonus.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    const form = await (await fetch(`${noBonus.url}/app/sign-up?next=%2Fapp%2Fkeys`)).text();
    assert.match(form, /Buy credits once you are in/, 'no bonus promised when it is off');
    assert.match(form, /name="next" value="\/app\/keys"/);
    const post = (fields: Record<string, string>, from = origin) =>
      fetch(`${noBonus.url}/app/sign-up`, {
        method: 'POST', redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: from },
        body: new URLSearchParams(fields).toString(),
      });
    const refused = await post({ email: '<b>x</b>@example.com', password: 'short', next: '/app/keys' });
    assert.equal(refused.status, 400);
    const page = await refused.text();
    assert.ok(page.includes('&lt;b&gt;x&lt;/b&gt;@example.com') && !page.includes('<b>x</b>'), 'what was typed comes back escaped');
    assert.equal((await post({ email: 'evil@example.com', password: 'a long passphrase' }, 'https://evil.example')).status, 403);
    const done = await post({ email: 'dash@example.com', password: 'a long passphrase', next: '/app/keys' });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), '/app/keys');
    const keys = await fetch(`${noBonus.url}/app/keys`, { headers: { cookie: cookieOf(done.headers) } });
    assert.equal(keys.status, 200);
    assert.match(await keys.text(), /dash@example\.com/);
  });
});
