import type { Queryable } from '../platform/database.js';
import type { Logger } from '../platform/logger.js';
import type { BeaconRow } from './beacon.js';

export interface BeaconBuffer {
  /** Queues a beacon; it is written within `flushMs`. */
  add(row: BeaconRow): void;
  /** Writes what is queued now (tests, shutdown). */
  flush(): Promise<void>;
  /** Writes what is left and stops the timer. */
  close(): Promise<void>;
  /** Beacons queued and not yet written. */
  readonly pending: number;
}

export interface BeaconBufferOptions {
  sql: Queryable;
  logger: Logger;
  /**
   * The longest a beacon waits before it is written (default 250 ms, four flushes a second at most whatever the rate):
   * a flush of a whole second's beacons at 5,000/s built one 5,000-row statement on the event loop, and the beacons
   * answered while it was built made the p99 (bench:api beacons_5k: 14.9 ms at 1 s, 4.4 ms at 250 ms).
   */
  flushMs?: number;
  /** A flush writes at most this many rows in one statement (the rest go in the next statement of the same flush). */
  maxBatch?: number;
  /** Beyond this many queued (the database away for long), the oldest are dropped and the loss is logged. */
  maxPending?: number;
}

/**
 * Beacons are many and each is worth little, so none waits on the database: the request queues its row here and is
 * answered at once, and the queue is written within a quarter of a second as one multi-row insert (arrays unnested into
 * rows: one statement, one round trip, whatever the batch size). The insert keeps only beacons of live demos and
 * drops repeats (the unique index on view, kind and value: a replayed beacon adds nothing). A failed write keeps
 * its rows for the next flush; the queue is bounded so that a long outage costs beacons, not the process's memory.
 */
export function createBeaconBuffer(options: BeaconBufferOptions): BeaconBuffer {
  const { sql, logger } = options;
  const flushMs = options.flushMs ?? 250;
  const maxBatch = options.maxBatch ?? 5000;
  const maxPending = options.maxPending ?? 200_000;
  let queue: BeaconRow[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const schedule = () => {
    if (timer === null && !closed) {
      timer = setTimeout(() => {
        timer = null;
        void flush();
      }, flushMs);
      timer.unref();
    }
  };

  // One flush at a time, in order: a flush asked for while one runs waits for it, then writes what came since.
  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        try {
          await insertBeacons(sql, batch);
          queue = queue.slice(batch.length);
        } catch (error) {
          logger.error({ err: error, pending: queue.length }, 'beacons could not be written; they are retried with the next flush');
          schedule();
          return;
        }
      }
    });
    return writing;
  };

  return {
    add(row) {
      if (closed) return;
      queue.push(row);
      if (queue.length > maxPending) {
        const dropped = queue.length - maxPending;
        queue = queue.slice(dropped);
        logger.warn({ dropped }, 'beacon queue full: the oldest beacons were dropped');
      }
      schedule();
    },
    flush,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
    },
    get pending() {
      return queue.length;
    },
  };
}

/**
 * One statement for the whole batch; beacons of unknown or deleted demos, of chapters the demo does not have, and
 * repeats, are not stored.
 */
export async function insertBeacons(sql: Queryable, rows: BeaconRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const column = <T>(pick: (row: BeaconRow) => T) => rows.map(pick);
  const result = await sql`
    insert into view_beacons (received_at, demo_id, view_id, kind, value, label, viewer_hash, host, surface)
    select b.* from unnest(
      ${column((r) => r.receivedAt.toISOString())}::timestamptz[], ${column((r) => r.demoId)}::text[], ${column((r) => r.viewId)}::text[],
      ${column((r) => r.kind)}::text[], ${column((r) => r.value)}::int[], ${column((r) => r.label)}::text[],
      ${column((r) => r.viewerHash)}::text[], ${column((r) => r.host)}::text[], ${column((r) => r.surface)}::text[]
    ) as b(received_at, demo_id, view_id, kind, value, label, viewer_hash, host, surface)
    where exists (
      select 1 from demos d where d.id = b.demo_id and d.deleted_at is null
        -- a chapter beacon names one of the demo's own chapters, or it is not ours to count
        and (b.kind <> 'chapter' or b.value < coalesce(jsonb_array_length((d.story::jsonb) -> 'chapters'), 0))
    )
    on conflict (view_id, kind, value) do nothing`;
  return result.count;
}
