/**
 * Password guessing is slowed per client address and per email, and a burst of sign-ins cannot starve the rest of
 * the service of libuv's thread pool (issue 15, finding 3).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { addressBucket } from '../../src/auth/sign-in-limits.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { error?: string; user_id?: string };
}

/** POST /api/v1/auth/sign-in from a given loopback address (all of 127/8 is this machine), so tests do not share counts. */
function signIn(app: TestApp, from: string, email: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL('/api/v1/auth/sign-in', app.url);
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: JSON.parse(Buffer.concat(chunks).toString()) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Counts are per clock minute: start a burst early in one, so it does not straddle two. */
async function startOfAWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 200));
}

describe('sign-in limits', () => {
  let app: TestApp;
  let dana: TestUser;
  let erin: TestUser;

  before(async () => {
    app = await startTestApp({ SHOWREEL_SIGN_IN_LIMIT_PER_EMAIL: '3', SHOWREEL_SIGN_IN_LIMIT_PER_ADDRESS: '6' });
    dana = await app.createUser({ email: 'dana@example.com', password: 'dana passphrase' });
    erin = await app.createUser({ email: 'erin@example.com', password: 'erin passphrase' });
  });
  after(() => app?.stop());

  it('stops guesses at one email with 429 and Retry-After, even the right password, while others still sign in', async () => {
    await startOfAWindow();
    for (let i = 0; i < 3; i++) assert.equal((await signIn(app, '127.0.0.2', dana.email, `guess ${i}`)).status, 401);

    const limited = await signIn(app, '127.0.0.2', 'DANA@example.com ', dana.password);
    assert.equal(limited.status, 429, 'the same email in another case still counts');
    assert.deepEqual(Object.keys(limited.body), ['error']);
    assert.match(limited.body.error!, /sign-in/);
    const retryAfter = Number(limited.retryAfter);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${limited.retryAfter}`);

    // From elsewhere too: the count is the email's, not the address's.
    assert.equal((await signIn(app, '127.0.0.3', dana.email, dana.password)).status, 429);

    const other = await signIn(app, '127.0.0.2', erin.email, erin.password);
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.equal(other.body.user_id, erin.userId);
  });

  it('stops one address trying many emails with 429', async () => {
    await startOfAWindow();
    for (let i = 0; i < 6; i++) assert.equal((await signIn(app, '127.0.0.4', `nobody${i}@example.com`, 'guess')).status, 401);
    const limited = await signIn(app, '127.0.0.4', `nobody6@example.com`, 'guess');
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.retryAfter) >= 1);
  });

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', () => {
    assert.equal(addressBucket('2001:db8:1:2:aaaa::1'), addressBucket('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'));
    assert.notEqual(addressBucket('2001:db8:1:2::1'), addressBucket('2001:db8:1:3::1'));
    assert.equal(addressBucket('::ffff:192.0.2.7'), '192.0.2.7');
  });
});

describe('sign-in limits behind a reverse proxy', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ SHOWREEL_TRUSTED_PROXIES: '1', SHOWREEL_SIGN_IN_LIMIT_PER_ADDRESS: '2', SHOWREEL_SIGN_IN_LIMIT_PER_EMAIL: '0' });
  });
  after(() => app?.stop());

  // The proxy is 127.0.0.6 and appends the address it got each request from.
  const viaProxy = (client: string, forged?: string) =>
    signIn(app, '127.0.0.6', 'nobody@example.com', 'guess', { 'x-forwarded-for': forged ? `${forged}, ${client}` : client });

  it('counts each client behind the proxy apart, and a forged X-Forwarded-For entry does not help', async () => {
    await startOfAWindow();
    assert.equal((await viaProxy('198.51.100.1')).status, 401);
    assert.equal((await viaProxy('198.51.100.1', '203.0.113.9')).status, 401);
    assert.equal((await viaProxy('198.51.100.1', '203.0.113.10')).status, 429, 'the same client, whatever it claims');
    assert.equal((await viaProxy('198.51.100.2')).status, 401, 'another client behind the same proxy is not limited');
  });
});

describe('password hashing under a burst of sign-ins', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    // Limits off: this is about what many sign-ins at once (from many addresses, say) do to the process.
    app = await startTestApp({ SHOWREEL_SIGN_IN_LIMIT_PER_EMAIL: '0', SHOWREEL_SIGN_IN_LIMIT_PER_ADDRESS: '0' });
    user = await app.createUser();
  });
  after(() => app?.stop());

  const timeStaticFile = async () => {
    const started = performance.now();
    const response = await fetch(`${app.url}/background/catalog/aurora.jpg`);
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    return performance.now() - started;
  };

  it('keeps serving files while 40 sign-ins are being checked, instead of queueing them behind the hashes', async () => {
    await timeStaticFile(); // warm
    let answered = 0;
    const burst = Array.from({ length: 40 }, (_, i) => signIn(app, '127.0.0.5', user.email, `wrong ${i}`).finally(() => answered++));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const during = await timeStaticFile();
    const answeredBeforeTheFile = answered;
    const answers = await Promise.all(burst);
    assert.ok(answers.every((a) => a.status === 401), answers.map((a) => a.status).join(' '));
    // Uncapped, the file read waits in libuv's queue behind every hash queued before it (~all 40, over a second);
    // capped, only behind the two running. Counting answers, not milliseconds, holds on a loaded machine too.
    assert.ok(answeredBeforeTheFile < 10, `the file came after ${answeredBeforeTheFile} of 40 sign-ins (${Math.round(during)} ms)`);
    assert.ok(during < 1_000, `a static file took ${Math.round(during)} ms during the burst`);
  });
});
