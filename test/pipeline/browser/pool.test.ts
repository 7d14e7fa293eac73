import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { BrowserCrashedError, createBrowserPool, PageTimeoutError, type BrowserPool } from '../../../src/pipeline/browser/pool.js';
import { viewportFor } from '../../../src/pipeline/browser/viewports.js';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const buffer = Buffer.from(png);
  return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('viewportFor', () => {
  it('renders landscape viewports to the output width and the phone to the output height', () => {
    assert.deepEqual(viewportFor('desktop', '1080p').frame, { width: 1920, height: 1080 });
    assert.deepEqual(viewportFor('desktop', '720p').frame, { width: 1280, height: 720 });
    assert.deepEqual(viewportFor('tablet', '1080p').frame, { width: 1920, height: 1080 });
    assert.deepEqual(viewportFor('tablet', '720p').frame, { width: 1280, height: 720 });
    assert.deepEqual(viewportFor('mobile', '1080p').frame, { width: 499, height: 1080 });
    const desktop = viewportFor('desktop', '1080p', { chromeMajor: 160 });
    assert.equal(desktop.width, 1440);
    assert.equal(desktop.height, 810);
    assert.match(desktop.userAgent, /Windows NT 10\.0.*Chrome\/160\.0\.0\.0 Safari/);
    assert.equal(desktop.isMobile, false);
    const mobile = viewportFor('mobile', '720p');
    assert.ok(mobile.isMobile && mobile.hasTouch && !mobile.isLandscape && /iPhone/.test(mobile.userAgent));
    const tablet = viewportFor('tablet', '720p');
    assert.ok(tablet.isMobile && tablet.hasTouch && tablet.isLandscape && /iPad/.test(tablet.userAgent));
  });
});

describe('browser pool', () => {
  // One real browser for the whole file: every slot's launch returns it while it lives, so the file never runs two
  // Chromiums on this 2-core machine; a killed browser is relaunched.
  let shared: Browser | null = null;
  let launches = 0;
  const launch = async () => {
    launches++;
    if (!shared || !shared.connected) shared = await launchBrowser();
    return shared;
  };
  let pool: BrowserPool;
  let server: http.Server;
  let origin: string;

  before(async () => {
    pool = createBrowserPool({ size: 2, launch });
    server = http.createServer((request, response) => {
      const cookie = request.headers.cookie ?? '';
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><title>Fixture</title><h1 id="greeting">Hello</h1><p id="cookie">${cookie}</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await pool.close();
    await shared?.close().catch(() => undefined);
    await new Promise((resolve) => server.close(resolve));
  });

  const desktop = { viewport: 'desktop' as const, resolution: '720p' as const, allowPrivate: true };
  const contextCount = (browser: Browser) => browser.browserContexts().length;

  it('renders a local page in a page from the pool', async () => {
    const heading = await pool.withPage(desktop, async (page, ctx) => {
      await ctx.goto(`${origin}/`);
      assert.equal(ctx.viewport.name, 'desktop');
      return page.$eval('#greeting', (element) => element.textContent);
    });
    assert.equal(heading, 'Hello');
  });

  it('gives every job a fresh incognito context: cookies and storage do not carry over', async () => {
    await pool.withPage(desktop, async (page, ctx) => {
      await ctx.goto(`${origin}/`);
      await page.evaluate(() => {
        document.cookie = 'session=first-job; path=/';
        localStorage.setItem('seen', 'yes');
      });
      await page.reload();
      assert.equal(await page.$eval('#cookie', (element) => element.textContent), 'session=first-job');
      assert.notEqual(ctx.context, ctx.browser.defaultBrowserContext());
    });
    await pool.withPage(desktop, async (page, ctx) => {
      await ctx.goto(`${origin}/`);
      assert.equal(await page.$eval('#cookie', (element) => element.textContent), '');
      assert.equal(await page.evaluate(() => document.cookie), '');
      assert.equal(await page.evaluate(() => localStorage.getItem('seen')), null);
    });
  });

  it('closes the page and the context when the job throws or times out', async () => {
    let seen: { page: Page; browser: Browser } | null = null;
    await assert.rejects(
      pool.withPage(desktop, async (page, ctx) => {
        seen = { page, browser: ctx.browser };
        assert.equal(contextCount(ctx.browser), 2); // the default context and this job's
        throw new Error('the recorder failed');
      }),
      /the recorder failed/,
    );
    assert.ok(seen);
    const first = seen as { page: Page; browser: Browser };
    assert.equal(first.page.isClosed(), true);
    assert.equal(contextCount(first.browser), 1);

    let timedOut: Page | null = null;
    let aborted = false;
    await assert.rejects(
      pool.withPage({ ...desktop, timeoutMs: 300 }, async (page, ctx) => {
        timedOut = page;
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
        });
        await page.waitForSelector('#never-there', { timeout: 0 });
      }),
      (error: unknown) => error instanceof PageTimeoutError && /did not finish within/.test(error.message),
    );
    assert.equal((timedOut as Page | null)?.isClosed(), true);
    assert.equal(aborted, true);
    assert.equal(contextCount(first.browser), 1);
  });

  it('runs at most `size` jobs at once and queues the rest, reusing the browsers', async () => {
    const launchesBefore = launches;
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const jobs = [0, 1, 2, 3, 4].map((n) =>
      pool.withPage(desktop, async (page) => {
        running++;
        peak = Math.max(peak, running);
        await page.setContent(`<p>${n}</p>`);
        await sleep(150);
        running--;
        order.push(n);
        return n;
      }),
    );
    assert.equal(pool.stats().waiting, 3);
    assert.deepEqual(await Promise.all(jobs), [0, 1, 2, 3, 4]);
    assert.equal(peak, 2);
    assert.deepEqual(order.slice(0, 2).sort(), [0, 1]);
    assert.ok(launches - launchesBefore <= 1, 'only the second slot, never used before, launched');
    assert.ok(pool.stats().browsers <= 2);
    assert.deepEqual({ busy: pool.stats().busy, waiting: pool.stats().waiting }, { busy: 0, waiting: 0 });
  });

  it('emulates the viewport: screenshots are 1280×720 at 720p and 1920×1080 at 1080p', async () => {
    for (const [resolution, expected] of [['720p', { width: 1280, height: 720 }], ['1080p', { width: 1920, height: 1080 }]] as const) {
      await pool.withPage({ ...desktop, resolution }, async (page) => {
        await page.setContent('<body style="margin:0;background:#336">x</body>');
        assert.deepEqual(await page.evaluate(() => ({ width: innerWidth, height: innerHeight })), { width: 1440, height: 810 });
        assert.deepEqual(pngSize(await page.screenshot({ type: 'png' })), expected);
        assert.match(await page.evaluate(() => navigator.userAgent), /Chrome\/\d+\.0\.0\.0 Safari/);
        assert.doesNotMatch(await page.evaluate(() => navigator.userAgent), /Headless/);
      });
    }
    await pool.withPage({ ...desktop, viewport: 'mobile', resolution: '1080p' }, async (page) => {
      await page.setContent('<meta name="viewport" content="width=device-width"><body>phone</body>');
      const seen = await page.evaluate(() => ({ width: innerWidth, touch: 'ontouchstart' in window, ua: navigator.userAgent }));
      assert.equal(seen.width, 390);
      assert.equal(seen.touch, true);
      assert.match(seen.ua, /iPhone/);
      assert.deepEqual(pngSize(await page.screenshot({ type: 'png' })), { width: 499, height: 1080 });
    });
  });

  it('drops a crashed browser, fails its job as transient and relaunches for the next job', async () => {
    const launchesBefore = launches;
    await assert.rejects(
      pool.withPage(desktop, async (page, ctx) => {
        await page.setContent('<p>about to crash</p>');
        ctx.browser.process()?.kill('SIGKILL');
        await page.evaluate(() => new Promise(() => undefined));
      }),
      (error: unknown) => error instanceof BrowserCrashedError && error.transient,
    );
    const heading = await pool.withPage(desktop, async (page, ctx) => {
      await ctx.goto(`${origin}/`);
      return page.$eval('#greeting', (element) => element.textContent);
    });
    assert.equal(heading, 'Hello');
    assert.equal(launches, launchesBefore + 1);
  });

  it('refuses new jobs once closed', async () => {
    const closing = createBrowserPool({ size: 1, launch });
    await closing.close();
    await assert.rejects(closing.withPage(desktop, async () => 1), /closed/);
  });
});
