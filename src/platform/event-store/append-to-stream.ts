import { ConcurrencyError } from '../errors.js';
import type { Tx } from '../database.js';
import { validateEvent } from './event-registry.js';
import { type EventMetadata, type EventRow, type NewEvent, type StoredEvent, toStoredEvent } from './types.js';

const UNIQUE_VIOLATION = '23505';

/**
 * Appends events to a stream that must be at `expectedVersion` (0 for a new stream). Runs inside the caller's
 * transaction so read models, jobs and notifications commit with the events.
 *
 * Two writers that read the same version both pass the first check; the unique (stream_id, stream_version)
 * constraint then rejects the second insert, and that too surfaces as a ConcurrencyError.
 */
export async function appendToStream(
  tx: Tx,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  metadata: EventMetadata = {},
): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const [current] = await tx<{ version: number }[]>`
    select coalesce(max(stream_version), 0)::int as version from events where stream_id = ${streamId}`;
  if ((current?.version ?? 0) !== expectedVersion) {
    throw new ConcurrencyError(streamId, expectedVersion, current?.version ?? 0);
  }
  const rows = events.map((event, index) => {
    const valid = validateEvent(event);
    return {
      stream_id: streamId,
      stream_version: expectedVersion + index + 1,
      type: valid.type,
      data: tx.json(valid.data as never),
      metadata: tx.json(metadata as never),
    };
  });
  try {
    const inserted = await tx<EventRow[]>`
      insert into events ${tx(rows as never)}
      returning global_position::text, stream_id, stream_version, type, data, metadata, transaction_id::text, created_at`;
    return inserted.map(toStoredEvent);
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION && String((error as Error).message).includes('events_stream_version_unique')) {
      throw new ConcurrencyError(streamId, expectedVersion, null);
    }
    throw error;
  }
}
