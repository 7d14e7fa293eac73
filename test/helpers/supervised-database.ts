import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiKey } from '../../src/keys/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { loadConfig } from '../../src/platform/config.js';
import { connect } from '../../src/platform/database.js';
import { prepareRegistration, registerUser } from '../../src/users/index.js';
import { registerDomain } from '../../src/domain.js';

/**
 * For tests of an app on the embedded PostgreSQL it starts and supervises itself (no DATABASE_URL): the data dir,
 * the app's configuration, the postmaster's pid to kill, and a user with a live key written beside the app.
 */

export async function supervisedDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-supervised-'));
  // As root, the cluster runs as the `postgres` user, which must be able to enter the folder.
  await fs.chmod(dir, 0o755);
  return dir;
}

/** The pid of the cluster's postmaster, from its postmaster.pid (the cluster the test's own app started). */
export async function postmasterPid(dir: string): Promise<number> {
  const lines = (await fs.readFile(path.join(dir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
  return Number(lines[0]);
}

export function supervisedConfig(dir: string, env: Record<string, string> = {}) {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SHOWREEL_DATA_DIR: dir,
    SHOWREEL_MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SHOWREEL_RUN_WORKER: 'false',
    SHOWREEL_ALLOW_PRIVATE_URLS: '1',
    SHOWREEL_CHECK_PROJECT_URLS: '0',
    ...env,
  });
}

/** A user with `credits` and a live key, written through the database at `url`. */
export async function liveKey(url: string, credits = 1): Promise<string> {
  registerDomain();
  const sql = connect(url, { max: 1 });
  try {
    const prepared = await prepareRegistration({ email: `${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery', isAdmin: false, startingCredits: credits });
    const key = await inTransaction(sql, async (tx) => {
      await registerUser(tx, prepared, { actor: 'test' });
      return createApiKey(tx, { userId: prepared.userId, name: 'Test key', type: 'live', projectId: null, allowedDomains: null }, { actor: 'test' });
    });
    return key.key;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
