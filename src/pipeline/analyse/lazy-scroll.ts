import type { Page } from 'puppeteer-core';
import { evaluateInPage, sleep } from './in-page.js';

export interface LazyScrollOptions {
  /**
   * The longest pause per step, for IntersectionObservers and lazy images to react. A step moves on as soon as the
   * page's network has been quiet for QUIET_MS (nothing the step set off is still loading). Default 200 ms.
   */
  stepMs?: number;
  /** The whole pass is capped at this (longer pages take bigger steps). Default 4000 ms. */
  maxMs?: number;
  /** After the pass, wait at most this long for images that started loading. Default 1500 ms. */
  imageWaitMs?: number;
}

export interface LazyScrollResult {
  steps: number;
  elapsedMs: number;
  documentHeight: number;
  /** Images still loading when the wait ran out. */
  pendingImages: number;
}

/**
 * How long the network must be quiet after a step before the next: an IntersectionObserver fires within a frame of
 * the scroll, and what it loads (a lazy image's src, a fetch for more content) is in flight well before this. A
 * step on a page whose network never rests (a stream, a poll) waits its whole stepMs, as every step did before.
 */
const QUIET_MS = 60;
/** at the bottom of the page, the quiet waited for before the pass ends */
const BOTTOM_QUIET_MS = 150;

/**
 * Scrolls through the page once, a step at a time, so that lazy images load, scroll-triggered animations run and
 * infinite sections grow; then waits briefly for the images it triggered and returns to the top. Each step waits
 * only as long as what it set off is loading (at most stepMs): on a page whose lazy content is at hand, the pass
 * takes a third of the time it took at a fixed 200 ms a step.
 */
export async function scrollThroughPage(page: Page, options: LazyScrollOptions = {}): Promise<LazyScrollResult> {
  const stepMs = options.stepMs ?? 200;
  const maxMs = options.maxMs ?? 4000;
  const imageWaitMs = options.imageWaitMs ?? 1500;
  const started = Date.now();
  const maxSteps = Math.max(1, Math.floor(maxMs / stepMs));
  let steps = 0;
  let atBottom = false;
  while (Date.now() - started < maxMs) {
    const moved = await evaluateInPage(page, scrollStepInPage, { stepsLeft: Math.max(1, maxSteps - steps) });
    if (!moved) {
      // At the bottom, an infinite section's observer can fire a moment late (seen on a busy machine: the pass had
      // ended before the second batch was asked for). One quiet moment more, and on down if the page grew.
      if (atBottom) break;
      atBottom = true;
      await page.waitForNetworkIdle({ idleTime: BOTTOM_QUIET_MS, concurrency: 0, timeout: stepMs * 2 }).catch(() => undefined);
      continue;
    }
    atBottom = false;
    steps++;
    const stepStarted = Date.now();
    await page.waitForNetworkIdle({ idleTime: QUIET_MS, concurrency: 0, timeout: stepMs }).catch(() => undefined);
    // At least a few frames, for observers and scroll handlers that react on the next frame without loading anything.
    await sleep(Math.max(0, Math.min(stepMs, QUIET_MS) - (Date.now() - stepStarted)));
  }
  const ended = await evaluateInPage(page, afterPassInPage, { imageWaitMs, settleMs: Math.min(250, stepMs) });
  return { steps, elapsedMs: Date.now() - started, ...ended };
}

/** One step down: at most ~0.85 of a viewport (nothing skipped), bigger when the page is too long for the cap. */
function scrollStepInPage(options: { stepsLeft: number }): boolean {
  const scroller = document.scrollingElement ?? document.documentElement;
  const height = Math.max(scroller.scrollHeight, document.body ? document.body.scrollHeight : 0);
  const vh = window.innerHeight;
  const y = scroller.scrollTop;
  const remaining = height - vh - y;
  if (remaining <= 1) return false;
  const step = Math.max(vh * 0.85, remaining / options.stepsLeft);
  scroller.scrollTo({ top: Math.min(y + step, height - vh), left: 0, behavior: 'instant' as ScrollBehavior });
  return true;
}

/** Images the pass set off (lazy src swaps, loading="lazy"): a moment for them; then back to the top. */
async function afterPassInPage(options: { imageWaitMs: number; settleMs: number }): Promise<{ documentHeight: number; pendingImages: number }> {
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const scroller = document.scrollingElement ?? document.documentElement;
  // Only images laid out: a lazy image in a hidden part (a closed tab, a collapsed menu) does not load until it shows.
  const pending = () =>
    Array.from(document.images).filter((img) => !img.complete && (img.currentSrc || img.getAttribute('src')) && img.getClientRects().length > 0);
  const until = performance.now() + options.imageWaitMs;
  while (pending().length > 0 && performance.now() < until) await wait(50);
  scroller.scrollTo({ top: 0, left: 0, behavior: 'instant' as ScrollBehavior });
  await wait(options.settleMs);
  return { documentHeight: Math.max(scroller.scrollHeight, document.body ? document.body.scrollHeight : 0), pendingImages: pending().length };
}
