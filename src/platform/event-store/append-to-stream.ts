import { ConcurrencyError } from '../errors.js';
import type { Tx } from '../database.js';
import { validateEvent } from './event-registry.js';
import type { EventMetadata, NewEvent, RecordedEvent, StoredEvent } from './types.js';

const UNIQUE_VIOLATION = '23505';
/** Raised by events_check_version (db/013) when the stream is not at the expected version; DETAIL is its version. */
const VERSION_MISMATCH = 'SR409';

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
export function sendAppend(tx: Tx, streamId: string, expectedVersion: number, events: NewEvent[], metadata: EventMetadata = {}): SentAppend {
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
  if (valid.length === 0) return { events: [], inserted: Promise.resolve([]) };
  const inserted = sendInsert(tx, streamId, expectedVersion, valid, metadata, createdAt).then(
    (rows) =>
      // Rows come back in insertion order, which is the order of `e.n`; positions grow with it.
      recorded.map((event, i) => ({ ...event, globalPosition: rows[i]!.global_position, transactionId: rows[i]!.transaction_id })),
    (error: unknown) => {
      throw asConcurrencyError(error, streamId, expectedVersion) ?? error;
    },
  );
  return { events: recorded, inserted };
}

type InsertedRow = { global_position: string; transaction_id: string };

/**
 * The insert of `events`, at versions `expectedVersion + 1`, … Whole statements, not one assembled from fragments:
 * postgres.js assembles a statement's fragments anew at every call, about 6 µs of the API's CPU per fragment
 * (scratch measurement, 32 writers), a good part of what such a statement costs PostgreSQL.
 *
 * The check of an existing stream's version is a scalar subquery: evaluated once, before the first row. A new stream
 * (expected version 0) needs none: should it exist after all, its version 1 does, and the unique constraint refuses
 * the insert (a ConcurrencyError as well). The check's function call and index read took about 20 µs of execution
 * per append (pg_stat_statements), paid by every new demo, project and key.
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
          select ${streamId}, ${expectedVersion + 1}::int, ${event.type}::text, ${data}::jsonb, ${meta}::jsonb, ${createdAt}::timestamptz
          where (select events_check_version(${streamId}, ${expectedVersion}::int))
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
        select ${streamId}, ${expectedVersion}::int + e.n::int, e.event->>'type', e.event->'data', ${meta}, ${createdAt}
        from jsonb_array_elements(${all}::jsonb) with ordinality as e(event, n)
        where (select events_check_version(${streamId}, ${expectedVersion}::int))
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
): Promise<StoredEvent[]> {
  return sendAppend(tx, streamId, expectedVersion, events, metadata).inserted;
}

function asConcurrencyError(error: unknown, streamId: string, expectedVersion: number): ConcurrencyError | null {
  const { code, detail, message } = error as { code?: string; detail?: string; message?: string };
  if (code === VERSION_MISMATCH) return new ConcurrencyError(streamId, expectedVersion, Number(detail));
  if (code === UNIQUE_VIOLATION && String(message).includes('events_stream_version_unique')) {
    return new ConcurrencyError(streamId, expectedVersion, null);
  }
  return null;
}
