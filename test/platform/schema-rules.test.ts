import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** The SQLSTATE a statement failed with, or null when it succeeded (rolled back either way). */
async function refusal(db: TestDatabase, statement: string): Promise<string | null> {
  try {
    await db.sql.begin(async (tx) => {
      await tx.unsafe(statement);
      throw new Error('rollback');
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code) return code;
  }
  return null;
}

// The rules are domains rather than table CHECK constraints (db/017, for the CPU PostgreSQL spent re-reading the
// latter at every write); whatever form they take, the database itself must still refuse what breaks them.
describe('the database refuses what breaks its rules, whatever the writer', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db.drop());

  it('refuses an event at version 0 or below', async () => {
    const insert = (version: number) =>
      `insert into events (stream_id, stream_version, type, data) values ('rules-1', ${version}, 'Tested', '{}')`;
    assert.equal(await refusal(db, insert(0)), '23514');
    assert.equal(await refusal(db, insert(-3)), '23514');
    assert.equal(await refusal(db, insert(1)), null);
  });

  it('refuses a threshold below 1 and an unknown transaction type; a balance may go below zero (issue 58)', async () => {
    const account = (balance: number, threshold: number) =>
      `insert into credit_accounts (user_id, balance, auto_topoff_threshold, updated_at) values ('rules-user', ${balance}, ${threshold}, now())`;
    assert.equal(await refusal(db, account(5, 0)), '23514');
    // Credits taken back from a refunded or disputed payment after they were spent: the decider allows only that.
    assert.equal(await refusal(db, account(-1, 1)), null);
    const transaction = (type: string, balanceAfter: number) =>
      `insert into credit_transactions (id, user_id, type, amount, balance_after, created_at, stream_version)
       values ('rules-tx', 'rules-user', '${type}', -1, ${balanceAfter}, now(), 1)`;
    assert.equal(await refusal(db, transaction('gift', 3)), '23514');
    assert.equal(await refusal(db, transaction('refund', -1)), null);
    // An update is held to the rule as an insert is.
    await db.sql.unsafe(account(2, 1));
    assert.equal(await refusal(db, `update credit_accounts set auto_topoff_threshold = 0 where user_id = 'rules-user'`), '23514');
  });
});
