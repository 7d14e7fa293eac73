import type { Page } from 'puppeteer-core';
import { evaluateInPage } from './in-page.js';

export interface LazyScrollOptions {
  /** Pause per step, long enough for IntersectionObservers and lazy images to react. Default 200 ms. */
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
 * Scrolls through the page once, a step at a time, so that lazy images load, scroll-triggered animations run and
 * infinite sections grow; then waits briefly for the images it triggered and returns to the top.
 */
export async function scrollThroughPage(page: Page, options: LazyScrollOptions = {}): Promise<LazyScrollResult> {
  return evaluateInPage(page, scrollThroughPageInPage, {
    stepMs: options.stepMs ?? 200,
    maxMs: options.maxMs ?? 4000,
    imageWaitMs: options.imageWaitMs ?? 1500,
  });
}

export async function scrollThroughPageInPage(options: { stepMs: number; maxMs: number; imageWaitMs: number }): Promise<LazyScrollResult> {
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const scroller = document.scrollingElement ?? document.documentElement;
  const height = () => Math.max(scroller.scrollHeight, document.body ? document.body.scrollHeight : 0);
  const to = (top: number) => (document.scrollingElement ?? document.documentElement).scrollTo({ top, left: 0, behavior: 'instant' as ScrollBehavior });
  const vh = window.innerHeight;
  const started = performance.now();
  const maxSteps = Math.max(1, Math.floor(options.maxMs / options.stepMs));
  let steps = 0;
  let y = window.scrollY;
  while (performance.now() - started < options.maxMs) {
    const remaining = height() - vh - y;
    if (remaining <= 1) break;
    // At most ~0.85 of a viewport per step (nothing skipped), bigger steps when the page is too long for the cap.
    const stepsLeft = Math.max(1, maxSteps - steps);
    const step = Math.max(vh * 0.85, remaining / stepsLeft);
    y = Math.min(y + step, height() - vh);
    to(y);
    steps++;
    await wait(options.stepMs);
  }

  // Images the pass set off (lazy src swaps, loading="lazy"): give them a moment.
  const pending = () =>
    Array.from(document.images).filter((img) => !img.complete && (img.currentSrc || img.getAttribute('src')));
  const until = performance.now() + options.imageWaitMs;
  while (pending().length > 0 && performance.now() < until) await wait(50);

  to(0);
  await wait(Math.min(250, options.stepMs));
  return {
    steps,
    elapsedMs: Math.round(performance.now() - started),
    documentHeight: height(),
    pendingImages: pending().length,
  };
}
