import type { Queryable } from '../platform/database.js';

/** One demo's views that began in one UTC hour, with everything they did: a row of view_rollups_hourly. */
export interface HourlyAggregate {
  demo_id: string;
  hour: Date;
  views: number;
  unique_viewers: number;
  plays: number;
  watched_seconds: string | number;
  completions: number;
  /** views whose furthest progress reached 10 %, 20 % … 100 % */
  reached: number[];
  chapters: Record<string, { title: string | null; views: number }>;
  hosts: Record<string, number>;
}

/**
 * A view's beacons count when they arrive within this long after its load: what the hourly rollup re-reads
 * behind its watermark, so that a view's late beacons (its seconds watched, sent when the visitor leaves) are in.
 */
export const LATE_BEACON_HOURS = 2;

/**
 * Aggregates the views whose load beacon arrived in [from, to), per demo and UTC hour, straight from the raw rows:
 * what the hourly rollup stores, and what the analytics endpoint reads for the hours not rolled up yet. A view is
 * one page load (its `load` beacon); it counts in the hour of that beacon, with its play, furthest progress,
 * chapters and seconds watched (beacons within LATE_BEACON_HOURS of the load). A unique viewer counts in the hour
 * of their first view of that demo that UTC day: the hash changes every day, so hours add up to the day's
 * unique viewers, and days to a sum of daily uniques (as Plausible counts them).
 */
export async function aggregateHours(sql: Queryable, from: Date, to: Date, demoId: string | null = null): Promise<HourlyAggregate[]> {
  const late = `${LATE_BEACON_HOURS} hours`;
  const forDemo = (alias: string) => (demoId === null ? sql`` : sql`and ${sql(alias)}.demo_id = ${demoId}`);
  return sql<HourlyAggregate[]>`
    with loads as (
      select l.demo_id, l.view_id, l.received_at as started_at, l.host,
             row_number() over (partition by l.demo_id, l.viewer_hash, date_trunc('day', l.received_at, 'UTC') order by l.received_at, l.view_id) = 1 as first_of_day
      from view_beacons l
      where l.kind = 'load' and l.received_at >= date_trunc('day', ${from}::timestamptz, 'UTC') and l.received_at < ${to} ${forDemo('l')}
    ), views as (
      select l.demo_id, l.view_id, date_trunc('hour', l.started_at, 'UTC') as hour, l.host, l.first_of_day,
             coalesce(bool_or(b.kind = 'play'), false) as played,
             coalesce(max(b.value) filter (where b.kind = 'watched'), 0) as watched,
             coalesce(max(b.value) filter (where b.kind = 'progress'), 0) as furthest
      from loads l
      left join view_beacons b on b.view_id = l.view_id and b.kind in ('play', 'watched', 'progress') and b.demo_id = l.demo_id
        and b.received_at < l.started_at + ${late}::interval
      where l.started_at >= ${from}
      group by l.demo_id, l.view_id, l.started_at, l.host, l.first_of_day
    ), chapter_views as (
      select v.demo_id, v.hour, b.value as chapter, max(b.label) as title, count(*)::int as views
      from views v
      join loads l on l.view_id = v.view_id
      join view_beacons b on b.view_id = v.view_id and b.kind = 'chapter' and b.demo_id = v.demo_id and b.received_at < l.started_at + ${late}::interval
      group by v.demo_id, v.hour, b.value
    ), host_views as (
      select demo_id, hour, host, count(*)::int as views from views where host is not null group by demo_id, hour, host
    )
    select v.demo_id, v.hour,
      count(*)::int as views,
      (count(*) filter (where v.first_of_day))::int as unique_viewers,
      (count(*) filter (where v.played))::int as plays,
      coalesce(sum(v.watched) filter (where v.played), 0)::bigint as watched_seconds,
      (count(*) filter (where v.furthest >= 100))::int as completions,
      array[
        count(*) filter (where v.furthest >= 10), count(*) filter (where v.furthest >= 20), count(*) filter (where v.furthest >= 30),
        count(*) filter (where v.furthest >= 40), count(*) filter (where v.furthest >= 50), count(*) filter (where v.furthest >= 60),
        count(*) filter (where v.furthest >= 70), count(*) filter (where v.furthest >= 80), count(*) filter (where v.furthest >= 90),
        count(*) filter (where v.furthest >= 100)
      ]::int[] as reached,
      coalesce((select jsonb_object_agg(c.chapter::text, jsonb_build_object('title', c.title, 'views', c.views))
                from chapter_views c where c.demo_id = v.demo_id and c.hour = v.hour), '{}'::jsonb) as chapters,
      coalesce((select jsonb_object_agg(h.host, h.views) from host_views h where h.demo_id = v.demo_id and h.hour = v.hour), '{}'::jsonb) as hosts
    from views v
    group by v.demo_id, v.hour
    order by v.demo_id, v.hour`;
}
