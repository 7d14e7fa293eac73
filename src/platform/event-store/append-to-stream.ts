import type { PendingQuery, Row } from 'postgres';
import { ConcurrencyError } from '../errors.js';
import type { Tx } from '../database.js';
import { settleInOrder } from '../transaction.js';
import { lockStream } from './lock-stream.js';
import { validateEvent } from './event-registry.js';
import type { EventMetadata, NewEvent, RecordedEvent, StoredEvent } from './types.js';

const UNIQUE_VIOLATION = '23505';
/** The version of an append to a stream not at its expected version (see sendInsert). */
const NOT_NULL_VIOLATION = '23502';

export interface SentAppend {
  /** The events as they will be stored: everything but what only the insert knows (position, transaction id). */
  events: RecordedEvent[];
  /** Settles when the insert has run: the stored events, or a ConcurrencyError when the stream moved. */
  inserted: Promise<StoredEvent[]>;
}

/**
 * Sends the append of `events` to a stream that must be at `expectedVersion` (0 for a new stream), without waiting
 * for it: statements sent after it in the same tick (projections, jobs, COMMIT) travel in the same round trip, and
 * PostgreSQL runs them in order, after it. Runs inside the caller's transaction so read models, jobs and
 * notifications commit with the events.
 *
 * One statement. For an existing stream the version check is part of it and fails the statement (not "inserts
 * nothing"), so whatever was pipelined behind it cannot commit without it: a stream that moved aborts the
 * transaction. Two writers that read the same version both pass that check (each sees the other's uncommitted
 * insert as absent); the unique (stream_id, stream_version) constraint then rejects the second insert. For a new
 * stream that constraint alone suffices (see below). All of these surface as a ConcurrencyError.
 *
 * `created_at` is set here, not by the database's `now()`, so that the projections sent beside the insert write
 * the very timestamp the log stores and a rebuild writes again (rebuild == live).
 */
export function sendAppend(
  tx: Tx,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  metadata: EventMetadata = {},
  options: AppendOptions = {},
): SentAppend {
  const createdAt = new Date();
  const valid = events.map(validateEvent);
  const recorded = valid.map((event, i): RecordedEvent => ({
    type: event.type,
    data: event.data,
    streamId,
    streamVersion: expectedVersion + i + 1,
    metadata,
    createdAt,
  }));
  const precondition = options.precondition;
  if (valid.length === 0) {
    // Nothing to append, but the caller's precondition still holds or fails the command.
    const checked = precondition ? precondition.check.execute().then(() => [], (error: unknown) => { throw precondition.refusal(error) ?? error; }) : Promise.resolve([]);
    return { events: [], inserted: checked };
  }
  const insert = precondition && valid.length === 1 && expectedVersion === 0 && !options.lockStream
    ? sendCheckedFirstInsert(tx, streamId, valid[0]!, metadata, createdAt, precondition.check)
    : precondition
      ? settleInOrder([precondition.check.execute(), sendUnchecked(tx, streamId, expectedVersion, valid, metadata, createdAt, options)] as const).then(([, rows]) => rows)
      : sendUnchecked(tx, streamId, expectedVersion, valid, metadata, createdAt, options);
  const inserted = insert.then(
    (rows) =>
      // Rows come back in insertion order, which is the order of `e.n`; positions grow with it.
      recorded.map((event, i) => ({ ...event, globalPosition: rows[i]!.global_position, transactionId: rows[i]!.transaction_id })),
    (error: unknown) => {
      throw asConcurrencyError(error, streamId, expectedVersion) ?? precondition?.refusal(error) ?? error;
    },
  );
  return { events: recorded, inserted };
}

function sendUnchecked(tx: Tx, streamId: string, expectedVersion: number, valid: NewEvent[], metadata: EventMetadata, createdAt: Date, options: AppendOptions) {
  return options.lockStream && valid.length === 1 && expectedVersion > 0
    ? sendLockedInsert(tx, streamId, expectedVersion, valid[0]!, metadata, createdAt)
    : options.lockStream
      ? settleInOrder([lockStream(tx, streamId), sendInsert(tx, streamId, expectedVersion, valid, metadata, createdAt)] as const).then(([, rows]) => rows)
      : sendInsert(tx, streamId, expectedVersion, valid, metadata, createdAt);
}

/**
 * A new stream's first event, inserted from the precondition's one row: when the check raises, the insert fails
 * with its error. (The check's function is volatile, so PostgreSQL runs it; its row holds nothing the insert uses.)
 */
function sendCheckedFirstInsert(tx: Tx, streamId: string, event: NewEvent, metadata: EventMetadata, createdAt: Date, check: PendingQuery<Row[]>) {
  return tx<InsertedRow[]>`
    insert into events (stream_id, stream_version, type, data, metadata, created_at)
    select ${streamId}, 1, ${event.type}, ${tx.json(event.data as never)}, ${tx.json(metadata as never)}, ${createdAt}::timestamptz
    from (${check}) as precondition
    returning global_position::text, transaction_id::text`;
}

export interface AppendOptions {
  /**
   * Take the stream's lock (see lockStream) for the rest of the transaction, in the append's own statement when it
   * is one event to an existing stream: a statement less. Its version check does not rely on the lock (the lock
   * may be granted after the statement's snapshot was taken), so a stream that moved meanwhile still fails it.
   */
  lockStream?: boolean;
  /**
   * A precondition that fails in the database (see Precondition), checked in the append's own statement when the
   * append is one event to a new stream (a new demo's first event): a statement less. Any other append sends it
   * as a statement of its own, just before. Either way its failure is what `inserted` rejects with.
   */
  precondition?: Precondition;
}

/**
 * A check a command sends with its writes, which fails in the database rather than returning no row (db/015's
 * require_found, e.g. "the project is visible to the caller"): with COMMIT in the same round trip as the writes,
 * nothing can look at a row before COMMIT runs, but a failed statement aborts the transaction.
 */
export interface Precondition {
  /** A select of one row that raises when the precondition does not hold; a fragment, sent inside the append. */
  check: PendingQuery<Row[]>;
  /** The caller's error for the check's failure (e.g. a NotFoundError), or null for any other error. */
  refusal(error: unknown): Error | null;
}

type InsertedRow = { global_position: string; transaction_id: string };

/** One event to an existing stream, taking the stream's lock first in the same statement (see AppendOptions). */
function sendLockedInsert(tx: Tx, streamId: string, expectedVersion: number, event: NewEvent, metadata: EventMetadata, createdAt: Date) {
  return tx<InsertedRow[]>`
    insert into events (stream_id, stream_version, type, data, metadata, created_at)
    select ${streamId}, (select stream_version + 1 from events where stream_id = ${streamId} and stream_version = ${expectedVersion}::int),
           ${event.type}, ${tx.json(event.data as never)}, ${tx.json(metadata as never)}, ${createdAt}::timestamptz
    from (select pg_advisory_xact_lock(hashtextextended(${streamId}, 0))) as locked
    returning global_position::text, transaction_id::text`;
}

/**
 * The insert of `events`, at versions `expectedVersion + 1`, … Whole statements, not one assembled from fragments:
 * postgres.js assembles a statement's fragments anew at every call, about 6 µs of the API's CPU per fragment
 * (scratch measurement, 32 writers), a good part of what such a statement costs PostgreSQL.
 *
 * An existing stream's version is checked in the same statement, and a stream that moved fails it (not "inserts
 * nothing"), so whatever was pipelined behind it cannot commit without it. The new version is read from the row of
 * the expected one: `(select stream_version + 1 … where stream_version = expected)`, an uncorrelated subquery run
 * once. Versions are contiguous from 1, so the stream is at the expected version exactly when that row exists and
 * the next one does not: no row makes the version null and its NOT NULL fails the statement (a stream behind what
 * the writer believes), and a next row that exists is refused by the unique constraint (a stream that moved on).
 * One index read in the statement itself; with the PL/pgSQL check it replaces (db/013), a charge's append took
 * 87–116 µs of PostgreSQL's execution, without it 42 µs (pg_stat_statements, bench:api). A new stream (expected
 * version 0) needs no read: should it exist after all, its version 1 does, and the unique constraint refuses the
 * insert.
 */
function sendInsert(tx: Tx, streamId: string, expectedVersion: number, valid: NewEvent[], metadata: EventMetadata, createdAt: Date) {
  const meta = tx.json(metadata as never);
  if (valid.length === 1) {
    // One event (nearly every command): its row as it is, without unpacking an array of events (about 8 µs of
    // PostgreSQL's CPU per append, scratch measurement).
    const [event] = valid as [NewEvent];
    const data = tx.json(event.data as never);
    return expectedVersion === 0
      ? tx<InsertedRow[]>`
          insert into events (stream_id, stream_version, type, data, metadata, created_at)
          values (${streamId}, 1, ${event.type}, ${data}, ${meta}, ${createdAt})
          returning global_position::text, transaction_id::text`
      : tx<InsertedRow[]>`
          insert into events (stream_id, stream_version, type, data, metadata, created_at)
          values (${streamId}, (select stream_version + 1 from events where stream_id = ${streamId} and stream_version = ${expectedVersion}::int),
                  ${event.type}, ${data}, ${meta}, ${createdAt})
          returning global_position::text, transaction_id::text`;
  }
  // `with ordinality` numbers the events 1, 2, … in the order given: their versions, and the order in which their
  // global positions are drawn.
  const all = tx.json(valid as never);
  return expectedVersion === 0
    ? tx<InsertedRow[]>`
        insert into events (stream_id, stream_version, type, data, metadata, created_at)
        select ${streamId}, e.n::int, e.event->>'type', e.event->'data', ${meta}, ${createdAt}
        from jsonb_array_elements(${all}::jsonb) with ordinality as e(event, n)
        order by e.n
        returning global_position::text, transaction_id::text`
    : tx<InsertedRow[]>`
        insert into events (stream_id, stream_version, type, data, metadata, created_at)
        select ${streamId}, (select stream_version from events where stream_id = ${streamId} and stream_version = ${expectedVersion}::int) + e.n::int,
               e.event->>'type', e.event->'data', ${meta}, ${createdAt}
        from jsonb_array_elements(${all}::jsonb) with ordinality as e(event, n)
        order by e.n
        returning global_position::text, transaction_id::text`;
}

/** Appends and waits for the insert: the stored events, or a ConcurrencyError when the stream moved. */
export async function appendToStream(
  tx: Tx,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  metadata: EventMetadata = {},
  options: AppendOptions = {},
): Promise<StoredEvent[]> {
  return sendAppend(tx, streamId, expectedVersion, events, metadata, options).inserted;
}

function asConcurrencyError(error: unknown, streamId: string, expectedVersion: number): ConcurrencyError | null {
  const { code, message, table_name: table, column_name: column } = error as { code?: string; message?: string; table_name?: string; column_name?: string };
  if (code === NOT_NULL_VIOLATION && table === 'events' && column === 'stream_version') return new ConcurrencyError(streamId, expectedVersion, null);
  if (code === UNIQUE_VIOLATION && String(message).includes('events_stream_version_unique')) {
    return new ConcurrencyError(streamId, expectedVersion, null);
  }
  return null;
}
