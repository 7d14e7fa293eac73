import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAdminClient } from '../../scripts/admin-client.js';
import { auditCredits, chargeCredits, configureAutoTopoff, grantAtOnceProvider, openAccount, purchaseCredits, refundCredits } from '../../src/credits/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { newId } from '../../src/platform/ids.js';
import { rebuildReadModels } from '../../src/platform/projections.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const metadata = { actor: 'test' };
const root = path.resolve(import.meta.dirname, '../..');

/** `npm run audit:credits` against the test database: its exit code and its JSON lines. */
function runAuditScript(databaseUrl: string): Promise<{ code: number | null; lines: any[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/audit-credits.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, lines: out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) }));
  });
}

describe('credits audit', () => {
  let db: TestDatabase;
  let alice: string;
  let bob: string;

  before(async () => {
    db = await createTestDatabase();
    alice = newId();
    bob = newId();
    // A little of everything: bonus, purchase, auto top-off, charges, a refund.
    await inTransaction(db.sql, async (tx) => {
      await openAccount(tx, { userId: alice, startingCredits: 2 }, metadata);
      await openAccount(tx, { userId: bob, startingCredits: 0 }, metadata);
    });
    await inTransaction(db.sql, async (tx) => {
      await purchaseCredits(tx, { userId: alice, packId: '5' }, metadata, { provider: grantAtOnceProvider });
      await chargeCredits(tx, { userId: alice, amount: 3, description: 'Demo', reference: 'demo:a:v1' }, metadata);
      await refundCredits(tx, { userId: alice, reference: 'demo:a:v1', description: 'Failed' }, metadata);
      await configureAutoTopoff(tx, { userId: bob, enabled: true, packId: '5' }, metadata);
      await chargeCredits(tx, { userId: bob, amount: 3, description: 'Demo', reference: 'demo:b:v1' }, metadata, { provider: grantAtOnceProvider });
    });
  });
  after(() => db.drop());

  it('finds a healthy ledger clean', async () => {
    const report = await auditCredits(db.sql);
    assert.deepEqual(report.summary, { accounts: 2, events: 8, clean: 2, mismatched: 0, ok: true });
    const byUser = new Map(report.accounts.map((a) => [a.userId, a]));
    assert.equal(byUser.get(alice)?.balance, 7);
    assert.equal(byUser.get(bob)?.balance, 2);
  });

  it('catches a corrupted read model, and a rebuild from the events repairs it', async () => {
    await db.sql`update credit_accounts set balance = balance + 5 where user_id = ${alice}`;
    await db.sql`delete from credit_transactions where user_id = ${bob} and type = 'auto_topoff'`;
    await db.sql`update credit_accounts set auto_topoff_enabled = false where user_id = ${bob}`;

    const report = await auditCredits(db.sql);
    assert.equal(report.summary.ok, false);
    assert.equal(report.summary.mismatched, 2);
    const byUser = new Map(report.accounts.map((a) => [a.userId, a]));
    assert.deepEqual(byUser.get(alice)?.problems, ['credit_accounts.balance is 12; the events add up to 7.']);
    assert.equal(byUser.get(alice)?.readModelBalance, 12);
    const bobProblems = byUser.get(bob)?.problems.join('\n') ?? '';
    assert.match(bobProblems, /credit_transactions is missing .* \(auto_topoff 5, stream version 3\)/);
    assert.match(bobProblems, /auto top-off is off with pack 5; the events say on with pack 5/);

    const script = await runAuditScript(db.url);
    assert.equal(script.code, 1);
    assert.deepEqual(script.lines.at(-1), { summary: report.summary });
    assert.deepEqual(new Set(script.lines.slice(0, -1).map((l) => l.userId)), new Set([alice, bob]));

    await db.sql.begin((tx) => rebuildReadModels(tx));
    const repaired = await auditCredits(db.sql);
    assert.equal(repaired.summary.ok, true, JSON.stringify(repaired.accounts));
    assert.equal((await runAuditScript(db.url)).code, 0);
  });

  it('catches a broken balance_after chain in the events themselves', async () => {
    const carol = newId();
    await inTransaction(db.sql, (tx) => openAccount(tx, { userId: carol, startingCredits: 4 }, metadata));
    await inTransaction(db.sql, (tx) => chargeCredits(tx, { userId: carol, amount: 1, description: 'Demo', reference: 'demo:c:v1' }, metadata));
    // What a bad manual fix of the log would look like: a charge that claims to leave more than it could.
    await db.sql`
      update events set data = jsonb_set(data, '{balanceAfter}', '9')
      where stream_id = ${`credits-${carol}`} and type = 'CreditsCharged'`;
    const report = await auditCredits(db.sql, { userId: carol });
    const problems = report.accounts[0]?.problems.join('\n') ?? '';
    assert.match(problems, /event 2 \(CreditsCharged\): balanceAfter is 9; the previous 4 plus -1 is 3/);
    assert.equal(report.summary.ok, false);
  });
});

describe('credits audit as an admin procedure', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(() => app.stop());

  it('reports mismatches to an admin and refuses anyone else', async () => {
    const admin = await app.createUser({ admin: true, credits: 3 });
    const alice = await app.createUser({ credits: 10 });
    const asAdmin = createAdminClient({ url: app.url, apiKey: admin.key });

    const clean = await asAdmin.auditCredits.query({ includeClean: true });
    assert.deepEqual(clean.summary, { accounts: 2, events: 2, clean: 2, mismatched: 0, ok: true });
    assert.equal(clean.accounts.length, 2);

    await app.sql`update credit_accounts set balance = balance + 5 where user_id = ${alice.userId}`;
    const dirty = await asAdmin.auditCredits.query();
    assert.equal(dirty.summary.mismatched, 1);
    assert.deepEqual(dirty.accounts.map((a) => [a.userId, a.balance, a.readModelBalance]), [[alice.userId, 10, 15]]);

    await asAdmin.rebuildReadModels.mutate();
    assert.equal((await asAdmin.auditCredits.query({ userId: alice.userId })).summary.ok, true);

    await assert.rejects(createAdminClient({ url: app.url, apiKey: alice.key }).auditCredits.query(), /admin/);
  });
});
