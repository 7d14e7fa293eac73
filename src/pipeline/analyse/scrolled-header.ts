import type { Page } from 'puppeteer-core';
import { evaluateInPage } from './in-page.js';

export interface HeaderProbeOptions {
  /** Always waited after the scroll, for scroll handlers that are throttled or debounced. Default 200 ms. */
  minMs?: number;
  /** The longest wait for the header's change and its transition. Default 450 ms. */
  maxMs?: number;
}

/** The bars must keep their place this long (and nothing on them animate) before they are taken as settled. */
const STILL_MS = 100;
/** how often the bars are looked at while they settle */
const POLL_MS = 40;

/**
 * The height of a header that only sticks once the page scrolls. Many real pages start with a header in the flow
 * (or transparent over the hero) and fix it to the top when the visitor scrolls (a class a scroll handler adds), so
 * the outline, read at the top of the page, saw no sticky header, and every shot put its heading under the bar.
 * Scrolls a screen and a half down, lets the handler and its transition run, measures the bars fixed to the top
 * edge, and scrolls back to the top (without waiting there: whoever reads the page at the top waits for it).
 *
 * The wait ends once the bars have kept their place for STILL_MS with no transition or animation running on them,
 * but never before minMs (a handler run after a pause in scrolling) nor after maxMs: most headers are settled well
 * before the fixed 450 ms this used to wait, and a header that slides in is waited for until it is in.
 */
export async function headerHeightAfterScroll(page: Page, options: HeaderProbeOptions = {}): Promise<number> {
  return evaluateInPage(page, probeInPage, { minMs: options.minMs ?? 200, maxMs: options.maxMs ?? 450, stillMs: STILL_MS, pollMs: POLL_MS });
}

/** Runs in the page: self-contained. */
async function probeInPage(options: { minMs: number; maxMs: number; stillMs: number; pollMs: number }): Promise<number> {
  const scroller = document.scrollingElement ?? document.documentElement;
  const y = Math.min(window.innerHeight * 1.5, Math.max(0, document.documentElement.scrollHeight - window.innerHeight));
  if (y <= 0) return 0;
  scroller.scrollTo({ top: y, behavior: 'instant' as ScrollBehavior });
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const pinned = (el: Element) => {
    const position = getComputedStyle(el).position;
    return position === 'fixed' || position === 'sticky';
  };
  // The bottom of the bars fixed across the top edge: not a side menu, a chat bubble or a full-screen layer.
  const barsBottom = (): number => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    let bottom = 0;
    for (const el of Array.from(document.body ? document.body.querySelectorAll('*') : [])) {
      if (!pinned(el)) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) < 0.1) continue;
      const r = el.getBoundingClientRect();
      if (r.width < vw * 0.5 || r.height <= 0 || r.height > vh * 0.3 || r.top > 2 || r.bottom <= 0) continue;
      bottom = Math.max(bottom, Math.round(r.bottom));
    }
    return bottom;
  };
  // A finite transition or animation running on a pinned element or inside one (a header sliding in, shrinking, fading).
  const barAnimating = (): boolean => {
    if (typeof document.getAnimations !== 'function') return false;
    return document.getAnimations().some((animation) => {
      const effect = animation.effect as KeyframeEffect | null;
      const timing = effect?.getComputedTiming();
      if (animation.playState !== 'running' || !timing || !Number.isFinite(Number(timing.endTime))) return false;
      for (let el = effect?.target ?? null, depth = 0; el && depth < 12; el = el.parentElement, depth++) if (pinned(el)) return true;
      return false;
    });
  };
  const started = performance.now();
  let bottom = barsBottom();
  let stillSince = started;
  for (;;) {
    await wait(options.pollMs);
    const now = performance.now();
    const next = barsBottom();
    if (next !== bottom || barAnimating()) stillSince = now;
    bottom = next;
    if (now - started >= options.maxMs) break;
    if (now - started >= options.minMs && now - stillSince >= options.stillMs) break;
  }
  scroller.scrollTo({ top: 0, behavior: 'instant' as ScrollBehavior });
  return bottom;
}
