import { ConcurrencyError } from '../errors.js';
import type { Tx } from '../database.js';
import { validateEvent } from './event-registry.js';
import { type EventMetadata, type EventRow, type NewEvent, type StoredEvent, toStoredEvent } from './types.js';

const UNIQUE_VIOLATION = '23505';

/**
 * Appends events to a stream that must be at `expectedVersion` (0 for a new stream). Runs inside the caller's
 * transaction so read models, jobs and notifications commit with the events.
 *
 * One statement, one round trip: the insert selects its rows only when the stream's current version is the
 * expected one, so a stream that moved inserts nothing and that is a ConcurrencyError. Two writers that read the
 * same version both pass that check (each sees the other's uncommitted insert as absent); the unique
 * (stream_id, stream_version) constraint then rejects the second insert, and that too surfaces as a
 * ConcurrencyError.
 */
export async function appendToStream(
  tx: Tx,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  metadata: EventMetadata = {},
): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const valid = events.map((event) => {
    const checked = validateEvent(event);
    return { type: checked.type, data: checked.data };
  });
  let inserted: EventRow[];
  try {
    // `with ordinality` numbers the events 1, 2, … in the order given: their versions, and the order in which
    // their global positions are drawn.
    inserted = await tx<EventRow[]>`
      insert into events (stream_id, stream_version, type, data, metadata)
      select ${streamId}, ${expectedVersion}::int + e.n::int, e.event->>'type', e.event->'data', ${tx.json(metadata as never)}
      from jsonb_array_elements(${tx.json(valid as never)}::jsonb) with ordinality as e(event, n)
      where coalesce((select max(stream_version) from events where stream_id = ${streamId}), 0) = ${expectedVersion}::int
      order by e.n
      returning global_position::text, stream_id, stream_version, type, data, metadata, transaction_id::text, created_at`;
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION && String((error as Error).message).includes('events_stream_version_unique')) {
      throw new ConcurrencyError(streamId, expectedVersion, null);
    }
    throw error;
  }
  if (inserted.length === 0) {
    // Only on a conflict: what the stream is at, for the error message.
    const [current] = await tx<{ version: number }[]>`
      select coalesce(max(stream_version), 0)::int as version from events where stream_id = ${streamId}`;
    throw new ConcurrencyError(streamId, expectedVersion, current?.version ?? 0);
  }
  return inserted.sort((a, b) => a.stream_version - b.stream_version).map(toStoredEvent);
}
