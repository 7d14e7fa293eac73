import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sql } from '../../src/platform/database.js';
import { instrumentQueries, withQueryTiming } from '../../src/platform/query-timing.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** The debug log line of a request says how many statements it sent and how long they kept the database busy. */
describe('per-request query timing', () => {
  let database: TestDatabase;
  let sql: Sql;

  before(async () => {
    database = await createTestDatabase();
    sql = instrumentQueries(database.sql);
  });
  after(() => database.drop());

  it('counts every statement sent, on the pool and in a transaction, but not the fragments inside them', async () => {
    const timing = await withQueryTiming(async (timing) => {
      await sql`select 1`;
      await sql.begin(async (tx) => {
        await tx`select ${1}::int ${tx`+ 1`}`;
        await Promise.all([tx`select pg_sleep(0.05)`, tx`select 2`]);
      });
      await sql.unsafe('select 3');
      return timing;
    });
    // select 1, select 1+1, the two pipelined ones, select 3 (begin/commit are the driver's, not ours)
    assert.equal(timing.queries, 5);
    assert.equal(timing.inFlight, 0);
    assert.ok(timing.ms >= 50, `${timing.ms} ms`);
  });

  it('keeps the tallies of concurrent requests apart', async () => {
    const [a, b] = await Promise.all([
      withQueryTiming(async (timing) => {
        await sql`select 1`;
        return timing;
      }),
      withQueryTiming(async (timing) => {
        await sql`select 1`;
        await sql`select 2`;
        return timing;
      }),
    ]);
    assert.equal(a.queries, 1);
    assert.equal(b.queries, 2);
  });

  it('counts nothing outside a request', async () => {
    const rows = await sql`select 42 as answer`;
    assert.equal(rows[0]!.answer, 42);
  });
});
