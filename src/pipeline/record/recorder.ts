import type { Page } from 'puppeteer-core';
import { frameControlOf } from '../browser/frame-control.js';
import { type EncodeResult, OUTPUT_SIZES, startVideoEncoder, type VideoEncoder, type VideoFormat } from '../encode/video-encoder.js';
import { bottomComfortMargin } from '../comfort.js';
import type { ActionScript, InteractionTimeline, Rect, RecordingLogEntry, Resolution, ScriptStep, Target } from '../types.js';
import {
  clickHere,
  moveCursor,
  type MotionClock,
  moveDurationMs,
  type Point,
  type Rng,
  scrollMetrics,
  seededRandom,
  seedFrom,
  sleep,
  smoothScroll,
  typeText,
  wallClock,
} from './motion.js';
import { type FrameCapture, type FrameCaptureStats, startFrameCapture } from './frame-capture.js';
import { type Screencast, type ScreencastStats, startScreencast } from './screencast.js';
import { installOverlayGuard } from './overlay-guard.js';

/**
 * Runs an ActionScript on a page that is already loaded, captures it and streams the frames into an encoder. The
 * result is a clean video (nothing drawn into the page: no cursor, no highlight) plus the InteractionTimeline the
 * compositor will draw from, and the recording log.
 *
 * Two ways to capture (`capture`):
 *   frames      on a frame-controlled page (browser/frame-control.ts; the browser pool opens job pages so): time is
 *               the frame count, each output frame is rendered and captured on demand and the motion advances
 *               exactly one frame between two of them (frame-capture.ts). Every frame of a scroll is a new picture
 *               whatever the page costs to paint; recording takes as long as the frames take, not durationMs.
 *   screencast  on any other page: the CDP screencast in real time, resampled to 30 fps (screencast.ts). A slow
 *               page yields fewer pictures and the resampler repeats them. Kept for pages not opened by the pool.
 * Both stamp the timeline with the clock the frames are on, so its times mean the same thing in either.
 *
 * Timing: output frame 0 is the moment the first step may start; the video has exactly durationMs of frames.
 * Each step starts at its planned `startMs` (or as soon as the previous one is done, if that overran), shapes its
 * motion to end by `startMs + durationMs`, and waits out the rest. A step that cannot find its target is logged
 * ok:false and the recording goes on (it scrolls to where the target was planned instead).
 */

export interface AgentStepContext {
  /** index the next step will get */
  index: number;
  elapsedMs: number;
  remainingMs: number;
  /** the step just executed and how it went */
  previous: ScriptStep;
  result: RecordingLogEntry;
  /** the timeline so far (read only) */
  timeline: Readonly<InteractionTimeline>;
  /** aborted when the recording is (caller's signal, page crash or close): pass it to a model request */
  signal: AbortSignal;
}

export interface RecordOptions {
  /** the final video's format, or `capture`: the clean capture (Matroska of the frames as captured) to compose from */
  format: VideoFormat | 'capture';
  resolution: Resolution;
  outFile: string;
  /** 0 → 1 as recording time passes; called at step boundaries and about once a second */
  onProgress?(fraction: number): void;
  /**
   * Agent mode: once the script's own steps are done, called after each executed step to get the next one (the
   * callback re-observes the page), until it returns null or the time runs out. A returned step starts at once;
   * its startMs is ignored and its durationMs is capped to the time left.
   */
  nextAgentStep?(context: AgentStepContext): Promise<ScriptStep | null>;
  /**
   * The largest frame to capture (the screencast scales down to fit); default the output size. The compositor asks
   * for the size the recording will have in its window, so frames arrive ready to place instead of being scaled
   * again, frame by frame, in ffmpeg.
   */
  captureSize?: { width: number; height: number };
  /** seeds the motion; default: derived from the script's URL */
  seed?: number;
  /** aborts the recording (the partial file is removed) */
  signal?: AbortSignal;
  /** default `auto`: frames on a frame-controlled page, else the screencast */
  capture?: 'auto' | 'frames' | 'screencast';
  /** JPEG quality of the screencast, default 80 */
  quality?: number;
  /** frame capture: how pictures are taken (frame-capture.ts); default `screencast` */
  framePictures?: 'screencast' | 'screenshots';
  /**
   * ffmpeg's niceness while the page is captured, default 10: capture cannot be redone, encoding can catch up
   * (distinct frames wait in memory meanwhile, bounded by the screencast's backlog limit). 0 to encode at par.
   */
  encoderNice?: number;
}

export interface RecordResult {
  timeline: InteractionTimeline;
  log: RecordingLogEntry[];
  /** the video's duration: frames / 30 */
  durationMs: number;
  /** screencast frames received per second, before resampling; frame capture: distinct pictures per second */
  captureFps: number;
  /** how the frames were captured */
  captureMode: 'frames' | 'screencast';
  /** frames in the video */
  frames: number;
  /** the steps as executed (in agent mode, including the agent's, with their actual start times) */
  steps: ScriptStep[];
  /**
   * What capture saw, for either mode: the pictures' size, and when each distinct picture was taken (ms from the
   * start). The screencast's own figures (resampling, backlog) when it was used; the frame capture's otherwise.
   */
  screencast: Pick<ScreencastStats, 'frameSize' | 'frameTimesMs'> & Partial<ScreencastStats>;
  frameCapture: FrameCaptureStats | null;
  encode: EncodeResult;
  /**
   * Wall time: setup (encoder and screencast started, first frame), capture (the script's run, = durationMs plus
   * the reorder window), finish (encoding what capture left queued, and the encoder's end). Encoding runs during
   * capture too; `finish` is only what it adds after.
   */
  timings: { setupMs: number; captureMs: number; finishMs: number };
}

const FPS = 30;
/** below this, an action cannot be shown at all; a step starting later than its end is given this much */
const MIN_ACTION_MS = 250;

export async function recordScript(page: Page, script: ActionScript, options: RecordOptions): Promise<RecordResult> {
  if (!(script.durationMs > 0)) throw new RangeError('The script must last more than 0 ms.');
  options.signal?.throwIfAborted();
  const size = options.captureSize ?? OUTPUT_SIZES[options.resolution];
  const frameCount = Math.max(1, Math.round((script.durationMs * FPS) / 1000));
  const videoMs = (frameCount * 1000) / FPS;

  const viewport = await page.evaluate(() => ({
    width: window.innerWidth,
    height: window.innerHeight,
    deviceScaleFactor: window.devicePixelRatio,
  }));
  // Popups that open from now on (a newsletter modal after a few seconds, a chat bubble) are kept off the video.
  await installOverlayGuard(page);
  const timeline: InteractionTimeline = {
    viewport,
    durationMs: Math.round(videoMs),
    cursor: [],
    clicks: [],
    keystrokes: [],
    scrolls: [],
    focus: [],
    steps: [],
  };
  const log: RecordingLogEntry[] = [];
  const executed: ScriptStep[] = [];
  const baseSeed = options.seed ?? seedFrom(script.url);
  const calledAt = Date.now();
  const control = options.capture === 'screencast' ? undefined : frameControlOf(page);
  if (options.capture === 'frames' && !control) throw new Error('Frame capture needs a page opened with openFrameControlledPage.');
  // Stop early on the caller's signal, or when the page crashes or closes: a video of a dead page is no demo, and
  // the caller can retry.
  const controller = new AbortController();
  const signal = controller.signal;
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  const onCrash = () => controller.abort(new Error('The page crashed while it was being recorded.'));
  const onClose = () => controller.abort(new Error('The page was closed while it was being recorded.'));
  if (options.signal?.aborted) onCallerAbort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  page.once('error', onCrash);
  page.once('close', onClose);
  const cleanup = () => {
    options.signal?.removeEventListener('abort', onCallerAbort);
    page.off('error', onCrash);
    page.off('close', onClose);
  };
  let encoder: VideoEncoder | null = null;
  let screencast: Screencast | null = null;
  let frames: FrameCapture | null = null;
  let progressTimer: NodeJS.Timeout | undefined;
  try {
    encoder = await startVideoEncoder({
      format: options.format === 'capture' ? 'mp4' : options.format,
      capture: options.format === 'capture',
      width: size.width,
      height: size.height,
      fps: FPS,
      outFile: options.outFile,
      nice: options.encoderNice ?? 10,
    });
    const sink = encoder;
    // The cursor rests a little below the middle until the first move.
    let cursor: Point = { x: Math.round(viewport.width / 2), y: Math.round(viewport.height * 0.55) };
    let clock: MotionClock;
    let t0: number;
    if (control) {
      frames = await startFrameCapture(page, control, {
        fps: FPS,
        frameCount,
        quality: options.quality ?? 80,
        sink: (jpeg) => sink.writeFrame(jpeg),
        signal,
        ...(options.framePictures ? { pictures: options.framePictures } : {}),
      });
      clock = frames;
      await clock.input(() => page.mouse.move(cursor.x, cursor.y));
      t0 = Date.now();
      frames.begin();
    } else {
      screencast = await startScreencast(page, {
        maxWidth: size.width,
        maxHeight: size.height,
        quality: options.quality ?? 80,
        fps: FPS,
        sink: (jpeg) => sink.writeFrame(jpeg),
      });
      await page.mouse.move(cursor.x, cursor.y);
      await screencast.firstFrame();
      t0 = Date.now();
      screencast.begin(t0, frameCount);
      const start = t0;
      clock = { ...wallClock, now: () => Date.now() - start, sleep: (ms) => abortableSleep(ms, signal) };
    }
    const now = () => clock.now();
    /** A wait that ends early, with the abort reason, when the recording is aborted. */
    const pause = (ms: number) => clock.sleep(ms);
    const remaining = () => videoMs - now();
    const progress = () => {
      try {
        options.onProgress?.(Math.min(1, Math.max(0, now() / videoMs)));
      } catch {
        // a reporting problem must not break the recording
      }
    };
    if (options.onProgress) progressTimer = setInterval(progress, 1000);
    progress();

    timeline.cursor.push({ t: 0, ...cursor });
    let lastScrollY = (await scrollMetrics(page)).y;
    timeline.scrolls.push({ t: 0, y: lastScrollY });

    const ctx: StepContext = {
      page,
      clock,
      now,
      onMove: (point) => {
        cursor = point;
        timeline.cursor.push({ t: now(), x: point.x, y: point.y });
      },
      onScroll: (y) => {
        if (y === lastScrollY) return;
        lastScrollY = y;
        timeline.scrolls.push({ t: now(), y });
      },
      onClick: (point) => timeline.clicks.push({ t: now(), x: point.x, y: point.y }),
      onKey: (key) => timeline.keystrokes.push({ t: now(), key }),
      onFocus: (rect, label) => timeline.focus.push({ t: now(), rect, label }),
      cursor: () => cursor,
    };

    const queue = [...script.steps];
    let index = 0;
    for (;;) {
      signal.throwIfAborted();
      let step = queue.shift();
      let agentStep = false;
      if (!step && options.nextAgentStep && index > 0 && remaining() > MIN_ACTION_MS) {
        const previous = executed.at(-1)!;
        const result = log.at(-1)!;
        // The agent thinks in wall time; on the frame clock no frame passes meanwhile.
        const next = await withDeadline(
          options.nextAgentStep({ index, elapsedMs: now(), remainingMs: remaining(), previous, result, timeline, signal }),
          remaining(),
        ).catch((error: unknown) => {
          const t = now();
          log.push({ index, action: 'agent', target: null, startMs: t, endMs: t, ok: false, error: `The agent failed: ${errorMessage(error)}` });
          return null;
        });
        signal.throwIfAborted();
        if (next) {
          const startMs = Math.round(now());
          step = { ...next, startMs, durationMs: Math.max(0, Math.min(next.durationMs, Math.floor(remaining()))) } as ScriptStep;
          agentStep = true;
        }
      }
      if (!step) break;

      // Keep to the plan: start on time, and never before the previous step is done.
      if (!agentStep) await pause(Math.min(step.startMs, videoMs) - now());
      const startMs = Math.round(now());
      const plannedEnd = Math.min(videoMs, Math.max(step.startMs + step.durationMs, startMs));
      const entry: RecordingLogEntry = { index, action: step.kind, target: 'target' in step ? step.target.selector : null, startMs, endMs: startMs, ok: true };
      if (remaining() < MIN_ACTION_MS / 2) {
        entry.ok = false;
        entry.error = 'Skipped: the recording had no time left for this step.';
      } else {
        const deadline = Math.min(videoMs, Math.max(plannedEnd, startMs + MIN_ACTION_MS));
        const rng = seededRandom(seedFrom(`${baseSeed}:${index}:${step.kind}:${step.label}`));
        try {
          const outcome = await runStep(ctx, step, deadline, rng);
          if (outcome.error) {
            entry.ok = false;
            entry.error = outcome.error;
          }
        } catch (error) {
          signal.throwIfAborted(); // a step that failed because the page died fails the recording
          entry.ok = false;
          entry.error = errorMessage(error);
        }
        // A click may have scrolled the page (an anchor link, focus); keep the timeline truthful.
        const y = await page.evaluate(() => window.scrollY).catch(() => null);
        if (y !== null) ctx.onScroll(y);
      }
      entry.endMs = Math.round(now());
      log.push(entry);
      executed.push({ ...step, startMs } as ScriptStep);
      // Wait out the rest of the step's planned time: the next step's start is its boundary.
      const nextStart = queue[0]?.startMs ?? plannedEnd;
      await pause(Math.min(plannedEnd, nextStart) - now());
      timeline.steps.push({ index, label: step.label, kind: step.kind, startMs, endMs: Math.round(Math.max(entry.endMs, Math.min(now(), videoMs))) });
      index++;
      progress();
    }

    // Hold the last picture until the end.
    await pause(videoMs - now());
    signal.throwIfAborted();
    clearInterval(progressTimer);
    // Capture is over: let the encoder have the CPU (lowering niceness may need privileges; then it stays).
    if (options.encoderNice ?? 10) encoder.setNice(0);
    let captured: RecordResult['screencast'];
    let frameStats: FrameCaptureStats | null = null;
    let captureFps: number;
    let captureStoppedAt: number;
    if (frames) {
      frameStats = await frames.finish();
      frames = null;
      captureStoppedAt = Date.now();
      captured = { frameSize: frameStats.frameSize, frameTimesMs: frameStats.frameTimesMs };
      captureFps = Math.round((frameStats.frameTimesMs.length / (videoMs / 1000)) * 10) / 10;
    } else {
      const stats = await screencast!.stop();
      screencast = null;
      captured = stats;
      captureFps = stats.captureFps;
      captureStoppedAt = stats.captureStoppedAt;
    }
    const encode = await encoder.finish();
    encoder = null;
    const doneAt = Date.now();
    try {
      options.onProgress?.(1);
    } catch {
      // as above
    }
    return {
      timeline,
      log,
      durationMs: encode.durationMs,
      captureFps,
      captureMode: frameStats ? 'frames' : 'screencast',
      frames: encode.framesWritten,
      steps: executed,
      screencast: captured,
      frameCapture: frameStats,
      encode,
      timings: { setupMs: t0 - calledAt, captureMs: captureStoppedAt - t0, finishMs: doneAt - captureStoppedAt },
    };
  } catch (error) {
    clearInterval(progressTimer);
    frames?.abort();
    await screencast?.abort().catch(() => undefined);
    await encoder?.abort().catch(() => undefined);
    throw error;
  } finally {
    cleanup();
  }
}

// ------------------------------------------------------------------------------------------------------------
// Steps

interface StepContext {
  page: Page;
  clock: MotionClock;
  now(): number;
  cursor(): Point;
  onMove(point: Point): void;
  onScroll(y: number): void;
  onClick(point: Point): void;
  onKey(key: string): void;
  onFocus(rect: Rect, label: string): void;
}

export interface Located {
  selector: string;
  /** inside a position: fixed or sticky container, so scrolling does not bring it any closer */
  pinned: boolean;
  /** viewport coordinates */
  rect: Rect;
  /** where the cursor goes, inside `rect`: a heading's words, else the whole rect */
  aim: Rect;
  /** the bottom of a fixed or sticky header at the top of the viewport, 0 without one */
  topInset: number;
  /** the top of the first h1–h3 inside the target (viewport coordinates), null without one */
  headingTop: number | null;
  scrollY: number;
  viewportWidth: number;
  viewportHeight: number;
}

/** The first of the target's selectors that matches a rendered element (invalid selectors are skipped). */
export async function locateTarget(page: Page, target: Target): Promise<Located | null> {
  const selectors = [target.selector, ...target.fallbackSelectors].filter((s) => typeof s === 'string' && s.trim() !== '');
  return page.evaluate((list: string[]) => {
    // The bottom of what stays pinned at the top of the viewport (a fixed or sticky header), 0 without one. (No
    // named function in here: the TypeScript loader wraps those in a helper the page does not have.)
    let topInset = 0;
    for (const element of document.elementsFromPoint(window.innerWidth / 2, 1)) {
      for (let node: Element | null = element; node && node !== document.documentElement; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position !== 'fixed' && position !== 'sticky') continue;
        const edge = node.getBoundingClientRect().bottom;
        if (edge > topInset && edge < window.innerHeight * 0.3) topInset = edge;
        break;
      }
    }
    for (const selector of list) {
      let element: Element | null = null;
      try {
        element = document.querySelector(selector);
      } catch {
        continue;
      }
      if (!element) continue;
      const r = element.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      // A heading's box spans its column while its words may fill a third of it: the cursor goes to the words, not
      // to the empty middle of the box. (The camera keeps the box: zoomed to the words, what the section shows
      // beside them, a row of logos under "Made possible by", was cut off.)
      let aim = r;
      if (/^H[1-6]$/.test(element.tagName)) {
        const range = document.createRange();
        range.selectNodeContents(element);
        const words = range.getBoundingClientRect();
        if (words.width > 0 && words.height > 0 && words.width < r.width) aim = words;
      }
      const inner = /^H[1-6]$/.test(element.tagName) ? null : element.querySelector('h1, h2, h3');
      const innerBox = inner ? inner.getBoundingClientRect() : null;
      const headingTop = innerBox && innerBox.height > 0 ? innerBox.top : null;
      let pinned = false;
      for (let node: Element | null = element; node && node !== document.body; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position === 'fixed' || position === 'sticky') {
          pinned = true;
          break;
        }
      }
      return {
        selector,
        pinned,
        rect: { x: r.left, y: r.top, width: r.width, height: r.height },
        aim: { x: aim.left, y: aim.top, width: aim.width, height: aim.height },
        scrollY: window.scrollY,
        viewportWidth: window.innerWidth,
        viewportHeight: window.innerHeight,
        topInset,
        headingTop,
      };
    }
    return null;
  }, selectors);
}

async function runStep(ctx: StepContext, step: ScriptStep, deadline: number, rng: Rng): Promise<{ error?: string }> {
  const left = () => deadline - ctx.now();
  switch (step.kind) {
    case 'wait':
      return {};
    case 'scroll': {
      // Ease over most of the step; the rest lets the last frames settle.
      const budget = left();
      await smoothScroll(ctx.page, step.toY, Math.max(0, budget - Math.min(300, budget * 0.1)), { onScroll: ctx.onScroll, clock: ctx.clock });
      return {};
    }
    case 'move':
    case 'hover':
    case 'click':
    case 'type':
      return targetStep(ctx, step, left, rng);
    default:
      // Agent steps come from outside the type system (a model's JSON).
      return { error: `Unknown step kind "${(step as { kind?: unknown }).kind}".` };
  }
}

async function targetStep(
  ctx: StepContext,
  step: Extract<ScriptStep, { target: Target }>,
  left: () => number,
  rng: Rng,
): Promise<{ error?: string }> {
  const { page } = ctx;
  const budget = left();
  let found = await locateTarget(page, step.target);
  if (!found) {
    // The planned position is all we have: show that part of the page, but do not click or type blindly.
    const metrics = await scrollMetrics(page);
    const rect = step.target.rect;
    const toY = rect.y + rect.height / 2 - metrics.viewportHeight * 0.4;
    const y = await smoothScroll(page, toY, Math.max(0, Math.min(budget * 0.6, 1200)), { onScroll: ctx.onScroll, clock: ctx.clock });
    if (step.kind === 'move' || step.kind === 'hover') {
      const to = clampToViewport({ x: rect.x + rect.width / 2, y: rect.y - y + rect.height / 2 }, metrics);
      await moveCursor(page, ctx.cursor(), to, Math.max(0, Math.min(moveDurationMs(ctx.cursor(), to), left() * 0.8)), { rng, onMove: ctx.onMove, clock: ctx.clock });
    }
    const selectors = [step.target.selector, ...step.target.fallbackSelectors].join(', ');
    return { error: `Target "${step.target.label}" not found (${selectors}); scrolled to its planned position instead.` };
  }

  // Bring it into view when it is not comfortably visible: its middle at ~40% of the viewport height.
  const r = found.rect;
  // At the top, below the header is enough: the planner scrolls a section to just below it (outline-query's
  // SCROLL_MARGIN), and an 80-px margin there set off a second scroll, stop and go, after every such arrival.
  const margin = bottomComfortMargin(found.viewportHeight);
  const topMargin = found.topInset + 8;
  // A section taller than that is comfortable once its heading is out from under the header: a planner may stop
  // below the section's top to show its heading with the buttons further down (pricing-focus).
  const top = r.height > found.viewportHeight * 0.6 && found.headingTop !== null ? found.headingTop : r.y;
  if (!found.pinned && (top < topMargin || r.y + Math.min(r.height, found.viewportHeight * 0.6) > found.viewportHeight - margin)) {
    const toY = found.scrollY + r.y + Math.min(r.height, found.viewportHeight * 0.6) / 2 - found.viewportHeight * 0.4;
    const share = step.kind === 'move' || step.kind === 'hover' ? 0.45 : 0.35;
    await smoothScroll(page, toY, Math.max(0, Math.min(budget * share, 1500)), { onScroll: ctx.onScroll, clock: ctx.clock });
    found = (await locateTarget(page, step.target)) ?? found;
  }
  ctx.onFocus(roundRect(found.rect), step.target.label);

  // Aim near the middle, not at the exact pixel.
  const aim = clampToViewport(
    {
      x: found.aim.x + found.aim.width * (0.5 + (rng() - 0.5) * 0.2),
      y: found.aim.y + found.aim.height * (0.5 + (rng() - 0.5) * 0.2),
    },
    { viewportWidth: found.viewportWidth, viewportHeight: found.viewportHeight },
  );
  const from = ctx.cursor();
  // Leave room for what follows the move: a dwell, the click, the typing.
  const after = step.kind === 'move' ? 0 : step.kind === 'type' ? typingReserve(step.text) + 250 : 300;
  const moveMs = Math.max(0, Math.min(moveDurationMs(from, aim), left() - after, left() * 0.8));
  const at = await moveCursor(page, from, aim, moveMs, { rng, onMove: ctx.onMove, clock: ctx.clock });
  if (step.kind === 'move') return {};

  // Hover before anything else happens.
  const dwell = step.kind === 'hover' ? 0 : Math.min(150 + rng() * 150, Math.max(0, left() - (step.kind === 'type' ? typingReserve(step.text) : 100)));
  await ctx.clock.sleep(dwell);
  if (step.kind === 'hover') return {};

  ctx.onClick(at);
  await clickHere(page, rng, ctx.clock);
  if (step.kind === 'click') return {};

  // Typing: make sure the field itself has focus (the click may have landed on its label or padding).
  await page.evaluate((selector: string) => {
    const element = document.querySelector(selector);
    if (element instanceof HTMLElement && document.activeElement !== element && !element.contains(document.activeElement)) element.focus();
  }, found.selector);
  await typeText(page, step.text, { rng, maxDurationMs: Math.max(0, left() - 50), onKey: ctx.onKey, clock: ctx.clock });
  return {};
}

/** Time a text wants at the typing cadence, capped so a long text still leaves room to reach the field. */
function typingReserve(text: string): number {
  return Math.min(2500, [...text].length * 100);
}

function clampToViewport(point: Point, { viewportWidth, viewportHeight }: { viewportWidth: number; viewportHeight: number }): Point {
  return {
    x: Math.round(Math.min(Math.max(2, point.x), viewportWidth - 2) * 10) / 10,
    y: Math.round(Math.min(Math.max(2, point.y), viewportHeight - 2) * 10) / 10,
  };
}

function roundRect(rect: Rect): Rect {
  return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, ms));
    }),
  ]);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
