import type { Queryable } from '../platform/database.js';
import { aggregateHours, type HourlyAggregate } from './aggregate.js';

/** What GET /demos/{id}/analytics answers. Rates are shares of the views that played (0 when none did). */
export interface DemoAnalytics {
  demo_id: string;
  from: string;
  to: string;
  views: number;
  unique_viewers: number;
  plays: number;
  average_seconds_watched: number;
  completion_rate: number;
  dropoff: {
    by_tenth: Array<{ percent: number; views: number; rate: number }>;
    by_chapter: Array<{ index: number; title: string | null; views: number; rate: number }>;
  };
  top_hosts: Array<{ host: string; views: number }>;
  bucket: 'hour' | 'day';
  series: Array<{ start: string; views: number; plays: number }>;
}

/**
 * The demo's hourly aggregates over [from, to): rolled-up hours from view_rollups_hourly, the hours after the
 * rollup's watermark straight from the raw rows (so a view shows within the second its beacons are written, not
 * after the next hourly run).
 */
export async function hourlyAggregates(sql: Queryable, demoIds: string[], from: Date, to: Date): Promise<HourlyAggregate[]> {
  const [state] = await sql<{ rolled_up_until: Date }[]>`select rolled_up_until from analytics_rollup_state`;
  const watermark = state ? state.rolled_up_until : from;
  const rolledTo = watermark < to ? watermark : to;
  const rolled =
    from < rolledTo
      ? await sql<HourlyAggregate[]>`
          select * from view_rollups_hourly where demo_id = any(${demoIds}::text[]) and hour >= ${from} and hour < ${rolledTo} order by hour`
      : [];
  const liveFrom = watermark > from ? watermark : from;
  const live = liveFrom < to ? (await Promise.all(demoIds.map((id) => aggregateHours(sql, liveFrom, to, id)))).flat() : [];
  return [...rolled, ...live];
}

export async function demoAnalytics(sql: Queryable, demoId: string, from: Date, to: Date): Promise<DemoAnalytics> {
  return summarise(demoId, from, to, await hourlyAggregates(sql, [demoId], from, to), await chapterTitles(sql, demoId));
}

/**
 * The demo's own chapter titles, by index (its current version's story): what the drop-off per chapter is named by.
 * Never a beacon's label, which anyone can send.
 */
async function chapterTitles(sql: Queryable, demoId: string): Promise<string[]> {
  const [row] = await sql<{ story: string | null }[]>`select story from demos where id = ${demoId}`;
  if (!row?.story) return [];
  try {
    const story = JSON.parse(row.story) as { chapters?: Array<{ title?: unknown }> };
    return Array.isArray(story.chapters) ? story.chapters.map((chapter) => (typeof chapter.title === 'string' ? chapter.title : '')) : [];
  } catch {
    return [];
  }
}

/** `titles`: the demo's chapters; a chapter index it does not have is left out, whatever its beacons say. */
export function summarise(demoId: string, from: Date, to: Date, hours: HourlyAggregate[], titles: string[] = []): DemoAnalytics {
  let views = 0, uniques = 0, plays = 0, watched = 0, completions = 0;
  const reached = Array<number>(10).fill(0);
  const chapters = new Map<number, { title: string | null; views: number }>();
  const hosts = new Map<string, number>();
  const bucket: 'hour' | 'day' = to.getTime() - from.getTime() <= 48 * 3_600_000 ? 'hour' : 'day';
  const series = new Map<string, { views: number; plays: number }>();
  for (const hour of hours) {
    views += hour.views;
    uniques += hour.unique_viewers;
    plays += hour.plays;
    watched += Number(hour.watched_seconds);
    completions += hour.completions;
    hour.reached.forEach((count, i) => (reached[i]! += count));
    for (const [key, chapter] of Object.entries(hour.chapters)) {
      const index = Number(key);
      if (!Number.isInteger(index) || index < 0 || index >= titles.length) continue;
      chapters.set(index, { title: titles[index] || null, views: (chapters.get(index)?.views ?? 0) + chapter.views });
    }
    for (const [host, count] of Object.entries(hour.hosts)) hosts.set(host, (hosts.get(host) ?? 0) + count);
    const start = new Date(hour.hour);
    const key = (bucket === 'hour' ? start.toISOString() : `${start.toISOString().slice(0, 10)}T00:00:00.000Z`);
    const point = series.get(key) ?? { views: 0, plays: 0 };
    point.views += hour.views;
    point.plays += hour.plays;
    series.set(key, point);
  }
  const rate = (count: number) => (plays === 0 ? 0 : Math.round((count / plays) * 1000) / 1000);
  return {
    demo_id: demoId,
    from: from.toISOString(),
    to: to.toISOString(),
    views,
    unique_viewers: uniques,
    plays,
    average_seconds_watched: plays === 0 ? 0 : Math.round((watched / plays) * 10) / 10,
    completion_rate: rate(completions),
    dropoff: {
      by_tenth: reached.map((count, i) => ({ percent: (i + 1) * 10, views: count, rate: rate(count) })),
      by_chapter: [...chapters.entries()].sort(([a], [b]) => a - b).map(([index, c]) => ({ index, title: c.title, views: c.views, rate: rate(c.views) })),
    },
    top_hosts: [...hosts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10).map(([host, count]) => ({ host, views: count })),
    bucket,
    series: fillSeries(series, from, to, bucket),
  };
}

/** Every bucket of the range, empty ones included, so a chart's x axis is time, not data points. */
function fillSeries(points: Map<string, { views: number; plays: number }>, from: Date, to: Date, bucket: 'hour' | 'day') {
  const step = bucket === 'hour' ? 3_600_000 : 86_400_000;
  const first = Math.floor(from.getTime() / step) * step;
  const out: DemoAnalytics['series'] = [];
  for (let t = first; t < to.getTime() && out.length < 400; t += step) {
    const start = new Date(t).toISOString();
    out.push({ start, ...(points.get(start) ?? { views: 0, plays: 0 }) });
  }
  return out;
}

/** Views of each demo since it was made (the demo list's column). */
export async function viewsPerDemo(sql: Queryable, demoIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (demoIds.length === 0) return counts;
  const [state] = await sql<{ rolled_up_until: Date }[]>`select rolled_up_until from analytics_rollup_state`;
  const rows = await sql<{ demo_id: string; views: number }[]>`
    select demo_id, sum(views)::int as views from (
      select demo_id, views from view_rollups_hourly
      where demo_id = any(${demoIds}::text[]) ${state ? sql`and hour < ${state.rolled_up_until}` : sql`and false`}
      union all
      select demo_id, count(*)::int from view_beacons
      where kind = 'load' and demo_id = any(${demoIds}::text[]) ${state ? sql`and received_at >= ${state.rolled_up_until}` : sql``}
      group by demo_id
    ) counted group by demo_id`;
  for (const row of rows) counts.set(row.demo_id, row.views);
  return counts;
}
