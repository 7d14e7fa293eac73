import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { frameControlOf } from '../../../src/pipeline/browser/frame-control.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { BrowserCrashedError, createBrowserPool, PageTimeoutError, type BrowserPool } from '../../../src/pipeline/browser/pool.js';
import { viewportFor } from '../../../src/pipeline/browser/viewports.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { recordScript } from '../../../src/pipeline/record/recorder.js';
import { jpegSize, startScreencast } from '../../../src/pipeline/record/screencast.js';
import type { Resolution, ViewportName } from '../../../src/pipeline/types.js';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const buffer = Buffer.from(png);
  return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A canvas of one-device-pixel black and white columns (black at even x) across the top, and some text. Captured at
 * device pixels, a row of it matches that pattern exactly; captured at CSS size (and scaled), it does not.
 */
const STRIPES = `<!doctype html><meta name="viewport" content="width=device-width"><body style="margin:0;background:#fff">
<canvas id="c" style="display:block;width:100vw;height:120px"></canvas><p style="font:16px sans-serif">Crisp text</p><script>
const c = document.getElementById('c');
c.width = Math.round(innerWidth * devicePixelRatio);
c.height = Math.round(120 * devicePixelRatio);
const g = c.getContext('2d');
g.fillStyle = '#fff';
g.fillRect(0, 0, c.width, c.height);
g.fillStyle = '#000';
for (let x = 0; x < c.width; x += 2) g.fillRect(x, 0, 1, c.height);
</script>`;

/** Share of row `y` of an image (PNG or JPEG) whose pixels follow the stripes: dark at even x, light at odd x. */
async function stripeMatch(image: Buffer, width: number, y: number): Promise<number> {
  const { ffmpeg } = await ffmpegBinaries();
  const decoded = spawnSync(ffmpeg, ['-v', 'error', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { input: image, maxBuffer: 16 * 1024 * 1024 });
  assert.equal(decoded.status, 0, decoded.stderr?.toString());
  let hits = 0;
  for (let x = 0; x < width; x++) if (decoded.stdout[y * width + x]! < 128 === (x % 2 === 0)) hits++;
  return hits / width;
}

/** Until what the page just drew is on screen (a screencast starts with the current picture). */
const painted = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** The screencast's first frame, as the recorder would get it. */
async function screencastFrame(page: Page, resolution: Resolution): Promise<Buffer> {
  const frames: Buffer[] = [];
  const max = resolution === '1080p' ? { maxWidth: 1920, maxHeight: 1080 } : { maxWidth: 1280, maxHeight: 720 };
  const screencast = await startScreencast(page, { ...max, sink: async (jpeg) => void frames.push(jpeg) });
  await screencast.firstFrame();
  screencast.begin(Date.now(), 1);
  await screencast.stop();
  assert.equal(frames.length, 1);
  return frames[0]!;
}

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
  // One real browser per scale factor for the whole file: every slot's launch for a factor returns that factor's
  // browser while it lives (the pool closes it to launch another factor), so the file runs few Chromiums on this
  // 2-core machine; a killed browser is relaunched.
  const shared = new Map<number, Browser>();
  let launches = 0;
  const launch = async ({ deviceScaleFactor }: { deviceScaleFactor: number }) => {
    launches++;
    let browser = shared.get(deviceScaleFactor);
    if (!browser?.connected) {
      browser = await launchBrowser({ deviceScaleFactor });
      shared.set(deviceScaleFactor, browser);
    }
    return browser;
  };
  let pool: BrowserPool;
  let server: http.Server;
  let origin: string;

  before(async () => {
    pool = createBrowserPool({ size: 2, launch });
    server = http.createServer((request, response) => {
      const cookie = request.headers.cookie ?? '';
      response.setHeader('content-type', 'text/html');
      if (request.url === '/dialogs') {
        return void response.end(`<!doctype html><title>Nagging</title><h1 id="greeting">Hello</h1>
<script>alert('Welcome!'); document.title = confirm('Stay?') ? 'stayed' : 'answered'; onbeforeunload = () => 'Leave?';</script>`);
      }
      response.end(`<!doctype html><title>Fixture</title><h1 id="greeting">Hello</h1><p id="cookie">${cookie}</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await pool.close();
    await Promise.all([...shared.values()].map((browser) => browser.close().catch(() => undefined)));
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

  it('answers the dialogs a page opens, on load and later, so nothing waits on them', async () => {
    const outcome = await pool.withPage(desktop, async (page, ctx) => {
      await ctx.goto(`${origin}/dialogs`, { waitUntil: 'load', timeout: 5_000 });
      const later = await page.evaluate(() => prompt('Your name?'));
      return { title: await page.title(), later };
    });
    assert.deepEqual(outcome, { title: 'answered', later: null }, 'each dialog was dismissed');
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
    // The order jobs start in, not finish in: on a busy machine one page's setContent may take longer than another's
    // whole job (seen in a fresh clone's `make test` beside two recordings: job 2 finished before job 0).
    const order: number[] = [];
    // The first two jobs wait for each other (the second slot launches a browser, which a busy machine takes longer
    // over than a whole job): a pool that ran one job at a time would keep the first waiting out the 20 s.
    let bothStarted = () => {};
    const twoAtOnce = new Promise<void>((resolve) => (bothStarted = resolve));
    const jobs = [0, 1, 2, 3, 4].map((n) =>
      pool.withPage(desktop, async (page) => {
        order.push(n);
        running++;
        peak = Math.max(peak, running);
        if (running === 2) bothStarted();
        await page.setContent(`<p>${n}</p>`);
        await (n < 2 ? Promise.race([twoAtOnce, sleep(20_000)]) : sleep(150));
        running--;
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

  it('renders every viewport at device pixels: screencast frames at the output size, crisp, CSS size kept', async () => {
    const all: Array<[ViewportName, Resolution]> = [
      ['desktop', '720p'], ['desktop', '1080p'], ['tablet', '720p'], ['tablet', '1080p'], ['mobile', '720p'], ['mobile', '1080p'],
    ];
    for (const [viewport, resolution] of all) {
      const spec = viewportFor(viewport, resolution);
      const label = `${viewport} ${resolution}`;
      await pool.withPage({ ...desktop, viewport, resolution }, async (page) => {
        await page.setContent(STRIPES);
        await painted(page);
        const seen = await page.evaluate(() => ({ width: innerWidth, height: innerHeight, dpr: devicePixelRatio, touch: 'ontouchstart' in window, ua: navigator.userAgent }));
        assert.deepEqual([seen.width, seen.height], [spec.width, spec.height], label);
        assert.ok(Math.abs(seen.dpr - spec.deviceScaleFactor) < 1e-3, `${label}: devicePixelRatio ${seen.dpr}`);
        assert.equal(seen.touch, viewport !== 'desktop', label);
        assert.doesNotMatch(seen.ua, /Headless/);
        const frame = await screencastFrame(page, resolution);
        assert.deepEqual(jpegSize(frame), spec.frame, label);
        if (viewport === 'desktop') {
          // Drawn 1:1: every pixel of a stripe row is where it should be (captured at CSS size, about half are).
          const y = Math.round(60 * spec.deviceScaleFactor);
          assert.ok((await stripeMatch(frame, spec.frame.width, y)) > 0.98, `${label}: screencast frame not crisp`);
          const png = Buffer.from(await page.screenshot({ type: 'png' }));
          assert.deepEqual(pngSize(png), spec.frame, label);
          assert.ok((await stripeMatch(png, spec.frame.width, y)) > 0.98, `${label}: screenshot not crisp`);
          assert.match(seen.ua, /Windows NT 10\.0.*Chrome\/\d+\.0\.0\.0 Safari/);
        } else {
          assert.match(seen.ua, viewport === 'mobile' ? /iPhone/ : /iPad/);
        }
        if (viewport === 'mobile') assert.deepEqual(pngSize(await page.screenshot({ type: 'png' })), spec.frame, label);
      });
    }
  });

  it('keeps browsers per scale factor: reuses an idle one of the job’s factor, else replaces one, never more than `size`', async () => {
    const keyed = createBrowserPool({ size: 2, launch });
    try {
      const job = (viewport: ViewportName, resolution: Resolution) =>
        keyed.withPage({ ...desktop, viewport, resolution }, async (page) => page.evaluate(() => devicePixelRatio));
      const at720 = viewportFor('desktop', '720p').deviceScaleFactor;
      const at1080 = viewportFor('desktop', '1080p').deviceScaleFactor;
      const phone = viewportFor('mobile', '720p').deviceScaleFactor;
      await job('desktop', '720p');
      await job('desktop', '1080p'); // a slot with no browser yet: launched beside the 720p one
      assert.deepEqual(keyed.stats().scaleFactors, [at720, at1080]);
      assert.equal(keyed.stats().launches, 2);
      assert.ok(Math.abs((await job('desktop', '720p')) - at720) < 1e-3);
      assert.ok(Math.abs((await job('desktop', '1080p')) - at1080) < 1e-3);
      assert.equal(keyed.stats().launches, 2, 'both reused');
      // Both slots hold a browser: an idle one of another factor is closed and relaunched with this one.
      assert.ok(Math.abs((await job('mobile', '720p')) - phone) < 1e-3);
      assert.equal(keyed.stats().launches, 3);
      assert.equal(keyed.stats().browsers, 2);
      assert.equal(keyed.stats().scaleFactors.length, 2);
      assert.ok(keyed.stats().scaleFactors.includes(phone));
      // Two jobs of one factor at once: the second takes the other slot, whatever its factor.
      await Promise.all([job('mobile', '720p'), job('mobile', '720p')]);
      assert.deepEqual(keyed.stats().scaleFactors, [phone, phone]);
      assert.ok(keyed.stats().launches <= 4);
    } finally {
      await keyed.close();
    }
  });

  it('records a 1080p desktop demo from 1920×1080 frames, and 720p from 1280×720 ones', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-pool-'));
    try {
      for (const [resolution, size] of [['1080p', { width: 1920, height: 1080 }], ['720p', { width: 1280, height: 720 }]] as const) {
        const outFile = path.join(dir, `${resolution}.mp4`);
        const result = await pool.withPage({ ...desktop, resolution }, async (page) => {
          await page.setContent(STRIPES);
          await painted(page);
          return recordScript(
            page,
            { version: 1, url: origin, viewport: 'desktop', durationMs: 1000, templateId: 'plain-scroll', steps: [{ kind: 'wait', label: 'Look', startMs: 0, durationMs: 1000 }] },
            { format: 'mp4', resolution, outFile },
          );
        });
        assert.deepEqual(result.screencast.frameSize, size, resolution);
        assert.deepEqual(result.timeline.viewport.width, 1440);
        assert.ok(Math.abs(result.timeline.viewport.deviceScaleFactor - viewportFor('desktop', resolution).deviceScaleFactor) < 1e-3);
        const info = await probeVideo(outFile);
        assert.deepEqual([info.width, info.height], [size.width, size.height]);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('drops a crashed browser, fails its job as transient and relaunches for the next job', async () => {
    let launchesBefore = 0;
    await assert.rejects(
      pool.withPage(desktop, async (page, ctx) => {
        launchesBefore = launches;
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

  it('starts a job over once on a fresh plain page when its page stops drawing', async () => {
    const patient = createBrowserPool({ size: 1, launch, stuckFrameMs: 1500 });
    try {
      const pages: Page[] = [];
      const heading = await patient.withPage(desktop, async (page, ctx) => {
        pages.push(page);
        await ctx.goto(`${origin}/`);
        const control = frameControlOf(page);
        // The second try records with the realtime screencast: nothing to stop drawing.
        if (pages.length === 2) return page.$eval('#greeting', (element) => element.textContent);
        assert.ok(control, 'a frame-controlled job page');
        // The page's script paused in an animation frame: the frame waits on it for good, as a stuck one does.
        await page.evaluate('(function tick() { requestAnimationFrame(tick); })()');
        const debug = await page.createCDPSession();
        await debug.send('Debugger.enable');
        await debug.send('Debugger.pause');
        const driver = await control.takeOver();
        await driver.frame({ ticks: driver.lastTicks + 16, interval: 16 });
        return 'drawn after all';
      });
      assert.equal(heading, 'Hello');
      assert.equal(pages.length, 2, 'the job ran twice');
      assert.notEqual(pages[0], pages[1]);
      assert.ok(pages[0]!.isClosed(), 'the page that stopped drawing was closed');
      assert.equal(frameControlOf(pages[1]!), undefined, 'the second try is a plain page');
    } finally {
      await patient.close();
    }
  });

  it('refuses new jobs once closed', async () => {
    const closing = createBrowserPool({ size: 1, launch });
    await closing.close();
    await assert.rejects(closing.withPage(desktop, async () => 1), /closed/);
  });
});
