import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

describe('timestamps go to the database as the instants they are', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db.drop());

  it('writes each instant, the same one twice, and a Date changed in place as it now is', async () => {
    const first = new Date('2026-03-01T10:00:00.123Z');
    const second = new Date('2026-03-01T10:00:00.124Z');
    const changed = new Date(first.getTime());
    const read = async (value: unknown) => {
      const [row] = await db.sql<[{ text: string }]>`select to_char(${value as Date}::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as text`;
      return row.text;
    };
    assert.equal(await read(first), '2026-03-01T10:00:00.123');
    assert.equal(await read(first), '2026-03-01T10:00:00.123');
    assert.equal(await read(second), '2026-03-01T10:00:00.124');
    changed.setTime(Date.UTC(2027, 0, 2, 3, 4, 5, 6));
    assert.equal(await read(changed), '2027-01-02T03:04:05.006');
    // A string or a number still means the instant it names, and a result comes back as a Date.
    assert.equal(await read('2026-03-01T10:00:00.123Z'), '2026-03-01T10:00:00.123');
    const [row] = await db.sql<[{ at: Date }]>`select ${second}::timestamptz as at`;
    assert.ok(row.at instanceof Date);
    assert.equal(row.at.getTime(), second.getTime());
  });
});
