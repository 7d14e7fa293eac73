import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * As root, the embedded cluster runs as the `postgres` user. A data dir inside a folder that only root can enter,
 * as `mktemp -d` makes them, used to fail deep inside initdb with "Permission denied".
 */
describe('the embedded PostgreSQL data dir', { skip: process.getuid?.() !== 0 && 'only root runs the cluster as another user' }, () => {
  it('stops at once with one line saying what to change when the cluster user cannot enter a folder above it', async () => {
    const locked = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-locked-'));
    try {
      assert.equal((await fs.stat(locked)).mode & 0o777, 0o700);
      const started = Date.now();
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/showreel.mjs', 'migrate'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', SHOWREEL_DATA_DIR: path.join(locked, 'data'), LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const lines = result.stderr.trim().split('\n');
      assert.equal(result.status, 2, result.stderr);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, new RegExp(`cannot enter ${locked} .*chmod o\\+x ${locked}`));
      assert.ok(Date.now() - started < 30_000);
    } finally {
      await fs.rm(locked, { recursive: true, force: true });
    }
  });
});

/**
 * The embedded cluster's URL names its Unix socket (libpq's `?host=/dir` form), which postgres.js (through
 * connect) and graphile-worker's node-postgres both use: a loopback TCP round trip costs both sides more CPU.
 */
describe('connections to the embedded PostgreSQL', { skip: !process.env.TEST_DATABASE_URL?.includes('host=') && 'the tests run against an external DATABASE_URL' }, () => {
  it('go through its Unix socket, for postgres.js and node-postgres alike', async () => {
    const { createTestDatabase } = await import('../helpers/database.js');
    const db = await createTestDatabase();
    try {
      const [row] = await db.sql<{ address: string | null }[]>`select inet_server_addr()::text as address`;
      assert.equal(row!.address, null, 'no server address: not TCP');
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const result = await client.query<{ address: string | null }>('select inet_server_addr()::text as address');
        assert.equal(result.rows[0]!.address, null);
      } finally {
        await client.end();
      }
    } finally {
      await db.drop();
    }
  });
});
