import type { Page } from 'puppeteer-core';
import { frameControlOf } from '../browser/frame-control.js';
import { type EncodeResult, OUTPUT_SIZES, type VideoFormat } from '../encode/video-encoder.js';
import type { ActionScript, InteractionTimeline, RecordingLogEntry, Resolution, ScriptStep } from '../types.js';
import { type CaptureSession, startCaptureSession } from './capture-session.js';
import type { FrameCaptureStats } from './frame-capture.js';
import { type Point, scrollMetrics, seededRandom, seedFrom } from './motion.js';
import { installOverlayGuard } from './overlay-guard.js';
import type { ScreencastStats } from './screencast.js';
import { runStep, type StepContext } from './steps.js';

export { type Located, locateTarget } from './steps.js';

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
 * This file runs the script in time (the plan's start times, agent steps, the log and the timeline); what each
 * step does on the page is steps.ts, and the capture loop's wiring (encoder, frame capture or screencast, the
 * clock, finishing or aborting) capture-session.ts.
 *
 * Timing: output frame 0 is the moment the first step may start; the video has exactly durationMs of frames.
 * Each step starts at its planned `startMs` (or as soon as the previous one is done, if that overran), shapes its
 * motion to end by `startMs + durationMs`, and waits out the rest. A step that cannot find its target is logged
 * ok:false and the recording goes on (it scrolls to where the target was planned instead). No step is ever skipped
 * for lack of time: one that starts late is done in the time left (at once, if none is).
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
  /**
   * Watches the recording as it goes (compose-ahead.ts composes the video's first parts meanwhile): every captured
   * frame in order (frame i of the video is the i-th call), and, before the first, the timeline being written and
   * the recording's clock.
   */
  live?: RecordWatcher;
}

export interface RecordWatcher {
  start(recording: { timeline: Readonly<InteractionTimeline>; now(): number; frames: number }): void;
  frame(jpeg: Buffer): void;
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
   * With format `capture`: the capture's frames at 160×90 grey, written as they came (beside outFile, removed with
   * it on failure), for compose's cut detection (ComposeOptions.smallFrames); null otherwise.
   */
  smallFrames: string | null;
  /**
   * Wall time: setup (encoder and screencast started, first frame), capture (the script's run, = durationMs plus
   * the reorder window), finish (encoding what capture left queued, and the encoder's end). Encoding runs during
   * capture too; `finish` is only what it adds after.
   */
  timings: { setupMs: number; captureMs: number; finishMs: number };
}

const FPS = 30;
/** below this, an action cannot be shown well; a step starting later than its end is given this much, time allowing */
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
  const smallFrames = options.format === 'capture' ? `${options.outFile}.small.gray` : null;
  let session: CaptureSession | null = null;
  let progressTimer: NodeJS.Timeout | undefined;
  try {
    // The cursor rests a little below the middle until the first move.
    let cursor: Point = { x: Math.round(viewport.width / 2), y: Math.round(viewport.height * 0.55) };
    session = await startCaptureSession(page, {
      format: options.format,
      size,
      fps: FPS,
      frameCount,
      outFile: options.outFile,
      ...(smallFrames ? { smallFrames } : {}),
      control,
      cursor,
      signal,
      quality: options.quality ?? 80,
      ...(options.framePictures ? { framePictures: options.framePictures } : {}),
      encoderNice: options.encoderNice ?? 10,
      ...(options.live ? { onFrame: options.live.frame } : {}),
    });
    const { clock, t0 } = session;
    const now = () => clock.now();
    options.live?.start({ timeline, now, frames: frameCount });
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
      onFocus: (rect, label, frame) => timeline.focus.push({ t: now(), rect, label, ...(frame ? { frame } : {}) }),
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
      // Never skipped for lack of time (issue 58): a step that starts late, with less than its minimum left, is done
      // in what is left, at once if nothing is (a jump, a click, the text typed in one go). On the frame clock a
      // step is late only as planned; on the realtime screencast's wall clock a busy machine made the steps before
      // it overrun, and the last one of a 5 s recording was dropped.
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
    const captured = await session.finish(videoMs);
    session = null;
    const doneAt = Date.now();
    try {
      options.onProgress?.(1);
    } catch {
      // as above
    }
    return {
      timeline,
      log,
      durationMs: captured.encode.durationMs,
      captureFps: captured.captureFps,
      captureMode: captured.captureMode,
      frames: captured.encode.framesWritten,
      steps: executed,
      screencast: captured.screencast,
      frameCapture: captured.frameCapture,
      encode: captured.encode,
      smallFrames,
      timings: { setupMs: t0 - calledAt, captureMs: captured.captureStoppedAt - t0, finishMs: doneAt - captured.captureStoppedAt },
    };
  } catch (error) {
    clearInterval(progressTimer);
    await session?.abort();
    throw error;
  } finally {
    cleanup();
  }
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
