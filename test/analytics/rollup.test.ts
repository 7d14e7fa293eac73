import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ANALYTICS_RETENTION_TASK,
  ANALYTICS_ROLLUP_TASK,
  applyRetention,
  demoAnalytics,
  insertBeacons,
  rebuildRollups,
  runHourlyRollup,
  type BeaconRow,
} from '../../src/analytics/index.js';
import { crontab } from '../../src/tasks.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { demoWithChapters, newViewId } from './analytics-harness.js';

const HOUR = 3_600_000;

/**
 * The hourly rollup and the retention job on beacons of known times (written as the buffer writes them): what the
 * hourly job builds hour by hour is what a rebuild from the raw rows gives, and old raw rows and salts go while
 * the rollups stay.
 */
describe('analytics rollup and retention', () => {
  let app: TestApp;
  let demoId: string;
  let otherDemoId: string;
  let key: string;
  // A fixed day, so hours and days are known: 10:00 UTC onwards.
  const day = Date.parse('2026-03-10T10:00:00Z');

  before(async () => {
    app = await startTestApp();
    const owner = await app.createUser();
    key = owner.key;
    demoId = await demoWithChapters(app, owner, ['Intro']);
    otherDemoId = await demoWithChapters(app, owner, ['Intro']);
  });
  after(async () => {
    await app?.stop();
  });

  /** One view at `at` (ms), its beacons spread over the next minutes; a view may run past its hour. */
  const view = (demo: string, at: number, options: { viewer: string; host?: string; furthest?: number; seconds?: number; chapter?: boolean; lateMinutes?: number }): BeaconRow[] => {
    const id = newViewId();
    const row = (kind: BeaconRow['kind'], value: number, minutes: number, label: string | null = null): BeaconRow => ({
      receivedAt: new Date(at + minutes * 60_000), demoId: demo, viewId: id, kind, value, label, viewerHash: options.viewer, host: options.host ?? null, surface: 'embed',
    });
    const rows = [row('load', 0, 0)];
    if (options.furthest === undefined) return rows;
    rows.push(row('play', 0, 0.1));
    for (const mark of [10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 100].filter((m) => m <= options.furthest!)) rows.push(row('progress', mark, mark / 100));
    if (options.chapter) rows.push(row('chapter', 0, 0.2, 'Intro'));
    rows.push(row('watched', options.seconds ?? 5, options.lateMinutes ?? 1.5));
    return rows;
  };

  it('builds the same numbers hour by hour as a rebuild from the raw rows, views running past their hour included', async () => {
    const rows = [
      view(demoId, day + 5 * 60_000, { viewer: 'a', host: 'acme.example', furthest: 100, seconds: 6, chapter: true }),
      // Starts at 10:58, its progress and seconds arrive after 11:00: it counts in 10:00.
      view(demoId, day + 58 * 60_000, { viewer: 'a', host: 'acme.example', furthest: 50, seconds: 3, lateMinutes: 20 }),
      view(demoId, day + HOUR + 10 * 60_000, { viewer: 'b', host: 'blog.example' }),
      view(demoId, day + 2 * HOUR + 1 * 60_000, { viewer: 'c', furthest: 30, seconds: 2 }),
      view(otherDemoId, day + 2 * HOUR + 30 * 60_000, { viewer: 'a', furthest: 100, seconds: 6 }),
      // Viewer a again, on demo 1, later that day: not a new unique viewer.
      view(demoId, day + 3 * HOUR + 30 * 60_000, { viewer: 'a', furthest: 10, seconds: 1 }),
    ].flat();
    // Written as the buffer would, each beacon when it "arrived" (the job runs between arrivals).
    const arrivedBy = (t: number) => rows.filter((r) => r.receivedAt.getTime() < t);
    let written = 0;
    const writeUntil = async (t: number) => {
      const due = arrivedBy(t);
      await insertBeacons(app.sql, due.slice(written));
      written = due.length;
    };
    // The hourly job, five minutes past each hour, as the crontab runs it.
    for (let hour = 1; hour <= 5; hour++) {
      const now = day + hour * HOUR + 5 * 60_000;
      await writeUntil(now);
      await runHourlyRollup(app.sql, new Date(now));
    }
    await writeUntil(Infinity);
    const hourly = await app.sql`select * from view_rollups_hourly order by demo_id, hour`;
    const range: [Date, Date] = [new Date(day), new Date(day + 6 * HOUR)];
    const read = await demoAnalytics(app.sql, demoId, ...range);

    assert.equal(read.views, 5);
    assert.equal(read.unique_viewers, 3);
    assert.equal(read.plays, 4);
    assert.equal(read.completion_rate, 0.25);
    assert.equal(read.average_seconds_watched, 3);
    assert.deepEqual(read.dropoff.by_chapter, [{ index: 0, title: 'Intro', views: 1, rate: 0.25 }]);
    assert.deepEqual(read.top_hosts, [{ host: 'acme.example', views: 2 }, { host: 'blog.example', views: 1 }]);
    assert.deepEqual(read.series.slice(0, 4).map((p) => p.views), [2, 1, 1, 1]);

    // The rebuild: every rollup row thrown away and made again from the raw rows.
    await app.sql`delete from view_rollups_hourly`;
    await rebuildRollups(app.sql, new Date(day + 6 * HOUR));
    assert.deepEqual(await app.sql`select * from view_rollups_hourly order by demo_id, hour`, hourly);
    assert.deepEqual(await demoAnalytics(app.sql, demoId, ...range), read);
    // Through the API too (hours before the watermark come from the rollup rows).
    const api = await app.api(`/api/v1/demos/${demoId}/analytics?from=${range[0].toISOString()}&to=${range[1].toISOString()}`, { key });
    assert.equal(api.status, 200);
    assert.deepEqual(api.body, JSON.parse(JSON.stringify(read)));
  });

  it('the retention job deletes raw rows past the retention and the salts of past days, and keeps the rollups', async () => {
    const now = new Date(day + 40 * 24 * HOUR);
    const old = view(demoId, day - 2 * 24 * HOUR, { viewer: 'z', furthest: 100, seconds: 6 });
    const recent = view(demoId, now.getTime() - 24 * HOUR, { viewer: 'y', furthest: 100, seconds: 6 });
    await insertBeacons(app.sql, [...old, ...recent]);
    await app.sql`insert into analytics_salts (day, salt) values ('2026-04-18', '\\x01'), ('2026-04-19', '\\x02') on conflict do nothing`;
    const rollupsBefore = await app.sql`select * from view_rollups_hourly order by demo_id, hour`;
    assert.ok(rollupsBefore.length > 0);

    const deleted = await applyRetention(app.sql, 30, now);
    const [left] = await app.sql<{ oldest: Date }[]>`select min(received_at) as oldest from view_beacons`;
    assert.ok(left!.oldest.getTime() >= now.getTime() - 30 * 24 * HOUR, `oldest kept: ${left!.oldest.toISOString()}`);
    assert.ok(deleted.beacons >= old.length);
    const [recentLeft] = await app.sql<{ n: number }[]>`select count(*)::int as n from view_beacons where view_id = ${recent[0]!.viewId}`;
    assert.equal(recentLeft!.n, recent.length);
    // Only the salt of `now`'s day may remain: 2026-04-18 and 2026-04-19 are over.
    const salts = await app.sql<{ day: string }[]>`select day::text from analytics_salts`;
    assert.deepEqual(salts.filter((s) => s.day < '2026-04-19'), []);
    assert.deepEqual(await app.sql`select * from view_rollups_hourly order by demo_id, hour`, rollupsBefore);
  });

  it('runs both jobs from the worker’s crontab, hourly', () => {
    assert.match(crontab, new RegExp(`^\\d+ \\* \\* \\* \\* ${ANALYTICS_ROLLUP_TASK}$`, 'm'));
    assert.match(crontab, new RegExp(`^\\d+ \\* \\* \\* \\* ${ANALYTICS_RETENTION_TASK}$`, 'm'));
  });
});
