import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/**
 * Guessing a user code is a way to sign a stranger's terminal in as yourself (or to approve an attacker's terminal
 * as a victim who clicks a link): issue 34 found 150 guesses in 1.7 s. Wrong codes are now limited per signed-in user
 * and per client address; a code that matches costs nothing, so a person approving many devices is never held up.
 */
describe('device approval limits', () => {
  let app: TestApp;
  let publicOrigin: string;

  before(async () => {
    // One trusted proxy: each request says which client address it comes from, as a load balancer would.
    app = await startTestApp({
      SHOWREEL_TRUSTED_PROXIES: '1',
      SHOWREEL_DEVICE_AUTHORIZE_LIMIT_PER_USER: '5',
      SHOWREEL_DEVICE_AUTHORIZE_LIMIT_PER_ADDRESS: '8',
      SHOWREEL_DEVICE_CODE_LIMIT_PER_ADDRESS: '0',
    });
    publicOrigin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    // The counts live in one-minute windows: start well inside one so that a turn of the minute cannot reset them mid-story.
    const [row] = await app.sql<{ second: number }[]>`select extract(second from now())::float as second`;
    if (row!.second > 45) await new Promise((resolve) => setTimeout(resolve, (61 - row!.second) * 1000));
  });
  after(() => app.stop());

  const sessionOf = async (user: TestUser, from: string) => {
    const signedIn = await app.api('/api/v1/auth/sign-in', { body: { email: user.email, password: user.password }, headers: { 'x-forwarded-for': from } });
    assert.equal(signedIn.status, 200, signedIn.text);
    return (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  };
  const authorize = (cookie: string, from: string, userCode: string) =>
    app.api('/api/v1/device/authorize', { cookie, body: { user_code: userCode }, headers: { 'x-forwarded-for': from } });
  const newCode = async () => (await app.api('/api/v1/device/code', { body: { client_name: 'terminal', scope: 'write' } })).body.user_code as string;

  it('stops a burst of wrong codes with 429 and Retry-After, per user and per address', async () => {
    const guesser = await app.createUser();
    const cookie = await sessionOf(guesser, '203.0.113.1');
    const burst = await Promise.all(Array.from({ length: 40 }, () => authorize(cookie, '203.0.113.1', 'BBBB-BBBB')));
    const wrong = burst.filter((r) => r.status === 404).length;
    const limited = burst.filter((r) => r.status === 429);
    assert.equal(wrong + limited.length, 40, `only 404 and 429: ${burst.map((r) => r.status).join(',')}`);
    assert.ok(wrong <= 5, `at most the user's 5 wrong codes are looked up, not ${wrong}`);
    assert.ok(Number(limited[0]!.headers.get('retry-after')) > 0, 'Retry-After says when to try again');
    assert.match(limited[0]!.body.error, /Rate limit exceeded/);

    // The same person from another address: still limited (per user).
    const elsewhere = await authorize(await sessionOf(guesser, '203.0.113.2'), '203.0.113.2', 'CCCC-CCCC');
    assert.equal(elsewhere.status, 429);
    // Another person from the guesser's address: limited too (per address), even with a right code.
    const neighbour = await authorize(await sessionOf(await app.createUser(), '203.0.113.1'), '203.0.113.1', await newCode());
    assert.equal(neighbour.status, 429);
  });

  it('lets right codes through however many, and counts only the wrong ones', async () => {
    const person = await app.createUser();
    const cookie = await sessionOf(person, '198.51.100.7');
    for (let i = 0; i < 9; i++) {
      const approved = await authorize(cookie, '198.51.100.7', await newCode());
      assert.equal(approved.status, 200, `approval ${i + 1}: ${approved.text}`);
    }
    const typo = await authorize(cookie, '198.51.100.7', 'DDDD-DDDD');
    assert.equal(typo.status, 404, 'a typo after many approvals is still just a wrong code');
  });

  it('shows the dashboard form again with 429 and Retry-After once the limit is reached', async () => {
    const person = await app.createUser();
    const cookie = await sessionOf(person, '192.0.2.9');
    const page = await (await fetch(`${app.url}/app/device`, { headers: { cookie, 'x-forwarded-for': '192.0.2.9' } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const post = () =>
      fetch(`${app.url}/app/device`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicOrigin, cookie, 'x-forwarded-for': '192.0.2.9' },
        body: new URLSearchParams({ csrf, user_code: 'FFFF-FFFF', decision: 'approve' }).toString(),
      });
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 7; i++) {
      last = await post();
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [404, 404, 404, 404, 404, 429, 429]);
    assert.ok(Number(last!.headers.get('retry-after')) > 0);
    const text = await last!.text();
    assert.match(text, /Too many wrong codes; try again in \d+ s\./);
    assert.match(text, /<form method="post" action="\/app\/device">/, 'the form is still there');
  });
});
