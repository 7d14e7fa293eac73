import type { Queryable } from '../database.js';
import { type Checkpoint, type EventRow, type StoredEvent, toStoredEvent } from './types.js';

/**
 * Reads the global log after a checkpoint without ever skipping an event.
 *
 * Global positions are handed out at insert time, not at commit: a transaction holding position 10 may commit
 * after one holding 11. A reader that saw 11 and checkpointed would skip 10 forever. So we read only events of
 * transactions older than the oldest one still in flight (`pg_snapshot_xmin`) — those can no longer change — and
 * order by (transaction_id, global_position), which is the order a late commit can never insert before.
 */
export async function readAll(
  sql: Queryable,
  options: { after?: Checkpoint | null; limit?: number } = {},
): Promise<{ events: StoredEvent[]; checkpoint: Checkpoint | null }> {
  const limit = Math.max(1, Math.min(options.limit ?? 1000, 10_000));
  const after = options.after ?? null;
  const rows = await sql<EventRow[]>`
    select global_position::text, stream_id, stream_version, type, data, metadata, transaction_id::text, created_at
    from events
    where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      ${after === null ? sql`` : sql`and (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)`}
    -- Qualified on purpose: a bare name in ORDER BY means the output column, here the ::text casts above, and
    -- text order ('100' < '99') disagrees with the (xid8, bigint) comparison of the checkpoint.
    order by events.transaction_id, events.global_position
    limit ${limit}`;
  const events = rows.map(toStoredEvent);
  const last = events.at(-1);
  return {
    events,
    checkpoint: last ? { transactionId: last.transactionId, globalPosition: last.globalPosition } : after,
  };
}
