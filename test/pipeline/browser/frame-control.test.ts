import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { closeFrameControlledPage, frameControlOf, FrameStuckError, monotonicMs, openFrameControlledPage } from '../../../src/pipeline/browser/frame-control.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';

/**
 * A page that stops drawing: its script is paused in the debugger inside an animation frame, so the frame we issue
 * waits on a main thread that never answers (as the frame that never completed under load on a page with a large
 * animated GIF, tm-diamond, did for good).
 */
async function stopDrawing(page: Page): Promise<() => Promise<void>> {
  await page.setContent('<h1>Drawing</h1><script>let n = 0; (function tick() { n++; requestAnimationFrame(tick); })();</script>');
  const debug = await page.createCDPSession();
  await debug.send('Debugger.enable');
  await debug.send('Debugger.pause');
  return async () => {
    await debug.send('Debugger.resume').catch(() => undefined);
    await debug.detach().catch(() => undefined);
  };
}

describe('frame control of a page that stops drawing', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser({ allowPrivate: true });
  });
  after(async () => {
    await browser.close();
  });

  it('says so within the limit, instead of the protocol\'s minute, and refuses every frame after it at once', async () => {
    const page = await openFrameControlledPage(browser, null, { stuckFrameMs: 1500 });
    const resume = await stopDrawing(page);
    const control = frameControlOf(page)!;
    const started = Date.now();
    // The idle display's frame is the one that hangs, or ours: either way the take is told, not left waiting.
    await assert.rejects(async () => {
      const driver = await control.takeOver();
      await driver.frame({ ticks: monotonicMs(), interval: 16 });
    }, (error: unknown) => error instanceof FrameStuckError && error.transient && /stopped drawing the page/.test(error.message));
    const waited = Date.now() - started;
    assert.ok(waited >= 1400 && waited < 15_000, `told after ${waited} ms`);
    const again = Date.now();
    await assert.rejects(control.takeOver(), FrameStuckError);
    assert.ok(Date.now() - again < 500, 'a stuck page is refused at once');
    await resume();
    const closing = Date.now();
    await closeFrameControlledPage(page);
    assert.ok(page.isClosed());
    assert.ok(Date.now() - closing < 8000, 'closing is bounded');
  });

  it('leaves the browser able to draw a fresh page', async () => {
    const page = await openFrameControlledPage(browser, null);
    try {
      await page.setContent('<h1 style="font:48px sans-serif">Fresh</h1>');
      const driver = await frameControlOf(page)!.takeOver();
      const shot = await driver.frame({ ticks: driver.lastTicks + 16, interval: 16, screenshot: { quality: 80 } });
      driver.release();
      assert.ok(shot.jpeg && shot.jpeg.length > 1000, 'a picture of the fresh page');
    } finally {
      await closeFrameControlledPage(page);
    }
  });
});
