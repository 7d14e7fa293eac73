import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inTransaction } from '../../src/platform/command.js';
import { ConcurrencyError } from '../../src/platform/errors.js';
import { beforeCommit } from '../../src/platform/transaction.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

describe('a command whose statement it did not wait for fails', () => {
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
    await db.sql`create table if not exists transaction_story (attempt int primary key)`;
  });
  after(() => db.drop());

  it('fails with that statement’s error, not with the aborted transaction of what it awaited next, and a ConcurrencyError is run again', async () => {
    let attempts = 0;
    const result = await inTransaction(db.sql, async (tx) => {
      attempts++;
      // Sent, not awaited (as a new job's insert is): on the first attempt it fails in the database.
      const failing = tx`select 1 / ${attempts === 1 ? 0 : 1} as one`.then(
        () => undefined,
        () => {
          throw new ConcurrencyError('story', 0, null);
        },
      );
      await beforeCommit(tx, failing);
      // Awaited right behind it (as the account's read is): on the first attempt the transaction is aborted here.
      const [row] = await tx<[{ attempt: number }]>`insert into transaction_story (attempt) values (${attempts}) returning attempt`;
      return row.attempt;
    });
    assert.equal(attempts, 2);
    assert.equal(result, 2);
    const rows = await db.sql<{ attempt: number }[]>`select attempt from transaction_story`;
    assert.deepEqual(rows.map((r) => r.attempt), [2]);
  });

  it('keeps any other error of the earlier statement as the command’s error', async () => {
    await assert.rejects(
      inTransaction(db.sql, async (tx) => {
        await beforeCommit(tx, tx`select 1 / 0 as broken`);
        await tx`select 1`;
      }),
      /division by zero/,
    );
  });
});
