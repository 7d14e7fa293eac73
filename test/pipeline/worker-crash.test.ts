import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { descendantsOf } from '../helpers/processes.js';

const root = path.resolve(import.meta.dirname, '..', '..');


/** A worker killed with SIGKILL mid-recording: another worker picks the job up; one version, one charge. */
describe('a worker killed mid-job', () => {
  let app: TestApp;
  let user: TestUser;
  let sites: FixtureServer;
  let dataDir: string;
  const children: ChildProcess[] = [];
  const orphans: number[] = [];

  before(async () => {
    [app, sites] = await Promise.all([startTestApp({ SHOWREEL_ALLOW_PRIVATE_URLS: '1' }), startFixtureServer()]);
    user = await app.createUser({ credits: 10 });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-worker-'));
  });
  after(async () => {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      // A live worker stops gracefully (closing its browser); whatever is left after 10 s is killed by PID.
      orphans.push(...descendantsOf(child.pid!));
      child.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    for (const pid of orphans) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await app.stop();
    await sites.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  function startWorker(): ChildProcess {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: app.databaseUrl, SHOWREEL_DATA_DIR: dataDir, SHOWREEL_ALLOW_PRIVATE_URLS: '1',
      SHOWREEL_WORKER_STALE_SECONDS: '3', WORKER_CONCURRENCY: '1', LOG_LEVEL: 'warn', SHOWREEL_MASTER_KEY: randomBytes(32).toString('hex') };
    delete env.TEST_DATABASE_URL;
    const child = spawn(process.execPath, [path.join(root, 'bin', 'showreel.mjs'), 'worker'], { env, stdio: 'ignore' });
    children.push(child);
    return child;
  }

  async function waitFor<T>(what: string, check: () => Promise<T | null>, timeoutMs = 180_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== null) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }

  it('is picked up again and completes once, charged once', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Agency', url: sites.url('agency') } })).body;
    const created = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'Show the case studies', resolution: '720p', duration_target: '10s' } })).body;

    const first = startWorker();
    await waitFor('the recording to start', async () => {
      const progress = (await app.api(`/api/v1/demos/${created.id}/progress`, { key: user.key })).body;
      return progress.step === 'recording' ? true : null;
    });
    // SIGKILL leaves the worker's Chromium orphaned, as on a real crash; note its processes to clean up after.
    orphans.push(...descendantsOf(first.pid!));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    startWorker();
    const final = await waitFor('the demo to finish', async () => {
      const progress = (await app.api(`/api/v1/demos/${created.id}/progress`, { key: user.key })).body;
      return progress.status === 'ready' || progress.status === 'failed' ? progress : null;
    });
    assert.equal(final.status, 'ready', final.error ?? '');

    const demo = (await app.api(`/api/v1/demos/${created.id}`, { key: user.key })).body;
    assert.equal(demo.version, 1, 'one version');
    const succeeded = await app.sql`select count(*)::int as n from events where stream_id = ${`demo-${created.id}`} and type = 'DemoJobSucceeded'`;
    assert.equal(succeeded[0]!.n, 1);
    const started = await app.sql`select count(*)::int as n from events where stream_id = ${`demo-${created.id}`} and type = 'DemoJobStarted'`;
    assert.ok(started[0]!.n >= 2, 'the second worker started the job again');
    const charges = await app.sql`select count(*)::int as n from credit_transactions where user_id = ${user.userId} and type = 'deduct'`;
    assert.equal(charges[0]!.n, 1, 'charged once');
    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, 9);
  });
});
