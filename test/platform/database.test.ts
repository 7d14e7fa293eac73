import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { inReadSnapshot } from '../../src/platform/database.js';

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

describe('reads that must agree see one moment', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await db.sql`create table snapshot_story (id int primary key, version int not null)`;
    await db.sql`insert into snapshot_story values (1, 5)`;
  });
  after(() => db.drop());

  it('does not see a write committed between its two reads (a refresh ending while a demo is read)', async () => {
    const [first, second] = await inReadSnapshot(db.sql, async (tx) => {
      const [before] = await tx<[{ version: number }]>`select version from snapshot_story where id = 1`;
      // Another connection commits meanwhile, as a worker ending a job does.
      await db.sql`update snapshot_story set version = 6 where id = 1`;
      const [after] = await tx<[{ version: number }]>`select version from snapshot_story where id = 1`;
      return [before.version, after.version];
    });
    assert.deepEqual([first, second], [5, 5]);
    const [now] = await db.sql<[{ version: number }]>`select version from snapshot_story where id = 1`;
    assert.equal(now.version, 6, 'the write itself landed');
  });

  it('only reads', async () => {
    await assert.rejects(inReadSnapshot(db.sql, (tx) => tx`update snapshot_story set version = 7`), /read-only transaction/);
  });
});
