import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { startApp, type RunningApp } from '../../src/app.js';
import { connect } from '../../src/platform/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/platform/embedded-postgres.js';
import { enqueueJob, startWorker } from '../../src/platform/jobs.js';
import { createLogger } from '../../src/platform/logger.js';
import { migrate } from '../../src/platform/migrate.js';
import { liveKey, postmasterPid, supervisedConfig, supervisedDataDir } from '../helpers/supervised-database.js';

/**
 * `kill -9` of the embedded PostgreSQL used to leave the service up answering 500 to every API call, and 503 on
 * /healthz, for ever. Now the cluster is started again, and in between every answer is a 503 with Retry-After.
 */

const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

interface Observed {
  statuses: Map<number, number>;
  retryAfterMissing: number;
  bodies: Set<string>;
  backAfterMs: number | null;
}

/** Polls `pathname` until it answers 200 (after `start`), recording every answer on the way. */
async function pollUntilOk(app: RunningApp, pathname: string, headers: Record<string, string>, limitMs: number): Promise<Observed> {
  const observed: Observed = { statuses: new Map(), retryAfterMissing: 0, bodies: new Set(), backAfterMs: null };
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    const response = await fetch(`${app.url}${pathname}`, { headers });
    const text = await response.text();
    observed.statuses.set(response.status, (observed.statuses.get(response.status) ?? 0) + 1);
    if (response.status === 200) {
      observed.backAfterMs = Date.now() - started;
      return observed;
    }
    observed.bodies.add(text);
    if (response.status === 503 && !response.headers.get('retry-after')) observed.retryAfterMissing++;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return observed;
}

describe('when the embedded PostgreSQL is killed', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('starts it again, and the API answers 503 with Retry-After meanwhile and 200 within 30 s, never 500', { timeout: 90_000 }, async () => {
    const dir = await supervisedDataDir();
    const app = await startApp(supervisedConfig(dir), logger, { http: true, worker: false });
    cleanups.push(async () => {
      await app.stop();
      await fs.rm(dir, { recursive: true, force: true });
    });
    // A second process on the same data dir finds the running cluster (it does not own it).
    const shared = await startEmbeddedPostgres({ dataDir: dir });
    assert.equal(shared.owned, false);
    const key = await liveKey(shared.url);
    const auth = { authorization: `Bearer ${key}` };
    assert.equal((await fetch(`${app.url}/api/v1/projects`, { headers: auth })).status, 200);

    // Commands in flight when the database dies: their transactions lose their connection mid-way. None may be left
    // waiting: each is answered, 201 or 503, well within the 10 s it gets here (issue 58: a statement queued behind
    // one in flight, or a request for a connection, was lost by the driver, and one or two requests of ~270 waited
    // for ever).
    const writes = new Map<number | 'no answer', number>();
    let writing = true;
    const createProject = async () => {
      try {
        const response = await fetch(`${app.url}/api/v1/projects`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Acme', url: 'https://acme.example' }),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        return response.status;
      } catch {
        return 'no answer' as const;
      }
    };
    const writer = async () => {
      while (writing) {
        const status = await createProject();
        writes.set(status, (writes.get(status) ?? 0) + 1);
      }
    };
    const writers = [writer(), writer(), writer()];
    await new Promise((resolve) => setTimeout(resolve, 300));

    const pid = await postmasterPid(dir);
    process.kill(pid, 'SIGKILL');
    // Right after the kill, nothing listens on the database's address: the API is told so, not a 500. (A backend
    // of a pooled connection may answer a last query before it notices its postmaster is gone: a 200 then.)
    let during = await fetch(`${app.url}/api/v1/projects`, { headers: auth });
    for (const giveUpAt = Date.now() + 5000; during.status === 200 && Date.now() < giveUpAt; ) {
      await during.arrayBuffer();
      during = await fetch(`${app.url}/api/v1/projects`, { headers: auth });
    }
    const duringBody = (await during.json()) as { error: string };
    assert.equal(during.status, 503, JSON.stringify(duringBody));
    assert.match(duringBody.error, /database is restarting/);
    assert.ok(Number(during.headers.get('retry-after')) > 0);

    const observed = await pollUntilOk(app, '/api/v1/projects', auth, 30_000);
    assert.notEqual(observed.backAfterMs, null, `no 200 within 30 s: ${JSON.stringify([...observed.statuses])} ${[...observed.bodies].join(' ')}`);
    assert.deepEqual([...observed.statuses.keys()].filter((status) => status !== 200 && status !== 503), [], [...observed.bodies].join(' '));
    assert.equal(observed.retryAfterMissing, 0);
    assert.notEqual(await postmasterPid(dir), pid, 'a new postmaster');
    writing = false;
    await Promise.all(writers);
    assert.deepEqual([...writes.keys()].filter((status) => status !== 201 && status !== 503), [], JSON.stringify([...writes]));
    // Once the database is back, commands go through again.
    assert.equal(await createProject(), 201);
    const health = await fetch(`${app.url}/healthz`);
    assert.equal(health.status, 200);
  });

  /** A migrated cluster of its own, removed after the test. Not ephemeral: a throwaway cluster commits
   * asynchronously, and a kill would take the last commits with it. */
  const startDurableCluster = async () => {
    const dir = await supervisedDataDir();
    const cluster = await startEmbeddedPostgres({ dataDir: dir, ephemeral: false, logger });
    cleanups.push(async () => {
      await cluster.stop();
      await fs.rm(dir, { recursive: true, force: true });
    });
    const sql = connect(cluster.url, { max: 2 });
    cleanups.push(() => sql.end({ timeout: 5 }));
    await migrate(sql, cluster.url);
    return { dir, cluster, sql };
  };

  // The limits are long because the whole suite runs beside it in CI: a SIGKILLed durable cluster replays its WAL
  // before it takes a connection, and on two busy cores that once took more than 30 s.
  it('a graphile-worker runner on it keeps running jobs after the restart', { timeout: 150_000 }, async () => {
    const { dir, cluster, sql } = await startDurableCluster();
    const ran: string[] = [];
    const runner = await startWorker({
      connectionString: cluster.url,
      concurrency: 1,
      taskList: { remember: async (payload) => void ran.push((payload as { n: string }).n) },
      logger,
    });
    cleanups.push(() => runner.stop());
    const enqueue = (n: string) => sql.begin((tx) => enqueueJob(tx, 'remember', { n }));
    await enqueue('before');
    await waitFor(() => ran.includes('before'), 15_000, 'the first job ran');
    // Killed once the runner has recorded that job done: a kill that falls on the completion is the next test's
    // case, and graphile-worker's rejection from it (which startWorker survives) can reach node:test unhandled and fail
    // this one (seen once in CI).
    const pending = async () => (await sql<Array<{ n: number }>>`select count(*)::int as n from graphile_worker._private_jobs`)[0]!.n;
    await waitFor(async () => (await pending()) === 0, 15_000, 'the first job was recorded done');
    // graphile-worker batches its completions: a write of that batch still on its socket when the kill fell gave a
    // `write EPIPE` from batchCompleteJobs that reached node:test unhandled (seen once more in CI). A moment lets it land.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    process.kill(await postmasterPid(dir), 'SIGKILL');
    await waitFor(async () => (await enqueue('after').then(() => true, () => false)), 75_000, 'the database took a job again');
    await waitFor(() => ran.includes('after'), 45_000, 'the job enqueued after the restart ran');
  });

  it('is started again at once though a backend was busy with a long statement (the backends left behind are ended)', { timeout: 150_000 }, async () => {
    // A backend notices that its postmaster died only when it next waits; one busy computing runs on, holding the
    // cluster's shared memory, and no new postmaster starts until it is gone. This statement would compute for far
    // longer than the test waits; its statement_timeout ends it after 100 s however the restart goes.
    const { dir, cluster, sql } = await startDurableCluster();
    const busy = connect(cluster.url, { max: 1 });
    cleanups.push(() => busy.end({ timeout: 1 }));
    const statement = 'select count(*) from generate_series(1, 1000000000000)';
    const long = busy
      .begin(async (tx) => {
        await tx`set local statement_timeout = '100s'`;
        await tx.unsafe(statement);
      })
      .then(() => 'finished', () => 'failed');
    const running = async () =>
      (await sql<Array<{ n: number }>>`select count(*)::int as n from pg_stat_activity where query = ${statement} and state = 'active'`)[0]!.n === 1;
    await waitFor(running, 15_000, 'the long statement ran');

    process.kill(await postmasterPid(dir), 'SIGKILL');
    // Well under the statement's 100 s, and far over a restart's few seconds on a busy machine.
    await waitFor(() => sql`select 1`.then(() => true, () => false), 60_000, 'the database accepted connections again');
    assert.equal(await long, 'failed', 'the statement of the killed cluster did not finish');
  });

  it('a worker whose database dies while it completes a job is started again, and runs the next job', { timeout: 150_000 }, async () => {
    // graphile-worker gives its pool up for good when it cannot record a completion; without supervision the
    // runner's rejected promise ended the process (seen in CI when the kill fell on a completion).
    const { dir, cluster, sql } = await startDurableCluster();
    const ran: string[] = [];
    let killed = false;
    const worker = await startWorker({
      connectionString: cluster.url,
      concurrency: 1,
      taskList: {
        // The job kills the database under its own worker, so that the completion is what fails.
        killDatabase: async () => {
          if (killed) return;
          killed = true;
          process.kill(await postmasterPid(dir), 'SIGKILL');
          await new Promise((resolve) => setTimeout(resolve, 100));
        },
        remember: async (payload) => void ran.push((payload as { n: string }).n),
      },
      logger,
    });
    cleanups.push(() => worker.stop());
    await sql.begin((tx) => enqueueJob(tx, 'killDatabase', {}));
    await waitFor(async () => (await sql.begin((tx) => enqueueJob(tx, 'remember', { n: 'after' })).then(() => true, () => false)), 75_000, 'the database took a job again');
    await waitFor(() => ran.includes('after'), 45_000, 'the job enqueued after the restart ran');
  });
});

describe('with DATABASE_URL, a restart of that database', () => {
  let database: EmbeddedDatabase | null = null;
  let app: RunningApp | null = null;
  let dir = '';
  after(async () => {
    await app?.stop().catch(() => undefined);
    await database?.stop().catch(() => undefined);
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('is survived without restarting Showreel: 503 while it is down, 200 once it is back', { timeout: 90_000 }, async () => {
    dir = await supervisedDataDir();
    const dbDir = path.join(dir, 'external');
    database = await startEmbeddedPostgres({ dataDir: dbDir, ephemeral: false });
    app = await startApp(supervisedConfig(path.join(dir, 'app'), { DATABASE_URL: database.url }), logger, { http: true, worker: false });
    const key = await liveKey(database.url);
    const auth = { authorization: `Bearer ${key}` };
    assert.equal((await fetch(`${app.url}/api/v1/projects`, { headers: auth })).status, 200);

    // An operator's restart: a clean stop (connections terminated), then a start on the same port.
    await database.stop();
    const down = await fetch(`${app.url}/api/v1/projects`, { headers: auth });
    assert.equal(down.status, 503, await down.text());
    assert.ok(down.headers.get('retry-after'));
    assert.equal((await fetch(`${app.url}/healthz`)).status, 503);

    database = await startEmbeddedPostgres({ dataDir: dbDir, port: Number(new URL(database.url).port) });
    const observed = await pollUntilOk(app, '/api/v1/projects', auth, 30_000);
    assert.notEqual(observed.backAfterMs, null, JSON.stringify([...observed.statuses]));
    assert.deepEqual([...observed.statuses.keys()].filter((status) => status !== 200 && status !== 503), []);
    assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, limitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
