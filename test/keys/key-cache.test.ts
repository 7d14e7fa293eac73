import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningApp, startApp } from '../../src/app.js';
import { KEY_CACHE_TTL_MS } from '../../src/keys/index.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/**
 * Keys are cached for a few seconds so that busy integrations authenticate without a query (src/keys/key-cache.ts);
 * a revoked key must stop working at once anyway: in the process that revoked it, and within moments in every other
 * API process on the same database (here: a second app with its own pool and cache, as a second process would be).
 */
describe('the API key cache', () => {
  let app: TestApp;
  let second: RunningApp;
  let secondDataDir: string;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser();
    secondDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-second-'));
    const config = loadConfig({
      DATABASE_URL: app.databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SHOWREEL_DATA_DIR: secondDataDir,
      SHOWREEL_MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      SHOWREEL_RUN_WORKER: 'false',
    });
    second = await startApp(config, createLogger('silent'), { http: true, worker: false });
  });
  after(async () => {
    await second.stop();
    await app.stop();
    await fs.rm(secondDataDir, { recursive: true, force: true });
  });

  const onSecond = (key: string) => fetch(`${second.url}/api/v1/projects`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

  /** Uses the key until both processes answer from their caches (the first lookup also sets up their LISTEN). */
  async function warm(key: string) {
    for (let i = 0; i < 5; i++) {
      assert.equal((await app.api('/api/v1/projects', { key })).status, 200);
      assert.equal(await onSecond(key), 200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('answers a cached key without reading it again, for a few seconds at most', async () => {
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'Cached' } });
    await warm(created.body.key);
    // Behind the cache's back (no event, no notification): the cached key still works in both processes...
    await app.sql`delete from api_keys where id = ${created.body.id}`;
    assert.equal((await app.api('/api/v1/projects', { key: created.body.key })).status, 200);
    assert.equal(await onSecond(created.body.key), 200);
    // ...until its entry expires.
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_TTL_MS + 100));
    assert.equal((await app.api('/api/v1/projects', { key: created.body.key })).status, 401);
    assert.equal(await onSecond(created.body.key), 401);
  });

  it('refuses a revoked key at once in the same process, and within moments in another', async () => {
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'Soon revoked' } });
    const key = created.body.key as string;
    await warm(key);

    const revoked = await app.api(`/api/v1/api-keys/${created.body.id}`, { key: user.key, method: 'DELETE' });
    assert.equal(revoked.status, 200);
    const sameProcess = await app.api('/api/v1/projects', { key });
    assert.equal(sameProcess.status, 401);
    assert.deepEqual(sameProcess.body, { error: 'Invalid API key.' });

    // The other process learns it from the NOTIFY sent at commit, far sooner than its cache entry would expire.
    const started = Date.now();
    let status = await onSecond(key);
    while (status === 200 && Date.now() - started < KEY_CACHE_TTL_MS) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = await onSecond(key);
    }
    const took = Date.now() - started;
    assert.equal(status, 401);
    assert.ok(took < 1000, `the second process refused the revoked key after ${took} ms`);
  });

  it('keeps refusing wrong keys (misses are never cached as hits)', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await app.api('/api/v1/projects', { key: `sr_live_${'x'.repeat(43)}` })).status, 401);
  });
});
