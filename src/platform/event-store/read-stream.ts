import type { Queryable } from '../database.js';
import { type EventRow, type StoredEvent, toStoredEvent } from './types.js';

/** All events of one stream, in stream order. */
export async function readStream(sql: Queryable, streamId: string): Promise<StoredEvent[]> {
  const rows = await sql<EventRow[]>`
    select global_position::text, stream_id, stream_version, type, data, metadata, transaction_id::text, created_at
    from events where stream_id = ${streamId} order by stream_version`;
  return rows.map(toStoredEvent);
}
