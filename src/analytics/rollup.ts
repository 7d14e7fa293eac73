import type { Sql } from '../platform/database.js';
import { aggregateHours, LATE_BEACON_HOURS } from './aggregate.js';
import { deleteOldSalts } from './viewer-hash.js';

export const ANALYTICS_ROLLUP_TASK = 'analytics_rollup';
export const ANALYTICS_RETENTION_TASK = 'analytics_retention';

/** Hourly, a few minutes past the hour (graphile-worker crontab, UTC). */
export const ANALYTICS_CRONTAB = [`5 * * * * ${ANALYTICS_ROLLUP_TASK}`, `7 * * * * ${ANALYTICS_RETENTION_TASK}`];

const HOUR_MS = 3_600_000;

export function startOfHour(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/**
 * Replaces the rollup rows of the hours in [from, to) with what the raw rows say now, in one transaction: the
 * endpoint sees the old rows or the new ones, never a gap. Idempotent, so a retried or doubled job is harmless.
 */
export async function rollupHours(sql: Sql, from: Date, to: Date): Promise<number> {
  return sql.begin(async (tx) => {
    const rows = await aggregateHours(tx, from, to);
    await tx`delete from view_rollups_hourly where hour >= ${from} and hour < ${to}`;
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000).map((row) => ({ ...row, chapters: tx.json(row.chapters), hosts: tx.json(row.hosts) }));
      await tx`insert into view_rollups_hourly ${tx(chunk, 'demo_id', 'hour', 'views', 'unique_viewers', 'plays', 'watched_seconds', 'completions', 'reached', 'chapters', 'hosts')}`;
    }
    return rows.length;
  }) as Promise<number>;
}

/**
 * The hourly job: rolls up every finished hour since the last run, re-reading the LATE_BEACON_HOURS before it (a
 * view's late beacons), and moves the watermark to the start of the current hour. The first run starts at the
 * oldest raw row.
 */
export async function runHourlyRollup(sql: Sql, now: Date = new Date()): Promise<{ from: Date; to: Date; rows: number }> {
  const to = startOfHour(now);
  const [state] = await sql<{ rolled_up_until: Date }[]>`select rolled_up_until from analytics_rollup_state`;
  let from: Date;
  if (state) from = new Date(state.rolled_up_until.getTime() - LATE_BEACON_HOURS * HOUR_MS);
  else {
    const [oldest] = await sql<{ at: Date | null }[]>`select min(received_at) as at from view_beacons`;
    from = oldest?.at ? startOfHour(oldest.at) : to;
  }
  if (from > to) from = to;
  const rows = from < to ? await rollupHours(sql, from, to) : 0;
  await sql`
    insert into analytics_rollup_state (id, rolled_up_until) values (true, ${to})
    on conflict (id) do update set rolled_up_until = greatest(analytics_rollup_state.rolled_up_until, excluded.rolled_up_until)`;
  return { from, to, rows };
}

/** Every rollup row made again from the raw rows still kept (an operator's repair; the rebuild test). */
export async function rebuildRollups(sql: Sql, now: Date = new Date()): Promise<number> {
  const to = startOfHour(now);
  const [oldest] = await sql<{ at: Date | null }[]>`select min(received_at) as at from view_beacons`;
  if (!oldest?.at) return 0;
  return rollupHours(sql, startOfHour(oldest.at), to);
}

/**
 * The retention job: raw beacons older than the retention are deleted (the hourly rollups made from them stay),
 * and so are the salts of days that are over. Returns what went.
 */
export async function applyRetention(sql: Sql, retentionDays: number, now: Date = new Date()): Promise<{ beacons: number; salts: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * HOUR_MS);
  const deleted = await sql`delete from view_beacons where received_at < ${cutoff}`;
  const salts = await deleteOldSalts(sql, now);
  return { beacons: deleted.count, salts };
}
