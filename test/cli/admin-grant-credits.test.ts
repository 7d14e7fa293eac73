import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { registerDomain } from '../../src/domain.js';
import { inTransaction } from '../../src/platform/command.js';
import { readStream } from '../../src/platform/event-store/read-stream.js';
import { prepareRegistration, registerUser } from '../../src/users/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const bin = path.resolve(import.meta.dirname, '../../bin/showreel.mjs');

/**
 * `showreel admin grant-credits` (issue 34): on a service that sells nothing, how credits come into being. Run as an
 * operator would, a child process against the database (DATABASE_URL).
 */
describe('showreel admin grant-credits', () => {
  let db: TestDatabase;
  let dataDir: string;
  let userId: string;

  before(async () => {
    registerDomain();
    db = await createTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-grant-'));
    const prepared = await prepareRegistration({ email: 'grace@example.com', password: 'correct horse battery', isAdmin: false, startingCredits: 2 });
    await inTransaction(db.sql, (tx) => registerUser(tx, prepared, { actor: 'test' }));
    userId = prepared.userId;
  });
  after(async () => {
    await db.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const showreel = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SHOWREEL_|DATABASE_URL|PORT|LOG_LEVEL)/.test(name)));
      const child = spawn(process.execPath, [bin, 'admin', 'grant-credits', ...args], {
        env: { ...env, DATABASE_URL: db.url, SHOWREEL_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  const balance = async () => (await db.sql<{ balance: number }[]>`select balance from credit_accounts where user_id = ${userId}`)[0]?.balance;

  it('grants the credits as a bonus transaction with the reason in the history, and records who granted them', async () => {
    const result = await showreel(['--email', 'Grace@Example.com', '--credits', '25', '--reason', 'Conference demo, agreed by Ada']);
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout);
    assert.deepEqual([printed.user_id, printed.granted, printed.balance], [userId, 25, 27]);
    assert.equal(await balance(), 27);

    const [latest] = await db.sql<{ type: string; amount: number; description: string }[]>`
      select type, amount, description from credit_transactions where user_id = ${userId} order by stream_version desc limit 1`;
    assert.deepEqual(latest, { type: 'bonus', amount: 25, description: 'Conference demo, agreed by Ada' });
    const granted = (await readStream(db.sql, `credits-${userId}`)).at(-1)!;
    assert.equal(granted.type, 'CreditsGranted');
    assert.equal((granted.data as { grantedBy: string }).grantedBy, os.userInfo().username);
    assert.match(granted.metadata.actor ?? '', /^admin-cli:/);
  });

  it('refuses an unknown email with a clear message and a non-zero exit, granting nothing', async () => {
    const before = await balance();
    const result = await showreel(['--email', 'nobody@example.com', '--credits', '5', '--reason', 'x']);
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /User nobody@example\.com not found/);
    assert.equal(await balance(), before);
  });

  it('refuses a missing reason, a bad number or a bad email as usage errors (exit 2)', async () => {
    for (const args of [
      ['--email', 'grace@example.com', '--credits', '5'],
      ['--email', 'grace@example.com', '--credits', 'lots', '--reason', 'x'],
      ['--email', 'grace@example.com', '--credits', '0', '--reason', 'x'],
      ['--email', 'not-an-email', '--credits', '5', '--reason', 'x'],
      ['--email', 'grace@example.com', '--credits', '5', '--reason', '   '],
    ]) {
      const result = await showreel(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /reason|credits|email/i);
    }
  });
});
