import type { Browser, BrowserContext, GoToOptions, HTTPResponse, Page, Target } from 'puppeteer-core';
import type { CheckUrlResult, LookupAll } from '../../platform/network/ssrf-guard.js';
import type { Logger } from '../../platform/logger.js';
import type { Resolution, ViewportName } from '../types.js';
import { closeFrameControlledPage, FrameControlBusyError, FrameStuckError, openFrameControlledPage } from './frame-control.js';
import { egressProxyOf, launchBrowser } from './launch.js';
import { markRecorderPage } from './recorder-mark.js';
import { assertFramesAllowed, gotoChecked, guardPage, type RequestGuard } from './request-guard.js';
import { viewportFor, type ViewportSpec } from './viewports.js';

/**
 * A small pool of Chromium browsers, reused across jobs: at most `size` browsers in all (one per slot; size is the
 * worker's concurrency), launched on first use. A browser is launched for one device scale factor
 * (`--force-device-scale-factor`, browser-wide; see viewports.ts for why the factor is not emulated per page), so
 * browsers are kept per factor: a job takes an idle browser of its viewport's factor when there is one, else a slot
 * with no browser, else an idle browser of another factor, which is closed and relaunched with the job's factor.
 * Each job gets a fresh incognito context and one page in it, with the viewport set (CSS size, mobile and touch
 * emulation; no scale override), the SSRF request guard installed and the browser's egress proxy (launch.ts) set
 * to the job's policy, its frames driven from here (frame-control.ts: an idle pump paints it like a display until
 * the recorder captures it frame by frame); before the job's result leaves, every frame's URL is checked
 * (assertFramesAllowed), and marked as the recorder's (recorder-mark.ts: Showreel's own embeds stand down). The page and the context are closed on every path (success, throw, timeout), so nothing —
 * cookies, storage, cache — leaks from one job to the next. A browser that crashed or disconnected is dropped and
 * relaunched by the next job; the job it broke fails with
 * BrowserCrashedError, a transient fault the worker retries. Browsers are recycled after `maxJobsPerBrowser` jobs,
 * as long-lived Chromium processes grow.
 */
export interface BrowserPoolOptions {
  size: number;
  /**
   * Launches one browser; default launchBrowser. It should pass `deviceScaleFactor` on as
   * `--force-device-scale-factor`: a browser whose pages report another devicePixelRatio gets the factor emulated
   * per page instead, which lays pages out right but makes screencast frames CSS-sized (upscaled by the encoder).
   */
  launch?: (options: { deviceScaleFactor: number }) => Promise<Browser>;
  logger?: Logger;
  /** Relaunch a browser after this many jobs; default 50. */
  maxJobsPerBrowser?: number;
  /**
   * Open job pages frame-controlled (default true), so the recorder captures every frame on demand; false: plain
   * pages, recorded with the realtime screencast. A browser that cannot (not launched with FRAME_CONTROL_FLAGS,
   * not the headless shell) gets plain pages either way, with a warning.
   */
  frameControl?: boolean;
  /** How long a frame may take before its page is held to have stopped drawing (default 10 s; tests). */
  stuckFrameMs?: number;
  /** Resolver for the SSRF checks (tests); defaults to dns.lookup. */
  lookup?: LookupAll;
  /**
   * Exact `host:port` targets let through although private (tests: the fixture site on one loopback port, while
   * canaries on other loopback ports stay refused). Empty in production.
   */
  allowTargets?: readonly string[];
}

export interface WithPageOptions {
  viewport: ViewportName;
  resolution: Resolution;
  allowPrivate: boolean;
  /** The whole job's budget; when it runs out the page is closed and withPage rejects with PageTimeoutError. */
  timeoutMs?: number;
  /**
   * The pixel size the recording will be captured at (default the output's): the browser's scale factor is chosen
   * so the viewport renders at that size (viewportFor's `frame`), as frame capture screenshots the page as rendered.
   */
  captureSize?: { width: number; height: number };
}

export interface PageContext {
  browser: Browser;
  context: BrowserContext;
  viewport: ViewportSpec;
  guard: RequestGuard;
  /** Aborted when the job's time runs out (the page is being closed). */
  signal: AbortSignal;
  /** page.goto after the SSRF check of the URL itself: a refused URL throws a ValidationError. */
  goto(url: string, options?: GoToOptions): Promise<HTTPResponse | null>;
}

export interface BrowserPool {
  withPage<T>(options: WithPageOptions, fn: (page: Page, ctx: PageContext) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** For logs and tests. `scaleFactors`: the factor of each slot's live browser, in slot order. */
  stats(): { size: number; busy: number; waiting: number; browsers: number; launches: number; scaleFactors: number[] };
}

/** The browser died under a job (crash, OOM kill, lost connection): transient, retry the job. */
export class BrowserCrashedError extends Error {
  readonly transient = true;
  constructor(cause: unknown) {
    super('The browser crashed while recording the page.', { cause });
    this.name = 'BrowserCrashedError';
  }
}

/** The job ran out of time; its page and context were closed. Transient. */
export class PageTimeoutError extends Error {
  readonly transient = true;
  constructor(readonly timeoutMs: number) {
    super(`The page did not finish within ${Math.round(timeoutMs / 1000)} s.`);
    this.name = 'PageTimeoutError';
  }
}

interface Slot {
  index: number;
  busy: boolean;
  browser: Browser | null;
  /** the factor `browser` was launched for */
  scaleFactor: number | null;
  /** whether `browser` renders at scaleFactor by itself; undefined until its first page tells */
  nativeScale: boolean | undefined;
  chromeMajor: number | undefined;
  jobs: number;
}

interface Waiter {
  scaleFactor: number;
  resolve(slot: Slot): void;
  reject(error: Error): void;
}

const closeBudgetMs = 5_000;

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError('Browser pool size must be a positive integer.');
  const logger = options.logger;
  const launch = options.launch ?? ((launchOptions: { deviceScaleFactor: number }) => launchBrowser({ ...launchOptions, logger }));
  const maxJobs = options.maxJobsPerBrowser ?? 50;
  const slots: Slot[] = Array.from({ length: options.size }, (_, index) => ({
    index, busy: false, browser: null, scaleFactor: null, nativeScale: undefined, chromeMajor: undefined, jobs: 0,
  }));
  const waiters: Waiter[] = [];
  const frameControl = options.frameControl ?? true;
  /** browsers that refused a frame-controlled page: plain pages from then on */
  const plainOnly = new WeakSet<Browser>();
  const newJobPage = async (browser: Browser, context: BrowserContext, slot: Slot): Promise<Page> => {
    if (!frameControl || plainOnly.has(browser)) return context.newPage();
    try {
      return await openFrameControlledPage(browser, context, options.stuckFrameMs ? { stuckFrameMs: options.stuckFrameMs } : {});
    } catch (error) {
      if (!browser.connected) throw error;
      // A browser shared between slots (tests) drives one page's frames at a time; the other job gets a plain page.
      if (error instanceof FrameControlBusyError) return context.newPage();
      plainOnly.add(browser);
      logger?.warn({ slot: slot.index, err: error }, 'browser cannot drive frames; recording with the realtime screencast');
      return context.newPage();
    }
  };
  let closed = false;
  let launches = 0;

  const reusable = (slot: Slot, scaleFactor: number) =>
    slot.browser !== null && slot.browser.connected && slot.scaleFactor === scaleFactor && slot.jobs < maxJobs;

  /** The free slot a job of this factor should take: its factor's idle browser, an empty slot, then any. */
  const pick = (scaleFactor: number): Slot | undefined => {
    const free = slots.filter((slot) => !slot.busy);
    return (
      free.find((slot) => reusable(slot, scaleFactor)) ??
      free.find((slot) => !slot.browser?.connected) ??
      free.find((slot) => slot.scaleFactor === scaleFactor) ?? // due for recycling anyway
      free[0]
    );
  };

  const acquire = (scaleFactor: number): Promise<Slot> => {
    if (closed) return Promise.reject(new Error('The browser pool is closed.'));
    const free = pick(scaleFactor);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise<Slot>((resolve, reject) => waiters.push({ scaleFactor, resolve, reject }));
  };

  // Waiters are served in order (a job never waits behind later ones of a luckier factor); while anyone waits,
  // every slot is busy, so the slot just released is the one to hand over, relaunched for the waiter's factor if
  // need be.
  const release = (slot: Slot) => {
    const next = waiters.shift();
    if (next) next.resolve(slot); // stays busy, handed over
    else slot.busy = false;
  };

  const browserFor = async (slot: Slot, scaleFactor: number): Promise<Browser> => {
    const current = slot.browser;
    if (current && reusable(slot, scaleFactor)) return current;
    if (current) {
      slot.browser = null;
      await closeBrowser(current);
    }
    launches++;
    slot.scaleFactor = null;
    const browser = await launch({ deviceScaleFactor: scaleFactor });
    browser.once('disconnected', () => {
      if (slot.browser === browser) slot.browser = null;
    });
    slot.browser = browser;
    slot.scaleFactor = scaleFactor;
    slot.nativeScale = undefined;
    slot.jobs = 0;
    slot.chromeMajor = Number(/\/(\d+)\./.exec(await browser.version())?.[1]) || undefined;
    return browser;
  };

  const withPage = async <T>(pageOptions: WithPageOptions, fn: (page: Page, ctx: PageContext) => Promise<T>): Promise<T> => {
    const { deviceScaleFactor } = viewportFor(pageOptions.viewport, pageOptions.resolution, { frame: pageOptions.captureSize });
    const slot = await acquire(deviceScaleFactor);
    try {
      return await runJob(slot, deviceScaleFactor, pageOptions, fn);
    } catch (error) {
      if (!stoppedDrawing(error)) throw error;
      // The page stopped drawing (a frame never completed; see FrameStuckError): its target takes no frame again.
      // The job's work starts over once, on a fresh plain page in a fresh context (the first one closed), recorded
      // with the realtime screencast: a fresh frame-controlled page of the same site on the same loaded machine
      // stopped again in 1 of 2 tries (tm-diamond beside a recorded eval), a plain page never does.
      logger?.warn({ slot: slot.index }, 'the page stopped drawing; the job starts over once on a plain page (realtime screencast)');
      return await runJob(slot, deviceScaleFactor, pageOptions, fn, { plain: true });
    } finally {
      release(slot);
    }
  };

  const runJob = async <T>(
    slot: Slot,
    deviceScaleFactor: number,
    pageOptions: WithPageOptions,
    fn: (page: Page, ctx: PageContext) => Promise<T>,
    { plain = false }: { plain?: boolean } = {},
  ): Promise<T> => {
    const browser = await browserFor(slot, deviceScaleFactor);
    slot.jobs++;
    // The browser's egress proxy takes this job's policy (a browser serves one job at a time). A browser without one
    // could reach private addresses below the request guard, so it only records with private addresses allowed.
    const egress = egressProxyOf(browser);
    if (!egress && !pageOptions.allowPrivate) {
      throw new Error('This browser was not launched with an egress proxy (launchBrowser); it cannot record with private addresses refused.');
    }
    const policy = { allowPrivate: pageOptions.allowPrivate, lookup: options.lookup, allowTargets: options.allowTargets };
    egress?.setPolicy(policy);
    egress?.resetStats();
    const controller = new AbortController();
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    let guard: RequestGuard | undefined;
    let pageCrashed = false;
    let popupsClosed = 0;
    const onTarget = (target: Target) => {
      // launchBrowser blocks new tabs; with another launcher a popup is closed at once (it is not recorded, and its
      // requests would not pass through this page's guard).
      if (target.type() !== 'page') return;
      void target.page().then(async (popup) => {
        if (popup && popup !== page) {
          popupsClosed++;
          await popup.close();
        }
      }).catch(() => undefined);
    };
    try {
      context = await browser.createBrowserContext();
      page = plain ? await context.newPage() : await newJobPage(browser, context, slot);
      // Before the page loads anything: it is Showreel's recorder (sdk.js stands down, embeds are hidden).
      await markRecorderPage(page);
      // alert(), confirm(), prompt() and beforeunload block the page until answered: one on load held navigation
      // until its timeout (then the job failed as "did not load"), one later froze the recording. Nobody watches a
      // job's page, so each is dismissed as it opens, for the page's whole life.
      page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
      context.on('targetcreated', onTarget);
      page.once('error', () => {
        pageCrashed = true; // the renderer died
      });
      const viewport = viewportFor(pageOptions.viewport, pageOptions.resolution, { chromeMajor: slot.chromeMajor, frame: pageOptions.captureSize });
      const metrics = {
        width: viewport.width,
        height: viewport.height,
        isMobile: viewport.isMobile,
        hasTouch: viewport.hasTouch,
        isLandscape: viewport.isLandscape,
      };
      // 0: no scale override, the browser's own factor (its launch flag) applies.
      await page.setViewport({ ...metrics, deviceScaleFactor: 0 });
      if (slot.nativeScale === undefined) {
        const dpr = await page.evaluate(() => window.devicePixelRatio);
        slot.nativeScale = Math.abs(dpr - viewport.deviceScaleFactor) < 1e-3;
        if (!slot.nativeScale) {
          logger?.warn(
            { slot: slot.index, devicePixelRatio: dpr, wanted: viewport.deviceScaleFactor },
            'browser was not launched with the scale factor; emulating it (screencast frames will be CSS-sized)',
          );
        }
      }
      if (!slot.nativeScale) await page.setViewport({ ...metrics, deviceScaleFactor: viewport.deviceScaleFactor });
      await page.setUserAgent({ userAgent: viewport.userAgent, userAgentMetadata: viewport.userAgentMetadata, platform: viewport.platform });
      const hostCache = new Map<string, Promise<CheckUrlResult>>();
      guard = await guardPage(page, { ...policy, hostCache, egressProxyPort: egress?.port });
      const jobPage = page;
      const ctx: PageContext = {
        browser,
        context,
        viewport,
        guard,
        signal: controller.signal,
        goto: (url, gotoOptions = {}) => gotoChecked(jobPage, url, { ...gotoOptions, ...policy }),
      };
      const result = await withTimeout(fn(page, ctx), pageOptions.timeoutMs, controller);
      guard.assertClean();
      // Before anything recorded leaves this function (and is published): where did the page end up?
      await assertFramesAllowed(page, { ...policy, hostCache });
      return result;
    } catch (error) {
      if (error instanceof PageTimeoutError) throw error;
      if (!browser.connected || pageCrashed) throw new BrowserCrashedError(error);
      throw error;
    } finally {
      context?.off('targetcreated', onTarget);
      guard?.dispose();
      if (guard && (guard.stats.blocked > 0 || guard.stats.unresolved > 0 || guard.violations.length > 0 || popupsClosed > 0)) {
        logger?.info({ ssrf: guard.stats, violations: guard.violations, popupsClosed }, 'requests refused by the SSRF guard');
      }
      if (egress && egress.stats.refused > 0) {
        logger?.info({ refused: egress.stats.refused, targets: egress.stats.refusedTargets }, 'connections refused by the egress proxy');
      }
      await cleanUp(slot, browser, context, page);
      egress?.setPolicy({ allowPrivate: false }); // between jobs nothing is allowed
    }
  };

  /** Page, then context; a browser that cannot close them in time is not trusted with another job. */
  const cleanUp = async (slot: Slot, browser: Browser, context: BrowserContext | undefined, page: Page | undefined) => {
    if (!browser.connected) return;
    let clean = true;
    if (page && !page.isClosed()) clean = (await settleWithin(closeFrameControlledPage(page), closeBudgetMs)) && clean;
    if (context) clean = (await settleWithin(context.close(), closeBudgetMs)) && clean;
    if (!clean && browser.connected) {
      logger?.warn({ slot: slot.index }, 'browser did not close a job page in time; relaunching it');
      if (slot.browser === browser) slot.browser = null;
      await closeBrowser(browser);
    }
  };

  return {
    withPage,
    stats() {
      return {
        size: slots.length,
        busy: slots.filter((slot) => slot.busy).length,
        waiting: waiters.length,
        browsers: slots.filter((slot) => slot.browser?.connected).length,
        launches,
        scaleFactors: slots.flatMap((slot) => (slot.browser?.connected && slot.scaleFactor !== null ? [slot.scaleFactor] : [])),
      };
    },
    async close() {
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error('The browser pool is closed.'));
      const browsers = new Set(slots.map((slot) => slot.browser).filter((b): b is Browser => b !== null));
      for (const slot of slots) slot.browser = null;
      await Promise.all([...browsers].map((browser) => closeBrowser(browser)));
    },
  };
}

/** The error, or one it was caused by, says the page stopped drawing. */
function stoppedDrawing(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof FrameStuckError) return true;
  }
  return false;
}

/** Close gracefully, else kill the process. Never throws. */
async function closeBrowser(browser: Browser): Promise<void> {
  if (!browser.connected) {
    browser.process()?.kill('SIGKILL');
    return;
  }
  if (!(await settleWithin(browser.close(), closeBudgetMs))) browser.process()?.kill('SIGKILL');
}

/** true when the promise fulfilled within ms; false when it rejected or took longer. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number | undefined, controller: AbortController): Promise<T> {
  if (timeoutMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new PageTimeoutError(timeoutMs));
      reject(new PageTimeoutError(timeoutMs));
    }, timeoutMs);
  });
  work.catch(() => undefined); // it fails once its page is closed; nobody is listening any more
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
