import type { Tx } from './database.js';
import { type EventRow, type RecordedEvent, toStoredEvent } from './event-store/types.js';

/**
 * Terminology
 * - projection: turns events into rows of read-model tables. Inline: it runs in the transaction of the append,
 *   so a command's response can read its own writes.
 * - rebuild (replay): empty every read model and apply the whole log again, in log (global position) order.
 */
export interface Projection {
  name: string;
  /** The tables this projection owns; a rebuild empties them first. */
  tables: string[];
  /**
   * Sends every statement for `event` before awaiting anything (one statement, or `Promise.all` of several that
   * do not need each other's results): the runner sends the statements of all of a command's events together,
   * and PostgreSQL runs them in the order they were sent, so a later event's rows still come after an earlier's.
   */
  apply(tx: Tx, event: RecordedEvent): Promise<void>;
}

const projections: Projection[] = [];

export function registerProjection(projection: Projection): void {
  if (projections.some((p) => p.name === projection.name)) return;
  projections.push(projection);
}

export function readModelTables(): string[] {
  return projections.flatMap((p) => p.tables);
}

/**
 * Applies every projection to `events`, in log order, as one pipeline: each apply sends its statements at once
 * (see Projection.apply), so a command's read-model writes cost one round trip, not one per event and table.
 */
export async function applyProjections(tx: Tx, events: RecordedEvent[]): Promise<void> {
  const applied: Promise<void>[] = [];
  // Projection by projection: each owns its tables, so only the order of its own statements matters.
  for (const projection of projections) {
    for (const event of events) applied.push(projection.apply(tx, event));
  }
  await Promise.all(applied);
}

/**
 * Drops every read model's rows and rebuilds them from the events, in one transaction: readers see the old
 * state or the new one, never half. Writers wait on the lock for the duration, so no event lands in between.
 */
export async function rebuildReadModels(tx: Tx): Promise<{ events: number; tables: string[] }> {
  await tx`lock table events in exclusive mode`;
  const tables = readModelTables();
  if (tables.length > 0) await tx.unsafe(`truncate ${tables.map((t) => `"${t}"`).join(', ')}`);
  let after = '0';
  let count = 0;
  // The lock means no writer of events is in flight: every row visible now is final, so read them all. Not through
  // readAll: its horizon is the oldest transaction running anywhere on the server, even one that never touches
  // events, and everything written after that one began would be silently left out of the rebuild.
  // In global_position order: version n+1 of a stream is inserted only after version n committed, so this order
  // keeps every stream in version order; transaction id order does not when a transaction got its id (by an
  // earlier write) before it read the stream it appends to.
  for (;;) {
    const rows = await tx<EventRow[]>`
      select global_position::text, stream_id, stream_version, type, data, metadata, transaction_id::text, created_at
      from events where global_position > ${after}::bigint
      order by events.global_position
      limit 5000`;
    if (rows.length === 0) break;
    const events = rows.map(toStoredEvent);
    await applyProjections(tx, events);
    count += events.length;
    after = events.at(-1)!.globalPosition;
  }
  return { events: count, tables };
}
