import type { Browser, BrowserContext, CDPSession, HTTPRequest, Page } from 'puppeteer-core';

/**
 * Pages whose frames we make ourselves (HeadlessExperimental.beginFrame), so the recorder can render exactly one
 * frame per output frame and capture it on demand.
 *
 * Chromium's headless shell renders such a page only when told to: the target is created with
 * `enableBeginFrameControl`, which needs the browser-wide `--run-all-compositor-stages-before-draw` (see
 * FRAME_CONTROL_FLAGS; launchBrowser passes them). The browser-wide `--enable-begin-frame-control` is NOT used:
 * it would stop every page of the browser from painting (tried: requestAnimationFrame and screenshots hang on a
 * plain page), whereas per target, other pages of the same browser paint as usual.
 *
 * Between recordings a job page is used for analysis, overlay dismissal, the compositor's still layers: all of it
 * expects a display. So an idle pump issues a frame (no screenshot) about every 16 ms, like a 60 Hz display; the
 * recorder takes frames over (`takeOver`) for the capture and hands them back (`release`).
 *
 * Frame times (Chromium TimeTicks, ms of CLOCK_MONOTONIC, the clock of process.hrtime) must only increase: a frame
 * time in the past never completes. The pump and the recorder share `lastTicks` to keep that so.
 */

/** Launch flags a frame-controlled page needs; harmless to other pages (they still paint on their own). */
export const FRAME_CONTROL_FLAGS: readonly string[] = [
  // beginFrame refuses to run without it: all compositor stages (raster included) finish before a frame is drawn
  '--run-all-compositor-stages-before-draw',
  // images are decoded before the frame that shows them, never drawn blank and filled in later
  '--disable-checker-imaging',
  // animations and scrolling on the main thread, so they advance with the frames we issue and nothing else
  '--disable-threaded-animation',
  '--disable-threaded-scrolling',
];

const IDLE_FRAME_MS = 16;
/**
 * A frame that has not completed in this long never will: Chromium then refuses every frame after it ("Another frame
 * is pending") for the target's life. Seen under CPU load on a page with a large animated GIF (tm-diamond): an idle
 * frame issued while the analysis scrolled the page never completed, and the take failed a minute later, when the
 * protocol's own timeout (60 s) gave up on it. The slowest frames that did complete took 2.3 s on a loaded machine.
 */
const STUCK_FRAME_MS = 10_000;

export interface FrameResult {
  /** the frame changed the picture */
  damaged: boolean;
  /** the frame's picture (JPEG) when one was asked for */
  jpeg: Buffer | null;
}

export interface FrameDriver {
  /** Render one frame at `ticks` (strictly after the last frame's); with a JPEG of it when `screenshot`. */
  frame(options: { ticks: number; interval: number; screenshot?: { quality: number } }): Promise<FrameResult>;
  /** the frame time of the last frame rendered (ms, CLOCK_MONOTONIC) */
  readonly lastTicks: number;
  /** Give frames back to the idle pump. */
  release(): void;
}

export interface FrameControl {
  /** Stop the idle pump (after its frame in flight) and drive frames yourself until release(). */
  takeOver(): Promise<FrameDriver>;
  /**
   * Stop the pump for good and wait for the frame in flight, if any: closing a frame-controlled target while a
   * beginFrame is pending can take the whole browser down (seen in the pool's tests), so close through
   * closeFrameControlledPage.
   */
  stop(): Promise<void>;
}

const controls = new WeakMap<Page, FrameControl>();
/** frame-controlled pages open per browser */
const live = new WeakMap<Browser, number>();

/**
 * Frame-controlled pages open in this browser. One at a time per browser: with two, one of them was lost now and then
 * (its target closed under it) in the pool's tests, which share a browser between slots; the pool gives a second
 * job in the same browser a plain page instead (a job's own browser, as in production, never has two).
 */
export function frameControlledPages(browser: Browser): number {
  return live.get(browser) ?? 0;
}

/** The page's frame control, when it was opened with openFrameControlledPage. */
export function frameControlOf(page: Page): FrameControl | undefined {
  return controls.get(page);
}

/** Close a page; a frame-controlled one only once no frame is in flight (see FrameControl.stop). */
export async function closeFrameControlledPage(page: Page): Promise<void> {
  await controls.get(page)?.stop();
  if (!page.isClosed()) await page.close();
}

/** Monotonic milliseconds, the clock Chromium's TimeTicks use on Linux. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * Open a page in `context` (the default context when null) whose frames are driven from here, with the idle pump
 * running. Throws when the browser cannot (not the headless shell, or launched without FRAME_CONTROL_FLAGS).
 */
export function openFrameControlledPage(browser: Browser, context: BrowserContext | null, options: FramePageOptions = {}): Promise<Page> {
  // One at a time per browser: two jobs opening pages at once in one browser lost one of them (its target closed
  // under it) in the pool's tests; opening takes milliseconds, so the queue costs nothing.
  const previous = opening.get(browser) ?? Promise.resolve();
  const opened = previous.catch(() => undefined).then(() => openPage(browser, context, options.stuckFrameMs ?? STUCK_FRAME_MS));
  opening.set(browser, opened.catch(() => undefined));
  return opened;
}

const opening = new WeakMap<Browser, Promise<unknown>>();
const sessions = new WeakMap<Browser, CDPSession>();

/**
 * The page stopped drawing: a frame never completed, and the target takes no frame after it. Transient: the pool
 * starts the job over once on a plain page (browser/pool.ts).
 */
export class FrameStuckError extends Error {
  readonly transient = true;
  constructor(limitMs: number) {
    super(`The browser stopped drawing the page (a frame did not complete within ${Math.round(limitMs / 100) / 10} s).`);
    this.name = 'FrameStuckError';
  }
}

/** The browser has a frame-controlled page open already (see frameControlledPages). */
export class FrameControlBusyError extends Error {
  constructor() {
    super('This browser drives the frames of another page already.');
    this.name = 'FrameControlBusyError';
  }
}

export interface FramePageOptions {
  /** How long a frame may take before the page is held to have stopped drawing (default STUCK_FRAME_MS; tests). */
  stuckFrameMs?: number;
}

async function openPage(browser: Browser, context: BrowserContext | null, stuckFrameMs: number): Promise<Page> {
  if (frameControlledPages(browser) > 0) throw new FrameControlBusyError();
  // One session on the browser target per browser, kept: detaching it while a page it created is being set up
  // lost that page now and then.
  let browserSession = sessions.get(browser);
  if (!browserSession || browserSession.detached) {
    browserSession = await browser.target().createCDPSession();
    sessions.set(browser, browserSession);
  }
  const { targetId } = await browserSession.send('Target.createTarget', {
    url: 'about:blank',
    enableBeginFrameControl: true,
    ...(context?.id ? { browserContextId: context.id } : {}),
  });
  // puppeteer names its targets by the protocol's id internally; there is no public accessor.
  const target = await browser.waitForTarget((t) => (t as unknown as { _targetId?: string })._targetId === targetId, { timeout: 30_000 });
  const page = await target.page();
  if (!page) throw new Error('The frame-controlled target has no page.');
  const session = await page.createCDPSession();
  const control = startPump(session, page, stuckFrameMs);
  controls.set(page, control);
  live.set(browser, frameControlledPages(browser) + 1);
  page.once('close', () => live.set(browser, Math.max(0, frameControlledPages(browser) - 1)));
  page.once('close', () => void control.stop());
  // One frame now proves the browser supports it (a browser without the flags rejects at once).
  const driver = await control.takeOver();
  try {
    await driver.frame({ ticks: Math.max(driver.lastTicks + IDLE_FRAME_MS, monotonicMs()), interval: IDLE_FRAME_MS });
  } catch (error) {
    await control.stop();
    await page.close().catch(() => undefined);
    throw error;
  } finally {
    driver.release();
  }
  return page;
}

/** The longest a loading document keeps the idle display from issuing frames. */
const LOAD_PAUSE_MS = 15_000;

function startPump(session: CDPSession, page: Page, stuckFrameMs: number): FrameControl {
  let lastTicks = monotonicMs();
  let held = false;
  let stopped = false;
  /** a frame never completed: no frame is issued again (see STUCK_FRAME_MS) */
  let stuck = false;
  let inFlight: Promise<unknown> | null = null;
  /** any frame pending, the pump's or a driver's */
  let pending: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const send = async (ticks: number, interval: number, screenshot?: { quality: number }): Promise<FrameResult> => {
    if (stuck) throw new FrameStuckError(stuckFrameMs);
    if (stopped) throw new Error('The page is closing; no more frames.');
    // Strictly increasing, whatever the caller asks.
    const at = Math.max(ticks, lastTicks + 0.01);
    lastTicks = at;
    const request = session.send('HeadlessExperimental.beginFrame', {
      frameTimeTicks: at,
      interval,
      ...(screenshot ? { screenshot: { format: 'jpeg', quality: screenshot.quality } } : {}),
    });
    pending = request.catch(() => undefined);
    let settled = false;
    let watchdog: NodeJS.Timeout | undefined;
    const overdue = new Promise<never>((_, reject) => {
      watchdog = setTimeout(() => {
        // After the input waiting meanwhile: an event loop held up longer than the limit (never seen) must not take
        // an answer that came in time for a stuck frame.
        setImmediate(() => {
          if (settled) return;
          stuck = true;
          reject(new FrameStuckError(stuckFrameMs));
        });
      }, stuckFrameMs);
      watchdog.unref();
    });
    const result = await Promise.race([request.finally(() => (settled = true)), overdue]).finally(() => clearTimeout(watchdog));
    return { damaged: result.hasDamage, jpeg: result.screenshotData ? Buffer.from(result.screenshotData, 'base64') : null };
  };

  // While the page's document loads (from its navigation request to its load event), no frame is issued: a frame in
  // flight as a loading page hides its animated preloader GIF (shopery's home, flows batch 2026-12-15) never
  // completed, and every frame after it was refused ("Another frame is pending") for good. Loading needs no frames;
  // a load that never ends pauses the display for LOAD_PAUSE_MS at most, and a navigation that fails or is blocked
  // (a form's submit the recording does not send) ends the pause, as it loads nothing.
  let loadingSince: number | null = null;
  let loading: HTTPRequest | null = null;
  const onRequest = (request: HTTPRequest) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    loading = request;
    loadingSince = Date.now();
  };
  const onFailed = (request: HTTPRequest) => {
    if (request === loading) onLoad();
  };
  const onLoad = () => {
    loading = null;
    loadingSince = null;
  };
  page.on('request', onRequest);
  page.on('requestfailed', onFailed);
  page.on('load', onLoad);
  page.once('close', () => {
    page.off('request', onRequest);
    page.off('requestfailed', onFailed);
    page.off('load', onLoad);
  });
  const idle = () => {
    timer = undefined;
    if (held || stopped || page.isClosed()) return;
    if (loadingSince !== null && Date.now() - loadingSince < LOAD_PAUSE_MS) {
      schedule(IDLE_FRAME_MS);
      return;
    }
    // A display runs at the rate of real time; after a capture that ran ahead of it, time goes on from there.
    inFlight = send(Math.max(lastTicks + IDLE_FRAME_MS, monotonicMs()), IDLE_FRAME_MS)
      .catch(() => {
        // a closing or crashed page, or a browser gone: their own events say so; the pump just stops trying. A stuck
        // one (`stuck`) is said by the next takeOver.
        if (stuck || page.isClosed() || !page.browser().connected || session.detached) stopped = true;
      })
      .finally(() => {
        inFlight = null;
        schedule(IDLE_FRAME_MS);
      });
  };
  /** The pump never keeps a process alive by itself. */
  const schedule = (ms: number) => {
    if (held || stopped) return;
    timer = setTimeout(idle, ms);
    timer.unref();
  };
  schedule(0);

  return {
    async takeOver() {
      if (stuck) throw new FrameStuckError(stuckFrameMs);
      if (held) throw new Error('The page\'s frames are driven by someone else already.');
      if (stopped) throw new Error('The page is closed.');
      held = true;
      clearTimeout(timer);
      timer = undefined;
      if (inFlight) await inFlight;
      if (stuck) throw new FrameStuckError(stuckFrameMs);
      let released = false;
      return {
        frame: ({ ticks, interval, screenshot }) => {
          if (released) return Promise.reject(new Error('Frames were given back already.'));
          return send(ticks, interval, screenshot);
        },
        get lastTicks() {
          return lastTicks;
        },
        release() {
          if (released) return;
          released = true;
          held = false;
          schedule(0);
        },
      };
    },
    async stop() {
      if (!stopped) {
        stopped = true;
        clearTimeout(timer);
      }
      // bounded: a renderer that never answers must not hold the close up
      await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await session.detach().catch(() => undefined);
    },
  };
}
