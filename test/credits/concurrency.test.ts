import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auditCredits, chargeCredits, getBalance, openAccount } from '../../src/credits/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { QuotaError } from '../../src/platform/errors.js';
import { newId } from '../../src/platform/ids.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const metadata = { actor: 'test' };

/**
 * One account is a hot stream: every generation of a user charges it, and a burst of them arrives together.
 * Without the stream lock each writer reads version v, all but one fail the append at v+1, and they retry in
 * rounds until MAX_COMMAND_ATTEMPTS runs out. With it they queue: each reads the balance its predecessor committed,
 * so exactly as many charges succeed as there are credits, and the rest are refused by the decider, not by chance.
 */
describe('concurrent charges on one account', () => {
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db.drop());

  const open = async (credits: number) => {
    const userId = newId();
    await inTransaction(db.sql, (tx) => openAccount(tx, { userId, startingCredits: credits }, metadata));
    return userId;
  };
  const charge = (userId: string, reference: string) =>
    inTransaction(db.sql, (tx) => chargeCredits(tx, { userId, amount: 1, description: 'A demo', reference }, metadata));

  it('lets exactly N of 50 one-credit charges through on a balance of N, 20 times over', async () => {
    const N = 20;
    for (let round = 1; round <= 20; round++) {
      const userId = await open(N);
      const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => charge(userId, `demo:${i}:v1`)));
      const succeeded = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      for (const failure of refused) assert.ok(failure.reason instanceof QuotaError, `round ${round}: ${String(failure.reason)}`);
      assert.equal(succeeded.length, N, `round ${round}`);
      assert.equal(refused.length, 50 - N, `round ${round}`);
      assert.equal(await getBalance(db.sql, userId), 0, `round ${round}`);
      const audit = await auditCredits(db.sql, { userId });
      assert.deepEqual(audit.accounts[0]?.problems, [], `round ${round}`);
      assert.equal(audit.summary.ok, true);
    }
  });

  it('applies 50 concurrent charges with the same reference once', async () => {
    const userId = await open(10);
    const results = await Promise.all(Array.from({ length: 50 }, () => charge(userId, 'job:same')));
    assert.equal(results.filter((r) => !r.alreadyCharged).length, 1);
    assert.equal(new Set(results.map((r) => r.transaction.id)).size, 1);
    assert.equal(await getBalance(db.sql, userId), 9);
  });

  it('leaves every account it touched consistent with its events', async () => {
    const audit = await auditCredits(db.sql);
    assert.equal(audit.summary.accounts, 21);
    assert.equal(audit.summary.mismatched, 0);
  });
});
