import type { Tx } from './database.js';
import { readAll } from './event-store/read-all.js';
import type { Checkpoint, StoredEvent } from './event-store/types.js';

/**
 * Terminology
 * - projection: turns events into rows of read-model tables. Inline: it runs in the transaction of the append,
 *   so a command's response can read its own writes.
 * - rebuild (replay): empty every read model and apply the whole log again, in commit order.
 */
export interface Projection {
  name: string;
  /** The tables this projection owns; a rebuild empties them first. */
  tables: string[];
  apply(tx: Tx, event: StoredEvent): Promise<void>;
}

const projections: Projection[] = [];

export function registerProjection(projection: Projection): void {
  if (projections.some((p) => p.name === projection.name)) return;
  projections.push(projection);
}

export function readModelTables(): string[] {
  return projections.flatMap((p) => p.tables);
}

export async function applyProjections(tx: Tx, events: StoredEvent[]): Promise<void> {
  for (const event of events) {
    for (const projection of projections) await projection.apply(tx, event);
  }
}

/**
 * Drops every read model's rows and rebuilds them from the events, in one transaction: readers see the old
 * state or the new one, never half. Writers wait on the lock for the duration, so no event lands in between.
 */
export async function rebuildReadModels(tx: Tx): Promise<{ events: number; tables: string[] }> {
  await tx`lock table events in exclusive mode`;
  const tables = readModelTables();
  if (tables.length > 0) await tx.unsafe(`truncate ${tables.map((t) => `"${t}"`).join(', ')}`);
  let after: Checkpoint | null = null;
  let count = 0;
  // The lock means no transaction is in flight on events, so readAll sees everything committed.
  for (;;) {
    const page: { events: StoredEvent[]; checkpoint: Checkpoint | null } = await readAll(tx, { after, limit: 5000 });
    if (page.events.length === 0) break;
    await applyProjections(tx, page.events);
    count += page.events.length;
    after = page.checkpoint;
  }
  return { events: count, tables };
}
