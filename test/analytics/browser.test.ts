import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../src/pipeline/browser/launch.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { makeDemoMedia, startHostSite, type HostSite } from '../embeds/embed-harness.js';
import { publishStoryVersion, sampleStory } from '../helpers/story-demo.js';
import { analyticsWhen, BROWSER_AGENT } from './analytics-harness.js';

/**
 * Issue 38's done-when, as a visitor's browser does it: a customer page embeds a demo through sdk.js, Chromium plays
 * it to the end, and the owner's analytics show the view and each chapter it reached (the demo has issue 36's
 * chapters: the player reports each one as playback enters it).
 */
describe('view analytics in Chromium', () => {
  let app: TestApp;
  let user: TestUser;
  let site: HostSite;
  let browser: Browser;
  let media: Awaited<ReturnType<typeof makeDemoMedia>>;
  let projectId: string;
  let pubKey: string;
  let demoId: string;

  before(async () => {
    [app, site, media, browser] = await Promise.all([startTestApp(), startHostSite(), makeDemoMedia(), launchBrowser({ allowPrivate: true })]);
    user = await app.createUser({ credits: 10 });
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Host', url: `${site.origin('127.0.0.1')}/` } });
    projectId = project.body.id;
    const key = await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', project_id: projectId, allowed_domains: ['127.0.0.1'] } });
    pubKey = key.body.key;
    site.page('/landing.html', `<!doctype html>
<html><head><title>Acme</title><script src="${app.url}/sdk.js" data-showreel-key="${pubKey}" data-project="${projectId}" async></script>
<script>window.__ended = 0; document.addEventListener('showreel:ended', () => window.__ended++);</script></head>
<body><h1>Acme</h1><div style="width:640px"><div data-showreel data-prompt="Show the pricing" data-autoplay></div></div></body></html>`);
  });
  after(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), site?.close(), media?.cleanup()]);
  });

  /** A visitor's tab: a browser's user agent (HeadlessChrome is a bot's, and not counted). */
  const visit = async (headers: Record<string, string> = {}): Promise<Page> => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setUserAgent(BROWSER_AGENT);
    if (Object.keys(headers).length > 0) await page.setExtraHTTPHeaders(headers);
    page.on('pageerror', (error) => console.error('page error:', error));
    await page.goto(`${site.origin('127.0.0.1')}/landing.html`);
    return page;
  };
  const playedToTheEnd = (page: Page, times = 1) => page.waitForFunction((n) => (window as any).__ended >= n, { polling: 100, timeout: 30_000 }, times);

  it('counts a demo played to its end on a page through sdk.js: 1 view, 1 play, 100 % completion, the embedding host', async () => {
    const page = await visit();
    await page.waitForFunction(() => document.querySelector('[data-showreel] iframe'), { polling: 100, timeout: 15_000 });
    const [demo] = await app.sql<{ id: string }[]>`select id from demos where project_id = ${projectId}`;
    demoId = demo!.id;
    // The worker's outcome, stood in for: the 6 s video with three chapters (Acme, Pricing, What customers say).
    await publishStoryVersion(app, demoId, sampleStory(), media);
    await playedToTheEnd(page);
    const stats = await analyticsWhen(app, user.key, demoId, (body) => body.views >= 1 && body.completion_rate === 1 && body.average_seconds_watched > 0 && body.dropoff.by_chapter.length === 3);
    assert.equal(stats.views, 1);
    assert.equal(stats.unique_viewers, 1);
    assert.equal(stats.plays, 1);
    assert.equal(stats.completion_rate, 1);
    assert.deepEqual(stats.dropoff.by_tenth.map((t: any) => t.rate), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    // The 6 s video, played once through (timeupdate steps are a quarter second or so).
    assert.ok(stats.average_seconds_watched >= 5 && stats.average_seconds_watched <= 7, String(stats.average_seconds_watched));
    assert.deepEqual(stats.top_hosts, [{ host: '127.0.0.1', views: 1 }]);
    assert.deepEqual(stats.dropoff.by_chapter, [
      { index: 0, title: 'Acme', views: 1, rate: 1 },
      { index: 1, title: 'Pricing', views: 1, rate: 1 },
      { index: 2, title: 'What customers say', views: 1, rate: 1 },
    ]);

    // A reload is a second view, of the same viewer (same address and browser, same day).
    await page.reload();
    await playedToTheEnd(page);
    const again = await analyticsWhen(app, user.key, demoId, (body) => body.views >= 2 && body.plays >= 2);
    assert.equal(again.views, 2);
    assert.equal(again.unique_viewers, 1);
    assert.equal(again.plays, 2);
    await page.browserContext().close();
  });

  it('does not count a visitor whose browser sends Sec-GPC: 1', async () => {
    const page = await visit({ 'Sec-GPC': '1' });
    await playedToTheEnd(page);
    // Whatever the player sent is written within a second: wait longer than that, then look.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const stats = await analyticsWhen(app, user.key, demoId, () => true);
    assert.equal(stats.views, 2);
    assert.equal(stats.plays, 2);
    await page.browserContext().close();
  });
});
