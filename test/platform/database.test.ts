import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { connect, inReadSnapshot, withoutSocketHost } from '../../src/platform/database.js';
import { isDatabaseUnavailable, setDatabaseDown } from '../../src/platform/database-availability.js';

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

describe('a database known to be down (the embedded one while its supervisor starts it again)', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db.drop());

  /** Where this process connects to it: the Unix socket when the URL names one, else host:port. */
  function addressesOf(url: string): string[] {
    const { url: target, socketDir } = withoutSocketHost(url);
    const { hostname, port } = new URL(target);
    return [`${hostname}:${port}`, ...(socketDir ? [`${socketDir}/.s.PGSQL.${port}`] : [])];
  }

  it('has its connects refused at once, as unavailable (a 503), and is used again as soon as it is up', async () => {
    // A new pool: no connection is open yet, so every statement must connect.
    const sql = connect(db.url, { max: 3 });
    const addresses = addressesOf(db.url);
    try {
      setDatabaseDown(addresses, true);
      const statements = Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0 ? sql`select ${'x'.repeat(4000)} as big` : i % 3 === 1 ? sql.begin((tx) => tx`select 1`) : sql`select 1`,
      );
      const outcomes = await Promise.allSettled(statements);
      assert.deepEqual(
        outcomes.map((outcome) => (outcome.status === 'rejected' && isDatabaseUnavailable(outcome.reason) ? 'unavailable' : String(outcome.status === 'rejected' ? outcome.reason : 'answered'))),
        Array.from({ length: 12 }, () => 'unavailable'),
      );
    } finally {
      setDatabaseDown(addresses, false);
    }
    // Back: every connection of the pool connects and answers (none was left broken by the refusals).
    const answers = await Promise.all(Array.from({ length: 6 }, () => sql.begin(async (tx) => (await tx<[{ one: number }]>`select 1 as one, pg_sleep(0.05)`)[0].one)));
    assert.deepEqual(answers, [1, 1, 1, 1, 1, 1]);
    await sql.end({ timeout: 5 });
  });
});
