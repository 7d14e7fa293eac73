import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import { startApp } from '../../src/app.js';
import { withoutSocketHost } from '../../src/platform/database.js';
import { startEmbeddedPostgres } from '../../src/platform/embedded-postgres.js';
import { createLogger } from '../../src/platform/logger.js';
import { postgres } from '../../src/platform/postgres-driver.js';
import { liveKey, postmasterPid, supervisedConfig, supervisedDataDir } from '../helpers/supervised-database.js';

/**
 * Issue 58, item 4: an outage answered at once. The embedded PostgreSQL is killed (kill -9) while a client sends
 * 20 requests a second over seven routes (five writes, two reads). While it is down, every answer is a 503 with
 * Retry-After and comes within 1 s: no request is held until the database is back. Once PostgreSQL accepts
 * connections again, a write succeeds within 2 s. And every write that was answered 2xx, before, during or after
 * the outage, is in the database afterwards.
 *
 * It used to hold later requests for the database (some reads got no answer within 15 s), and the first write
 * came 15.4 s after the kill although PostgreSQL was back at 3.0 s: the driver's reconnect backoff, grown with
 * every refused connect of the outage, kept the pool away from the database it was waiting for.
 */

const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
const REQUESTS_PER_SECOND = 20;
/** The issue's bounds: a 503 within 1 s of the request; the first write within 2 s of the database's return. */
const ANSWER_WITHIN_MS = 1000;
const FIRST_WRITE_WITHIN_MS = 2000;

interface Exchange {
  route: string;
  /** What the write stored (a name or a prompt), to look for afterwards; null for a read. */
  token: string | null;
  sentAt: number;
  answeredAt: number;
  status: number | 'no answer';
  retryAfter: string | null;
  body: string;
}

describe('when the embedded PostgreSQL is killed under a steady stream of requests', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('answers 503 with Retry-After within 1 s while it is down, writes again within 2 s of its return, and loses no acknowledged write', { timeout: 240_000 }, async (t) => {
    const dir = await supervisedDataDir();
    // Limits that would answer 429 to a client this busy are off: the test is about the database.
    const env = { SHOWREEL_RATE_LIMIT_PER_KEY: '0', SHOWREEL_RATE_LIMIT_PER_USER: '0', SHOWREEL_CONNECTIONS_PER_ADDRESS: '0' };
    const app = await startApp(supervisedConfig(dir, env), logger, { http: true, worker: false });
    cleanups.push(async () => {
      await app.stop();
      await fs.rm(dir, { recursive: true, force: true });
    });
    // The cluster the app started (and supervises): this process only connects to it.
    const cluster = await startEmbeddedPostgres({ dataDir: dir });
    assert.equal(cluster.owned, false);
    const key = await liveKey(cluster.url, 100_000);

    const call = async (method: string, pathname: string, body?: unknown) => {
      const response = await fetch(`${app.url}/api/v1${pathname}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        // Far beyond the bounds asserted: a request held this long is counted as unanswered.
        signal: AbortSignal.timeout(20_000),
      });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
    };
    const project = await call('POST', '/projects', { name: 'Acme', url: 'https://acme.example' });
    assert.equal(project.status, 201, project.body);
    const projectId = (JSON.parse(project.body) as { id: string }).id;
    const demo = await call('POST', '/demos', { project_id: projectId, prompt: 'Show the pricing' });
    assert.equal(demo.status, 202, demo.body);
    const demoId = (JSON.parse(demo.body) as { id: string }).id;

    const routes: Array<{ route: string; send: (token: string) => ReturnType<typeof call>; writes: boolean }> = [
      { route: 'POST /projects', writes: true, send: (token) => call('POST', '/projects', { name: token, url: 'https://acme.example' }) },
      { route: 'PATCH /projects/{id}', writes: true, send: (token) => call('PATCH', `/projects/${projectId}`, { name: token }) },
      { route: 'POST /api-keys', writes: true, send: (token) => call('POST', '/api-keys', { name: token }) },
      { route: 'POST /demos', writes: true, send: (token) => call('POST', '/demos', { project_id: projectId, prompt: token }) },
      { route: 'PATCH /demos/{id}', writes: true, send: (token) => call('PATCH', `/demos/${demoId}`, { prompt: token }) },
      { route: 'GET /projects', writes: false, send: () => call('GET', '/projects') },
      { route: 'GET /demos/{id}', writes: false, send: () => call('GET', `/demos/${demoId}`) },
    ];
    const exchanges: Promise<Exchange>[] = [];
    const run = `outage-${randomBytes(3).toString('hex')}`;
    let sequence = 0;
    // An open loop, as clients are: a request every 50 ms whether or not the last one was answered.
    const writer = setInterval(() => {
      const { route, send, writes } = routes[sequence % routes.length]!;
      const token = writes ? `${run}-${sequence}-end` : null;
      sequence++;
      const sentAt = performance.now();
      exchanges.push(
        send(token ?? '').then(
          (answer) => ({ route, token, sentAt, answeredAt: performance.now(), ...answer }),
          (error: unknown) => ({ route, token, sentAt, answeredAt: performance.now(), status: 'no answer' as const, retryAfter: null, body: String(error) }),
        ),
      );
    }, 1000 / REQUESTS_PER_SECOND);
    cleanups.push(async () => clearInterval(writer));

    // The test's own view of the database: over TCP, a connection of its own, no reconnect backoff.
    const probe = postgres(withoutSocketHost(cluster.url).url, { max: 1, backoff: () => 0, connect_timeout: 2, onnotice: () => {} });
    cleanups.push(() => probe.end({ timeout: 1 }));
    const answers = () => probe`select 1`.then(() => true, () => false);

    await sleep(1500);
    const killedAt = performance.now();
    process.kill(await postmasterPid(dir), 'SIGKILL');
    // A backend may answer once more before it notices that its postmaster died: down is when the probe fails.
    await waitUntil(async () => !(await answers()), 10_000, 'the database stopped answering');
    await waitUntil(answers, 120_000, 'the database accepted connections again');
    const backAt = performance.now();
    await sleep(3000);
    clearInterval(writer);
    const all = await Promise.all(exchanges);

    const ms = (value: number) => Math.round(value);
    const outage = all.filter((e) => e.sentAt >= killedAt && e.sentAt < backAt);
    const unavailable = all.filter((e) => e.status === 503);
    const firstWrite = all.filter((e) => e.token !== null && typeof e.status === 'number' && e.status < 300 && e.answeredAt >= backAt).sort((a, b) => a.answeredAt - b.answeredAt)[0];
    const counts = new Map<string, number>();
    for (const e of all) counts.set(String(e.status), (counts.get(String(e.status)) ?? 0) + 1);
    t.diagnostic(
      `${all.length} requests (${JSON.stringify(Object.fromEntries(counts))}); the database back ${ms(backAt - killedAt)} ms after the kill; ` +
        `${outage.length} requests sent meanwhile, the slowest answered in ${ms(Math.max(...outage.map((e) => e.answeredAt - e.sentAt)))} ms; ` +
        `the slowest 503 in ${ms(Math.max(...unavailable.map((e) => e.answeredAt - e.sentAt)))} ms; ` +
        `the first write after it ${firstWrite ? `${ms(firstWrite.answeredAt - backAt)} ms later` : 'never'}.`,
    );

    // The outage was seen: requests were sent while it lasted, and were told so.
    assert.ok(outage.length >= 5, `only ${outage.length} requests fell into the outage`);
    assert.ok(unavailable.length > 0, 'no request was answered 503');
    // Every answer was a success or a 503; nothing went unanswered, nothing was a fault of ours.
    const unexpected = all.filter((e) => e.status === 'no answer' || ((e.status < 200 || e.status >= 300) && e.status !== 503));
    assert.deepEqual(unexpected.map((e) => `${e.route}: ${e.status} ${e.body.slice(0, 200)}`), []);
    // A 503 says when to come back, and comes at once.
    assert.deepEqual(unavailable.filter((e) => !(Number(e.retryAfter) > 0)).map((e) => e.route), [], 'a 503 without Retry-After');
    const slow503 = unavailable.filter((e) => e.answeredAt - e.sentAt > ANSWER_WITHIN_MS);
    assert.deepEqual(slow503.map((e) => `${e.route} sent ${ms(e.sentAt - killedAt)} ms after the kill, answered 503 after ${ms(e.answeredAt - e.sentAt)} ms`), []);
    // No request sent while the database was down waited for it: each was answered within 1 s, unless the database
    // came back meanwhile and it went through within the 2 s a write may take after that.
    const held = outage.filter((e) => e.answeredAt - e.sentAt > ANSWER_WITHIN_MS && !(e.status !== 503 && e.answeredAt - backAt <= FIRST_WRITE_WITHIN_MS));
    assert.deepEqual(held.map((e) => `${e.route} sent ${ms(e.sentAt - killedAt)} ms after the kill, answered ${e.status} after ${ms(e.answeredAt - e.sentAt)} ms`), []);
    // Back, it takes writes again at once.
    assert.ok(firstWrite, 'no write succeeded after the database came back');
    assert.ok(firstWrite.answeredAt - backAt <= FIRST_WRITE_WITHIN_MS, `the first write succeeded ${ms(firstWrite.answeredAt - backAt)} ms after the database was back`);

    // Nothing acknowledged is lost: every name and prompt a 2xx answer stored is in the event log.
    const acknowledged = all.filter((e) => e.token !== null && typeof e.status === 'number' && e.status < 300).map((e) => e.token!);
    assert.ok(acknowledged.length > 20, `only ${acknowledged.length} writes succeeded`);
    const reader = postgres(withoutSocketHost(cluster.url).url, { max: 1, onnotice: () => {} });
    try {
      const missing = await reader<Array<{ token: string }>>`
        select token from unnest(${acknowledged}::text[]) as token
        where not exists (select 1 from events where position(token in data::text) > 0)`;
      assert.deepEqual(missing.map((row) => row.token), [], 'acknowledged writes missing from the database');
    } finally {
      await reader.end({ timeout: 5 });
    }
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil(condition: () => Promise<boolean>, limitMs: number, what: string): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await sleep(20);
  }
}
