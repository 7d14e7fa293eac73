import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { cliLauncher } from '../helpers/cli.js';
import { analyticsWhen, demoWithChapters, newViewId, sendBeacon, storedBeacons } from './analytics-harness.js';

/**
 * The beacon endpoint as a player (and a hostile client) uses it, and what the owner then reads at
 * GET /demos/{id}/analytics.
 */
describe('view beacons and the analytics they make', () => {
  let app: TestApp;
  let owner: TestUser;
  let demoId: string;

  before(async () => {
    app = await startTestApp({ SHOWREEL_BEACON_LIMIT_PER_ADDRESS: '300' });
    owner = await app.createUser();
    demoId = await demoWithChapters(app, owner, ['Sign in', 'Pricing']);
  });
  after(async () => {
    await app?.stop();
  });

  /** One whole view as player.js sends it: load, play, every mark, chapters, seconds watched. */
  const watch = async (options: { host?: string; upTo?: number; chapters?: Array<[number, string]>; seconds: number; headers?: Record<string, string> }) => {
    const view = newViewId();
    const base = { demo: demoId, view, surface: 'embed', ...(options.host ? { host: options.host } : {}) };
    const statuses: number[] = [];
    const send = async (extra: Record<string, unknown>) => statuses.push((await sendBeacon(app, { ...base, ...extra }, options.headers)).status);
    await send({ event: 'load' });
    await send({ event: 'play' });
    for (const mark of [10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 100].filter((m) => m <= (options.upTo ?? 100))) await send({ event: 'progress', value: mark });
    for (const [index, title] of options.chapters ?? []) await send({ event: 'chapter', value: index, title });
    await send({ event: 'watched', value: options.seconds });
    return { view, statuses };
  };

  it('never answers a beacon with a 5xx: a fault of ours is logged and the beacon let go (204)', async () => {
    // First beacon of this process: the day's salt is read now, and its table is gone.
    await app.sql`alter table analytics_salts rename to analytics_salts_away`;
    try {
      const response = await sendBeacon(app, { demo: demoId, view: newViewId(), event: 'load' });
      assert.equal(response.status, 204);
    } finally {
      await app.sql`alter table analytics_salts_away rename to analytics_salts`;
    }
    // Back: the next beacon reads the salt again and is counted.
    assert.equal((await sendBeacon(app, { demo: demoId, view: newViewId(), event: 'load' })).status, 202);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await storedBeacons(app, demoId), 1);
    await app.sql`delete from view_beacons`;
  });

  it('counts views, plays, completion, drop-off per tenth and per chapter, seconds watched and embedding hosts', async () => {
    const first = await watch({ host: 'https://www.acme.example/pricing?utm=1', chapters: [[0, 'Sign in'], [1, 'Pricing']], seconds: 6 });
    assert.deepEqual([...new Set(first.statuses)], [202]);
    await watch({ host: 'www.acme.example', upTo: 50, chapters: [[0, 'Sign in']], seconds: 3 });
    // A view that loaded and never played.
    await sendBeacon(app, { demo: demoId, view: newViewId(), event: 'load', host: 'blog.example' });

    const stats = await analyticsWhen(app, owner.key, demoId, (body) => body.views === 3 && body.average_seconds_watched > 0);
    assert.equal(stats.views, 3);
    // Same address and user agent, same day: one viewer.
    assert.equal(stats.unique_viewers, 1);
    assert.equal(stats.plays, 2);
    assert.equal(stats.completion_rate, 0.5);
    assert.equal(stats.average_seconds_watched, 4.5);
    assert.deepEqual(stats.dropoff.by_tenth.map((t: any) => [t.percent, t.views]), [[10, 2], [20, 2], [30, 2], [40, 2], [50, 2], [60, 1], [70, 1], [80, 1], [90, 1], [100, 1]]);
    assert.deepEqual(stats.dropoff.by_chapter, [{ index: 0, title: 'Sign in', views: 2, rate: 1 }, { index: 1, title: 'Pricing', views: 1, rate: 0.5 }]);
    // Hosts only: the page's path and query never reach the table.
    assert.deepEqual(stats.top_hosts, [{ host: 'www.acme.example', views: 2 }, { host: 'blog.example', views: 1 }]);
    const [leak] = await app.sql<{ n: number }[]>`select count(*)::int as n from view_beacons where host like '%/%' or host like '%utm%'`;
    assert.equal(leak!.n, 0);
    assert.equal(stats.series.reduce((sum: number, p: any) => sum + p.views, 0), 3);
  });

  /** The owner's dashboard session cookie. */
  const ownerCookie = async () => {
    // The dashboard takes forms from its own public origin (PUBLIC_URL, which the device login's link carries).
    const origin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    const signIn = await fetch(`${app.url}/app/sign-in`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ email: owner.email, password: owner.password }),
    });
    return (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  };

  it('shows the owner who watched: views on the demo list, a panel with an SVG chart on the demo page', async () => {
    const cookie = await ownerCookie();
    const list = await (await fetch(`${app.url}/app/`, { headers: { cookie } })).text();
    assert.match(list, /<span data-views>3 views<\/span>/);
    const page = await (await fetch(`${app.url}/app/demos/${demoId}`, { headers: { cookie } })).text();
    const panel = /<section class="panel" data-analytics>[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    assert.match(panel, /<strong>3<\/strong> views · <strong>1<\/strong> unique viewer · <strong>2<\/strong> plays/, 'one viewer, in the singular');
    assert.match(panel, /<svg class="chart" role="img" aria-label="Views per day: 3 in all/);
    assert.match(panel, /Chapters reached: Sign in: 100 % · Pricing: 50 %/);
    assert.match(panel, /Embedded on: www\.acme\.example \(2\), blog\.example \(1\)/);
  });

  it('answers `showreel demos stats ID` with the same figures, as lines and as --json', async () => {
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-stats-cli-'));
    const cli = cliLauncher({ cwd: () => home, configHome: () => home, serviceUrl: () => app.url });
    try {
      const text = await cli.run(['demos', 'stats', demoId], { SHOWREEL_API_KEY: owner.key });
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^views: +3$/m);
      assert.match(text.stdout, /^unique viewers: +1$/m);
      assert.match(text.stdout, /^completion: +50%$/m);
      assert.match(text.stdout, /^chapters: +Sign in 100%, Pricing 50%$/m);
      assert.match(text.stdout, /^embedded on: +www\.acme\.example \(2\), blog\.example \(1\)$/m);
      const json = await cli.run(['demos', 'stats', demoId, '--from', new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10), '--json'], { SHOWREEL_API_KEY: owner.key });
      assert.equal(JSON.parse(json.stdout).plays, 2);
      const bad = await cli.run(['demos', 'stats', demoId, '--from', 'soon'], { SHOWREEL_API_KEY: owner.key });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /from must be an ISO 8601 date/);
    } finally {
      cli.kill();
      await fs.rm(home, { recursive: true, force: true });
    }
  });

  it('drops a replayed beacon: the same view sent twice is one view', async () => {
    const before = await storedBeacons(app, demoId);
    const view = newViewId();
    for (let i = 0; i < 3; i++) assert.equal((await sendBeacon(app, { demo: demoId, view, event: 'load' })).status, 202);
    const stats = await analyticsWhen(app, owner.key, demoId, (body) => body.views === 4);
    assert.equal(stats.views, 4);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await storedBeacons(app, demoId), before + 1);
  });

  it('does not count bots, Do Not Track or Global Privacy Control (204, nothing stored)', async () => {
    const before = await storedBeacons(app, demoId);
    const load = () => ({ demo: demoId, view: newViewId(), event: 'load' });
    const refusals: Array<Record<string, string>> = [
      { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36' },
      { 'user-agent': 'curl/8.5.0' },
      { 'user-agent': '' },
      { dnt: '1' },
      { 'sec-gpc': '1' },
    ];
    for (const headers of refusals) {
      const response = await sendBeacon(app, load(), headers);
      assert.equal(response.status, 204, JSON.stringify(headers));
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await storedBeacons(app, demoId), before);
  });

  it('answers a bad beacon with a clear {error}', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      ['not json', 400, /not valid JSON/],
      [{ demo: 'nope', view: newViewId(), event: 'load' }, 400, /demo/],
      [{ demo: demoId, view: 'short', event: 'load' }, 400, /view/],
      [{ demo: demoId, view: newViewId(), event: 'click' }, 400, /event/],
      [{ demo: demoId, view: newViewId(), event: 'progress', value: 33 }, 400, /progress/],
      [{ demo: demoId, view: newViewId(), event: 'load', extra: 1 }, 400, /extra/],
      [{ demo: demoId, view: newViewId(), event: 'chapter', value: 1, title: 'x'.repeat(3000) }, 413, /larger than 2048/],
    ];
    for (const [body, status, message] of cases) {
      const response = await sendBeacon(app, body);
      assert.equal(response.status, status, JSON.stringify(body).slice(0, 80));
      assert.match(((await response.json()) as { error: string }).error, message);
    }
    const form = await sendBeacon(app, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
    const get = await fetch(`${app.url}/api/v1/beacon`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });

  it('stores nothing for an unknown demo and answers as for any beacon', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await sendBeacon(app, { demo: unknown, view: newViewId(), event: 'load' })).status, 202);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await storedBeacons(app, unknown), 0);
  });

  it('keeps each owner to their own demos: another user’s demo is a 404, a bad range a 400', async () => {
    const stranger = await app.createUser();
    const theirs = await app.api(`/api/v1/demos/${demoId}/analytics`, { key: stranger.key });
    assert.equal(theirs.status, 404);
    assert.deepEqual(theirs.body, { error: 'Demo not found.' });
    assert.equal((await app.api(`/api/v1/demos/${demoId}/analytics`)).status, 401);
    const bad = await app.api(`/api/v1/demos/${demoId}/analytics?from=yesterday`, { key: owner.key });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /from must be an ISO 8601 date/);
    const backwards = await app.api(`/api/v1/demos/${demoId}/analytics?from=2026-05-02&to=2026-05-01`, { key: owner.key });
    assert.equal(backwards.status, 400);
    const empty = await app.api(`/api/v1/demos/${demoId}/analytics?from=2020-01-01&to=2020-01-02`, { key: owner.key });
    assert.equal(empty.status, 200);
    assert.equal(empty.body.views, 0);
    assert.equal(empty.body.bucket, 'hour');
    assert.equal(empty.body.series.length, 24);
  });

  it('names chapters by the demo’s own titles: a forged label never reaches the owner, a chapter the demo lacks is not stored', async () => {
    await app.sql`delete from view_beacons`;
    await watch({ chapters: [[0, '\uffffVisit evil.example for a refund'], [1, '<script>alert(1)</script>'], [7, 'Seven'], [999, 'Nine']], seconds: 6 });
    const stats = await analyticsWhen(app, owner.key, demoId, (body) => body.plays === 1 && body.average_seconds_watched > 0);
    assert.deepEqual(stats.dropoff.by_chapter.map((c: any) => [c.index, c.title]), [[0, 'Sign in'], [1, 'Pricing']]);
    const [stored] = await app.sql<{ chapters: number; labels: number }[]>`
      select count(*) filter (where kind = 'chapter')::int as chapters, count(label)::int as labels from view_beacons where demo_id = ${demoId}`;
    assert.deepEqual(stored, { chapters: 2, labels: 0 });
    const html = await (await fetch(`${app.url}/app/demos/${demoId}`, { headers: { cookie: await ownerCookie() } })).text();
    assert.match(html, /Chapters reached: Sign in: 100 % · Pricing: 100 %/);
    assert.doesNotMatch(html, /evil\.example|alert\(1\)/);
    await app.sql`delete from view_beacons`;
  });

  it('does not make a new unique viewer of a changed user agent: one address is one viewer a day', async () => {
    await app.sql`delete from view_beacons`;
    for (const version of [120, 121, 122, 123, 124]) {
      await watch({ seconds: 1, headers: { 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36` } });
    }
    const stats = await analyticsWhen(app, owner.key, demoId, (body) => body.views === 5);
    assert.equal(stats.views, 5);
    assert.equal(stats.unique_viewers, 1);
    await app.sql`delete from view_beacons`;
  });

  it('limits beacons per client address (429 with Retry-After)', async () => {
    let limited: Response | null = null;
    for (let i = 0; i < 400 && !limited; i++) {
      const response = await sendBeacon(app, { demo: demoId, view: newViewId(), event: 'load' });
      if (response.status === 429) limited = response;
    }
    assert.ok(limited, 'the 301st beacon of a minute is refused');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(((await limited.json()) as { error: string }).error, /Too many beacons/);
  });
});
