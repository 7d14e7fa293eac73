import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { inTransaction, MAX_COMMAND_ATTEMPTS } from '../../src/platform/command.js';
import type { Tx } from '../../src/platform/database.js';
import { ConcurrencyError } from '../../src/platform/errors.js';
import { appendToStream } from '../../src/platform/event-store/append-to-stream.js';
import { lockStream } from '../../src/platform/event-store/lock-stream.js';
import { readAll } from '../../src/platform/event-store/read-all.js';
import { readStream } from '../../src/platform/event-store/read-stream.js';
import type { Checkpoint, StoredEvent } from '../../src/platform/event-store/types.js';
import { newId } from '../../src/platform/ids.js';
import { createSecretBox } from '../../src/platform/secrets.js';
import { createProject, updateProject } from '../../src/projects/commands.js';
import { prepareRegistration, registerUser } from '../../src/users/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** A valid UserRegistered payload; appendToStream only validates, it runs no projection. */
function registered(userId: string) {
  return {
    type: 'UserRegistered',
    data: { userId, email: `${userId}@example.com`, passwordHash: 'scrypt$not-a-real-hash', isAdmin: false, plan: 'free', startingCredits: 10 },
  };
}

const planChanged = (userId: string, plan: 'free' | 'pro') => ({ type: 'UserPlanChanged', data: { userId, plan } });

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the event store', () => {
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db.drop());

  describe('a stream', () => {
    it('reads back what was appended: versions 1..n in order, with type, data, metadata, transaction id and time', async () => {
      const userId = newId();
      const streamId = `user-${userId}`;
      const metadata = { actor: 'user-42', requestId: 'req-1', causationId: 'cmd-1', correlationId: 'corr-1' };
      const startedAt = Date.now();

      const { stored, xid } = await db.sql.begin(async (tx) => {
        const stored = await appendToStream(tx, streamId, 0, [registered(userId), planChanged(userId, 'pro'), planChanged(userId, 'free')], metadata);
        const [row] = await tx<{ xid: string }[]>`select pg_current_xact_id()::text as xid`;
        return { stored, xid: row!.xid };
      });

      const events = await readStream(db.sql, streamId);
      assert.deepEqual(events, stored, 'readStream returns exactly what the append returned');
      assert.deepEqual(events.map((e) => e.streamVersion), [1, 2, 3]);
      assert.deepEqual(events.map((e) => e.type), ['UserRegistered', 'UserPlanChanged', 'UserPlanChanged']);
      assert.deepEqual(events[0]!.data, registered(userId).data);
      assert.deepEqual(events[1]!.data, { userId, plan: 'pro' });
      for (const event of events) {
        assert.equal(event.streamId, streamId);
        assert.deepEqual(event.metadata, metadata);
        // One append, one transaction: every event carries the id of the transaction that wrote it...
        assert.equal(event.transactionId, xid);
        // ...and the transaction's time (now() is fixed for the whole transaction).
        assert.ok(event.createdAt instanceof Date);
        assert.equal(event.createdAt.getTime(), events[0]!.createdAt.getTime());
        assert.ok(Math.abs(event.createdAt.getTime() - startedAt) < 60_000, 'createdAt is the time of the append');
      }
      // Global positions grow with insertion order (bigints, carried as strings).
      const positions = events.map((e) => BigInt(e.globalPosition));
      assert.ok(positions[0]! < positions[1]! && positions[1]! < positions[2]!);

      // Appending further continues the numbering.
      const [fourth] = await db.sql.begin((tx) => appendToStream(tx, streamId, 3, [planChanged(userId, 'pro')]));
      assert.equal(fourth!.streamVersion, 4);
      assert.deepEqual(fourth!.metadata, {}, 'metadata defaults to an empty object');
    });

    it('refuses an append at a stale expected version with a ConcurrencyError and writes nothing', async () => {
      const userId = newId();
      const streamId = `user-${userId}`;
      await db.sql.begin((tx) => appendToStream(tx, streamId, 0, [registered(userId)]));

      // A writer that still believes the stream is new: the stream's version 1 is taken, and the unique constraint
      // refuses the append (the actual version is not read).
      await assert.rejects(
        db.sql.begin((tx) => appendToStream(tx, streamId, 0, [registered(userId)])),
        (error: unknown) => {
          assert.ok(error instanceof ConcurrencyError);
          assert.equal(error.streamId, streamId);
          assert.equal(error.expectedVersion, 0);
          assert.match(error.message, /expected version 0 but found another version/);
          return true;
        },
      );
      // A writer that believes it is ahead of the stream: there is no row at its expected version to follow.
      await assert.rejects(
        db.sql.begin((tx) => appendToStream(tx, streamId, 5, [planChanged(userId, 'pro')])),
        (error: unknown) => {
          assert.ok(error instanceof ConcurrencyError);
          assert.equal(error.expectedVersion, 5);
          assert.match(error.message, /expected version 5 but found another version/);
          return true;
        },
      );

      // Several events at once the same: refused ahead of the stream, appended in order at its version.
      await assert.rejects(
        db.sql.begin((tx) => appendToStream(tx, streamId, 5, [planChanged(userId, 'pro'), planChanged(userId, 'free')])),
        ConcurrencyError,
      );
      assert.deepEqual((await readStream(db.sql, streamId)).map((e) => e.streamVersion), [1]);
      await db.sql.begin((tx) => appendToStream(tx, streamId, 1, [planChanged(userId, 'pro'), planChanged(userId, 'free')]));
      await assert.rejects(db.sql.begin((tx) => appendToStream(tx, streamId, 1, [planChanged(userId, 'pro')])), ConcurrencyError);
      assert.deepEqual((await readStream(db.sql, streamId)).map((e) => [e.streamVersion, e.type]), [
        [1, 'UserRegistered'],
        [2, 'UserPlanChanged'],
        [3, 'UserPlanChanged'],
      ]);
    });

    it('turns the race the version check cannot see (both read the same version) into a ConcurrencyError too', async () => {
      const userId = newId();
      const streamId = `user-${userId}`;
      const a = await db.sql.reserve();
      const b = await db.sql.reserve();
      try {
        // A appends version 1 but has not committed: B's version check still sees an empty stream.
        await a`begin`;
        await appendToStream(a as unknown as Tx, streamId, 0, [registered(userId)]);
        const [{ pid } = { pid: 0 }] = await b<{ pid: number }[]>`select pg_backend_pid() as pid`;
        await b`begin`;
        const bAppend = appendToStream(b as unknown as Tx, streamId, 0, [registered(userId)]).then(
          () => null,
          (error: unknown) => error,
        );
        // B's insert of (stream, 1) now waits on A's uncommitted index entry. Make sure it really is waiting
        // (and not still on its way) before A commits, or this would test nothing.
        await waitUntil(async () => {
          const [activity] = await db.sql<{ waiting: boolean }[]>`
            select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = ${pid}`;
          return activity?.waiting === true;
        }, 'B waits on A');
        // Once A commits, the unique constraint rejects B, and the store reports it as the same ConcurrencyError
        // (actual version unknown).
        await a`commit`;
        const error = await bAppend;
        assert.ok(error instanceof ConcurrencyError, `expected a ConcurrencyError, got ${String(error)}`);
        assert.equal(error.actualVersion, null);
        assert.match(error.message, /found another version/);
        await b`rollback`;
      } finally {
        await a`rollback`.catch(() => undefined);
        await b`rollback`.catch(() => undefined);
        a.release();
        b.release();
      }
      assert.equal((await readStream(db.sql, streamId)).length, 1);
    });

    it('an append that takes the stream lock holds it until COMMIT, and still refuses a stream that moved', async () => {
      const userId = newId();
      const streamId = `user-${userId}`;
      await db.sql.begin((tx) => appendToStream(tx, streamId, 0, [registered(userId)]));
      const a = await db.sql.reserve();
      const b = await db.sql.reserve();
      try {
        // A appends with the lock in its statement; B asks for the lock, as a reader of the stream does (lockStream).
        await a`begin`;
        await appendToStream(a as unknown as Tx, streamId, 1, [planChanged(userId, 'pro')], {}, { lockStream: true });
        const [{ pid } = { pid: 0 }] = await b<{ pid: number }[]>`select pg_backend_pid() as pid`;
        await b`begin`;
        const bRead = lockStream(b as unknown as Tx, streamId).then(() => readStream(b as unknown as Tx, streamId));
        await waitUntil(async () => {
          const [activity] = await db.sql<{ waiting: boolean }[]>`
            select wait_event = 'advisory' as waiting from pg_stat_activity where pid = ${pid}`;
          return activity?.waiting === true;
        }, 'B waits for the stream lock A took');
        await a`commit`;
        // B got the lock only once A committed, and reads what A wrote.
        assert.deepEqual((await bRead).map((e) => e.streamVersion), [1, 2]);
        await b`commit`;
      } finally {
        await a`rollback`.catch(() => undefined);
        await b`rollback`.catch(() => undefined);
        a.release();
        b.release();
      }
      // Behind the stream, ahead of it, and several events at once (the lock then in a statement of its own).
      for (const [expected, events] of [[1, [planChanged(userId, 'free')]], [5, [planChanged(userId, 'free')]], [1, [planChanged(userId, 'free'), planChanged(userId, 'pro')]]] as const) {
        await assert.rejects(db.sql.begin((tx) => appendToStream(tx, streamId, expected, [...events], {}, { lockStream: true })), ConcurrencyError);
      }
      await db.sql.begin((tx) => appendToStream(tx, streamId, 2, [planChanged(userId, 'free'), planChanged(userId, 'pro')], {}, { lockStream: true }));
      assert.deepEqual((await readStream(db.sql, streamId)).map((e) => e.streamVersion), [1, 2, 3, 4]);
    });

    it('validates every event against its registered schema: an invalid payload is rejected and nothing is written', async () => {
      const userId = newId();
      const streamId = `user-${userId}`;
      const invalid = { type: 'UserRegistered', data: { userId, email: 'x@example.com', isAdmin: 'no', plan: 'enterprise', startingCredits: -1 } };

      // Alone, or after a valid event in the same append: the whole append is refused.
      await assert.rejects(db.sql.begin((tx) => appendToStream(tx, streamId, 0, [invalid])), { name: 'ZodError' });
      await assert.rejects(db.sql.begin((tx) => appendToStream(tx, streamId, 0, [registered(userId), invalid])), { name: 'ZodError' });
      // An event type nobody declared cannot enter the log either.
      await assert.rejects(
        db.sql.begin((tx) => appendToStream(tx, streamId, 0, [{ type: 'UserTeleported', data: {} }])),
        /Unknown event type UserTeleported/,
      );

      assert.deepEqual(await readStream(db.sql, streamId), []);
      const [count] = await db.sql<{ n: number }[]>`select count(*)::int as n from events where stream_id = ${streamId}`;
      assert.equal(count!.n, 0);
    });

    it('strips fields the schema does not know before storing (the stored event is the validated one)', async () => {
      const userId = newId();
      const streamId = `user-${userId}`;
      const event = registered(userId);
      await db.sql.begin((tx) => appendToStream(tx, streamId, 0, [{ type: event.type, data: { ...event.data, password: 'plaintext!' } }]));
      const [stored] = await readStream(db.sql, streamId);
      assert.deepEqual(stored!.data, event.data);
    });
  });

  describe('an append with a precondition', () => {
    class Refused extends Error {}
    // A precondition as commands write them: a select that raises (db/015's require_found) when it does not hold.
    const precondition = (tx: Tx, holds: boolean) => ({
      check: tx`select require_found(${holds}, 'Thing')`,
      refusal: (error: unknown) => ((error as { code?: string }).code === 'SR404' ? new Refused('no thing') : null),
    });
    const versionsOf = async (streamId: string) => (await readStream(db.sql, streamId)).map((e) => e.streamVersion);

    it('appends a new stream’s first event when it holds, and nothing, with the caller’s error, when it does not', async () => {
      const held = newId();
      await db.sql.begin((tx) => appendToStream(tx, `user-${held}`, 0, [registered(held)], {}, { precondition: precondition(tx, true) }));
      assert.deepEqual(await versionsOf(`user-${held}`), [1]);

      const refused = newId();
      await assert.rejects(
        db.sql.begin((tx) => appendToStream(tx, `user-${refused}`, 0, [registered(refused)], {}, { precondition: precondition(tx, false) })),
        Refused,
      );
      assert.deepEqual(await versionsOf(`user-${refused}`), []);
    });

    it('checks it as a statement of its own for any other append, with the same outcome', async () => {
      const userId = newId();
      const streamId = `user-${userId}`;
      await db.sql.begin((tx) => appendToStream(tx, streamId, 0, [registered(userId)]));
      await assert.rejects(
        db.sql.begin((tx) => appendToStream(tx, streamId, 1, [planChanged(userId, 'pro')], {}, { precondition: precondition(tx, false) })),
        Refused,
      );
      await assert.rejects(
        db.sql.begin((tx) => appendToStream(tx, `user-${newId()}`, 0, [registered(userId), planChanged(userId, 'pro')], {}, { precondition: precondition(tx, false) })),
        Refused,
      );
      assert.deepEqual(await versionsOf(streamId), [1]);
      await db.sql.begin((tx) => appendToStream(tx, streamId, 1, [planChanged(userId, 'pro')], {}, { precondition: precondition(tx, true) }));
      assert.deepEqual(await versionsOf(streamId), [1, 2]);
    });
  });

  describe('optimistic concurrency under load', () => {
    const secrets = createSecretBox(randomBytes(32));

    /**
     * Creates a project, then starts `writers` concurrent `updateProject` commands on it, each renaming it to
     * `Name <i>` in its own inTransaction. Returns how each ended and how many attempts each took.
     *
     * A gate makes the first round collide for certain instead of by luck: a transaction holds the projects row
     * locked, so the first writer to insert version 2 stops at its projection update, still holding its
     * uncommitted version 2; every other writer reads version 1, passes the version check (version 2 is not
     * committed) and waits on the unique index behind it. Once all of them wait, the gate opens: the first commits
     * version 2 and all the others fail on the unique constraint with a ConcurrencyError, roll back whole and are
     * retried from a fresh read. After that the writers interleave freely; a loser then sees either the winner's
     * commit in its version check (k+1 ≠ k) or, when both passed the check, the unique constraint.
     */
    async function race(writers: number) {
      const prepared = await prepareRegistration({ email: `owner-${newId()}@example.com`, password: 'correct horse battery', startingCredits: 10 });
      const { projectId } = await inTransaction(db.sql, async (tx) => {
        await registerUser(tx, prepared, { actor: 'test' });
        return createProject(tx, secrets, { userId: prepared.userId, name: 'Original', url: 'https://acme.example', viewport: 'desktop', refreshSchedule: 'manual' }, { actor: 'test' });
      });

      const gate = await db.sql.reserve();
      const attempts = new Array<number>(writers).fill(0);
      let settled: Promise<PromiseSettledResult<unknown>[]>;
      try {
        await gate`begin`;
        await gate`select id from projects where id = ${projectId} for update`;
        settled = Promise.allSettled(
          Array.from({ length: writers }, (_, i) =>
            inTransaction(db.sql, async (tx) => {
              attempts[i]!++;
              return updateProject(tx, projectId, prepared.userId, { name: `Name ${i}` }, { actor: `writer-${i}`, requestId: `req-${i}` });
            }),
          ),
        );
        await waitUntil(async () => {
          const [row] = await db.sql<{ n: number }[]>`
            select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
          return row!.n === writers;
        }, `all ${writers} writers wait at the gate`);
      } finally {
        await gate`rollback`;
        gate.release();
      }
      const results = await settled;
      const events = await readStream(db.sql, `project-${projectId}`);
      const [row] = await db.sql<{ name: string }[]>`select name from projects where id = ${projectId}`;
      return { results, attempts, events, projectName: row!.name };
    }

    it(`lets ${MAX_COMMAND_ATTEMPTS} concurrent updates of one project all succeed, each exactly once, in contiguous versions`, async () => {
      // Why exactly MAX_COMMAND_ATTEMPTS writers: a writer only loses when another writer commits a version after
      // its read, and it re-reads after losing, so each of its losses is a different writer's commit. With N
      // writers nobody needs more than N attempts, so with N = MAX_COMMAND_ATTEMPTS success is guaranteed, not
      // likely. (With 20 writers, 20 > 8, some writers do run out of attempts: see the next story.)
      const writers = MAX_COMMAND_ATTEMPTS;
      const { results, attempts, events, projectName } = await race(writers);

      const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      assert.deepEqual(failures.map((f) => String(f.reason)), [], `attempts per writer: ${attempts.join(',')}`);
      // The gate made everyone but the first collide at least once.
      assert.ok(attempts.filter((n) => n > 1).length >= writers - 1, `writers were retried: ${attempts.join(',')}`);
      assert.ok(Math.max(...attempts) <= writers, 'no writer lost more often than there are other writers');

      assert.deepEqual(events.map((e) => e.streamVersion), Array.from({ length: 1 + writers }, (_, i) => i + 1), 'versions 1..n+1, no gap, no duplicate');
      assert.equal(events[0]!.type, 'ProjectCreated');
      const updates = events.slice(1);
      assert.ok(updates.every((e) => e.type === 'ProjectUpdated'));
      // Each writer's change is in the log exactly once, with its own metadata.
      const names = updates.map((e) => (e.data as { name: string }).name);
      assert.deepEqual([...names].sort(), Array.from({ length: writers }, (_, i) => `Name ${i}`).sort());
      for (const event of updates) {
        assert.equal(event.metadata.actor, `writer-${(event.data as { name: string }).name.replace('Name ', '')}`);
      }
      // The read model shows the last committed change, as the owner listing their projects would see it.
      assert.equal(projectName, names.at(-1));
    });

    it('with more concurrent writers than attempts (20), a writer may give up, but never leaves half an effect', async () => {
      // 20 writers on one stream can exhaust MAX_COMMAND_ATTEMPTS (8): it happened in more than half of the runs
      // while writing this test. What must hold either way: a writer that gave up got a ConcurrencyError and left
      // nothing behind; every writer that succeeded is in the log exactly once; the versions stay contiguous.
      const writers = 20;
      const { results, attempts, events, projectName } = await race(writers);

      const succeeded = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      for (const [i, result] of results.entries()) {
        if (result.status === 'rejected') {
          assert.ok(result.reason instanceof ConcurrencyError, `writer ${i} failed with ${String(result.reason)}`);
          assert.equal(attempts[i], MAX_COMMAND_ATTEMPTS, 'a writer gives up only after its last attempt');
        }
      }
      assert.ok(succeeded.length >= MAX_COMMAND_ATTEMPTS, 'at least as many writers succeed as there are attempts');
      assert.deepEqual(events.map((e) => e.streamVersion), Array.from({ length: 1 + succeeded.length }, (_, i) => i + 1));
      const names = events.slice(1).map((e) => (e.data as { name: string }).name);
      assert.deepEqual([...names].sort(), succeeded.map((i) => `Name ${i}`).sort(), 'exactly the writers that succeeded');
      assert.equal(projectName, names.at(-1));
      console.log(`# ${writers} writers: ${succeeded.length} succeeded, attempts ${attempts.join(',')}`);
    });
  });

  describe('readAll, the global log', () => {
    /** Reads from `after` until readAll returns nothing more. */
    async function drain(after: Checkpoint | null, limit = 1000) {
      const delivered: StoredEvent[] = [];
      let checkpoint = after;
      for (;;) {
        const page = await readAll(db.sql, { after: checkpoint, limit });
        if (page.events.length === 0) return { delivered, checkpoint };
        delivered.push(...page.events);
        checkpoint = page.checkpoint;
      }
    }

    it('pages through every committed event exactly once, whatever the page size', async () => {
      // Write across a power of ten of global_position (999 → 1000), two events per transaction: text order and
      // number order disagree there ('1000' < '999'), which once made pages repeat and skip events. Positions only
      // have to grow, so moving this throwaway database's counter forward is harmless.
      const [top] = await db.sql<{ position: number }[]>`select coalesce(max(global_position), 0)::int as position from events`;
      const boundary = 10 ** String(top!.position + 10).length;
      // The next transaction then writes positions boundary-1 and boundary.
      await db.sql`select setval(pg_get_serial_sequence('events', 'global_position'), ${boundary - 2})`;
      const userIds = Array.from({ length: 7 }, () => newId());
      for (const userId of userIds) {
        await db.sql.begin((tx) => appendToStream(tx, `user-${userId}`, 0, [registered(userId), planChanged(userId, 'pro')]));
      }
      const ours = new Set(userIds.map((id) => `user-${id}`));
      const readOurs = async (limit: number) => (await drain(null, limit)).delivered.filter((e) => ours.has(e.streamId));
      // readAll's horizon is cluster-wide: a transaction of another test file running on the same server may hold
      // it back for a moment. Wait until it has passed our events; from then on they stay readable.
      let whole: StoredEvent[] = [];
      await waitUntil(async () => (whole = await readOurs(10_000)).length === 2 * userIds.length, 'readAll sees every committed event');
      assert.ok(whole.some((e) => Number(e.globalPosition) > boundary), 'the events straddle a power of ten');
      // Within one transaction, events come in position order.
      for (let i = 1; i < whole.length; i++) {
        if (whole[i]!.transactionId === whole[i - 1]!.transactionId) {
          assert.ok(BigInt(whole[i]!.globalPosition) > BigInt(whole[i - 1]!.globalPosition), `position order after ${whole[i - 1]!.globalPosition}`);
        }
      }
      for (const limit of [1, 2, 3]) {
        const paged = await readOurs(limit);
        assert.deepEqual(paged.map((e) => e.globalPosition), whole.map((e) => e.globalPosition), `pages of ${limit}`);
        assert.equal(new Set(paged.map((e) => e.globalPosition)).size, paged.length, 'no event twice');
      }
    });

    it('never skips an event whose transaction commits after a later-positioned one (the late commit)', async () => {
      const [top] = await db.sql<{ position: string }[]>`select coalesce(max(global_position), 0)::text as position from events`;
      // Two readers follow the log from here: the real one (readAll, checkpoint = (transaction id, position)),
      // and a naive one that orders by global_position alone and remembers the highest position it saw.
      let naiveCheckpoint = BigInt(top!.position);
      const naiveRead = async () => {
        const rows = await db.sql<{ position: string }[]>`
          select global_position::text as position from events where global_position > ${naiveCheckpoint.toString()}::bigint
          order by global_position`;
        const positions = rows.map((r) => r.position);
        if (positions.length > 0) naiveCheckpoint = BigInt(positions.at(-1)!);
        return positions;
      };
      const naiveDelivered: string[] = [];
      const start = await drain(null);
      let checkpoint = start.checkpoint;
      const delivered: StoredEvent[] = [];

      const userA = newId();
      const userB = newId();
      const a = await db.sql.reserve();
      const b = await db.sql.reserve();
      try {
        // A inserts first: the lower global position and the older transaction id. It stays open.
        await a`begin`;
        const [eventA] = await appendToStream(a as unknown as Tx, `user-${userA}`, 0, [registered(userA)]);
        // B inserts second and commits first.
        await b`begin`;
        const [eventB] = await appendToStream(b as unknown as Tx, `user-${userB}`, 0, [registered(userB)]);
        await b`commit`;
        assert.ok(BigInt(eventA!.globalPosition) < BigInt(eventB!.globalPosition), 'A holds the lower position');
        assert.ok(BigInt(eventA!.transactionId) < BigInt(eventB!.transactionId), 'A holds the older transaction id');

        // The naive reader sees B (committed) but not A (in flight), and moves its checkpoint past A's position.
        naiveDelivered.push(...(await naiveRead()));
        assert.ok(naiveDelivered.includes(eventB!.globalPosition));
        assert.ok(!naiveDelivered.includes(eventA!.globalPosition));
        assert.ok(naiveCheckpoint >= BigInt(eventB!.globalPosition));

        // readAll sees neither: A is still running, so the oldest transaction in flight (the snapshot's xmin) is
        // at most A's, and B's transaction id is not below it. B waits until nothing older can still appear.
        const [snapshot] = await db.sql<{ xmin: string }[]>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`;
        assert.ok(BigInt(snapshot!.xmin) <= BigInt(eventA!.transactionId), 'A holds back the horizon');
        const whileAInFlight = await drain(checkpoint);
        delivered.push(...whileAInFlight.delivered);
        checkpoint = whileAInFlight.checkpoint;
        assert.ok(!delivered.some((e) => e.globalPosition === eventB!.globalPosition), 'B is not delivered while A is in flight');
        assert.ok(!delivered.some((e) => e.globalPosition === eventA!.globalPosition));

        await a`commit`;

        // The naive reader never comes back for A: its checkpoint is already past A's position. Event lost.
        naiveDelivered.push(...(await naiveRead()));
        assert.ok(!naiveDelivered.includes(eventA!.globalPosition), 'ordering by global_position alone skips A for ever');

        // readAll, from its checkpoint, now delivers A then B (transaction order). The horizon is cluster-wide, so
        // an unrelated transaction elsewhere may hold it back a moment longer: poll, bounded.
        const deadline = Date.now() + 10_000;
        const wanted = [eventA!.globalPosition, eventB!.globalPosition];
        while (!wanted.every((p) => delivered.some((e) => e.globalPosition === p))) {
          assert.ok(Date.now() < deadline, 'readAll delivers A and B once A has committed');
          await new Promise((resolve) => setTimeout(resolve, 50));
          const page = await drain(checkpoint);
          delivered.push(...page.delivered);
          checkpoint = page.checkpoint;
        }
        const ours = delivered.filter((e) => e.streamId === `user-${userA}` || e.streamId === `user-${userB}`);
        assert.deepEqual(ours.map((e) => e.globalPosition), wanted, 'A and B, each exactly once, A first');

        // Reading on from the final checkpoint delivers nothing again.
        const again = await drain(checkpoint);
        assert.ok(!again.delivered.some((e) => wanted.includes(e.globalPosition)));
        assert.equal(new Set(delivered.map((e) => e.globalPosition)).size, delivered.length, 'nothing delivered twice');
      } finally {
        await a`rollback`.catch(() => undefined);
        await b`rollback`.catch(() => undefined);
        a.release();
        b.release();
      }
    });
  });
});
