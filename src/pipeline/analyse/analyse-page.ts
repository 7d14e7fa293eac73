import type { Page } from 'puppeteer-core';
import type { PageOutline } from '../types.js';
import { dismissOverlays } from './dismiss-overlays.js';
import { evaluateInPage, retryAfterNavigation, sleep } from './in-page.js';
import { releaseInnerScroller } from './inner-scroller.js';
import { scrollThroughPage } from './lazy-scroll.js';
import { extractOutline } from './outline.js';
import { headerHeightAfterScroll } from './scrolled-header.js';

export interface AnalysePageOptions {
  /** The whole analysis must finish within this. Default 30 s. */
  timeoutMs?: number;
}

/** What the pipeline stores in `snapshots`. */
export interface PageSnapshot {
  url: string;
  title: string;
  capturedAt: string;
  documentHeight: number;
  sectionCount: number;
  dismissedOverlays: string[];
}

export interface PageAnalysis {
  outline: PageOutline;
  snapshot: PageSnapshot;
}

export class PageAnalysisTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The page could not be analysed within ${Math.round(timeoutMs / 1000)} s.`);
    this.name = 'PageAnalysisTimeoutError';
  }
}

/**
 * Analyses a page the caller has already navigated (with its own SSRF checks): waits until it is quiet, dismisses
 * cookie banners and popups, scrolls through it once for lazy content, returns to the top, then extracts the outline.
 */
export async function analysePage(page: Page, options: AnalysePageOptions = {}): Promise<PageAnalysis> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageAnalysisTimeoutError(timeoutMs)), timeoutMs);
  });
  // A page that alerts/confirms would block every evaluation; answer dialogs while we look.
  const onDialog = (dialog: { dismiss(): Promise<void> }) => void dialog.dismiss().catch(() => undefined);
  page.on('dialog', onDialog);
  try {
    return await Promise.race([run(page, timeoutMs), timeout]);
  } finally {
    clearTimeout(timer);
    page.off('dialog', onDialog);
  }
}

export interface PreparedPage {
  /** One description per overlay dismissed. */
  dismissed: string[];
  /** The height of the header that sticks once the page scrolls (when asked for: `probeHeader`), else 0. */
  scrolledHeader: number;
}

/**
 * Brings a freshly opened page to the state a recording starts from: quiet, overlays dismissed, lazy content
 * loaded by one pass down the page, animations settled. The analysis does this before reading the page, and a
 * restyle (which replays a stored script without analysing again) does it too, so it records the same page: the
 * cookie banner the first recording dismissed is not on the second. With `probeHeader`, also measures the header
 * as it is once the page scrolls (headerHeightAfterScroll), before the pass down the page, whose own scrolling and
 * return to the top give the header its time to come back.
 */
export async function preparePage(page: Page, timeoutMs = 30_000, options: { probeHeader?: boolean } = {}): Promise<PreparedPage> {
  const budget = (share: number, cap: number) => Math.max(200, Math.min(cap, timeoutMs * share));
  const probeHeader = () => retryAfterNavigation(page, () => headerHeightAfterScroll(page)).catch(() => 0);
  await settle(page, budget(0.2, 5000));
  // A page that scrolls inside one big box is made to scroll as a document, as the recorder and camera move it.
  await retryAfterNavigation(page, () => releaseInnerScroller(page)).catch(() => null);
  // What covers the page now goes first; the pass down the page then runs while popups that come after a delay
  // (newsletter modals, consent bars sliding in) have time to appear, instead of after a wait for them: a popup over
  // the page does not stop a scroll made by script, and the look after the pass waits, as the first look used to,
  // until the page is old enough for them.
  const dismissed = await dismissOverlays(page, { settleMs: 0, maxWaitMs: 0 });
  let scrolledHeader = options.probeHeader ? await probeHeader() : 0;
  await retryAfterNavigation(page, () =>
    scrollThroughPage(page, { stepMs: 200, maxMs: budget(0.15, 4000), imageWaitMs: budget(0.05, 1500) }),
  );
  // Popups that came after a delay, that wait for scrolling, or for the first one to close.
  const late = await dismissOverlays(page, { settleMs: 1200, maxWaitMs: 1500 });
  dismissed.push(...late);
  if (options.probeHeader && late.length > 0) {
    // A bar dismissed only now (a consent bar that slid in at the top) may have been measured as the header.
    scrolledHeader = await probeHeader();
    // back at the top: the page's scroll handler runs on its next frame, and its transition is waited for below
    await sleep(150);
  }
  await waitForAnimations(page, budget(0.05, 1200));
  return { dismissed, scrolledHeader };
}

async function run(page: Page, timeoutMs: number): Promise<PageAnalysis> {
  const { dismissed, scrolledHeader } = await preparePage(page, timeoutMs, { probeHeader: true });
  const outline = await retryAfterNavigation(page, () => extractOutline(page, { dismissedOverlays: dismissed }));
  // A header that sticks only once the page scrolls covers every shot below the top as much as one fixed from the
  // start does.
  if (scrolledHeader > outline.stickyHeaderHeight) outline.stickyHeaderHeight = scrolledHeader;
  return {
    outline,
    snapshot: {
      url: outline.url,
      title: outline.title,
      capturedAt: new Date().toISOString(),
      documentHeight: outline.documentHeight,
      sectionCount: outline.sections.length,
      dismissedOverlays: dismissed,
    },
  };
}

/** Network idle-ish, document loaded, fonts ready — each bounded, none fatal. */
async function settle(page: Page, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  const left = () => Math.max(100, until - Date.now());
  await page
    .waitForFunction('document.readyState === "complete"', { timeout: left(), polling: 100 })
    .catch(() => undefined);
  await page.waitForNetworkIdle({ idleTime: 300, concurrency: 0, timeout: left() }).catch(() => undefined);
  await evaluateInPage(
    page,
    async (ms: number) => {
      const fonts = (document as Document & { fonts?: FontFaceSet }).fonts;
      if (!fonts) return;
      await Promise.race([fonts.ready, new Promise((resolve) => setTimeout(resolve, ms))]);
    },
    Math.min(2000, left()),
  ).catch(() => undefined);
}

/** Lets finite CSS transitions/animations (scroll reveals) finish, so rects are where elements come to rest. */
async function waitForAnimations(page: Page, maxMs: number): Promise<void> {
  await evaluateInPage(
    page,
    async (ms: number) => {
      if (typeof document.getAnimations !== 'function') return;
      const finite = document.getAnimations().filter((a) => {
        const timing = a.effect?.getComputedTiming();
        return a.playState === 'running' && timing && timing.endTime !== Infinity && Number.isFinite(Number(timing.endTime));
      });
      if (finite.length === 0) return;
      await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, ms))]);
    },
    maxMs,
  ).catch(() => undefined);
  await sleep(50);
}
