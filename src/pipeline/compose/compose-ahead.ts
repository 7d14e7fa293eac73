import { readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { frameDifference, SMOOTHNESS } from '../encode/smoothness.js';
import { OUTPUT_SIZES, paletteSamplesFile, type VideoFormat } from '../encode/video-encoder.js';
import type { Presentation } from '../../demos/presentation.js';
import type { RecordWatcher } from '../record/recorder.js';
import type { InteractionTimeline, Resolution } from '../types.js';
import { FPS } from './camera.js';
import { type ComposeOptions, type ComposeResult, composeVideo, windowAnimated } from './compose.js';
import { type ComposePlan, planCompose } from './compose-plan.js';
import { type Cut, cutsIn, findCuts, withChangeMaps } from './cuts.js';
import { makeGifPalette } from './gif-palette.js';
import { jpegFrameInfo } from './jpeg-frame.js';
import type { LayerFiles } from './layers.js';
import { type LayersAhead, usableLayers } from './layers-ahead.js';
import { computeLayout, type Layout } from './layout.js';
import { finishParts, killPart, type Part } from './join-parts.js';
import { renderRange, runningCompositors } from './render-range.js';
import { resolveStyle } from './style.js';

/**
 * Composing while the page is still being recorded. Frame capture keeps one core busy and leaves the other idle;
 * composing only once it has finished made a demo take record + compose. Here the video's first parts are composed
 * from the frames as they are captured, on the idle core, and only what is left is composed after the recording.
 *
 * The camera is not causal: a shot's zoom takes in every action until the page next scrolls, and a zoom never
 * starts before the last scroll. So a part ends where the recording has scrolled and finished its steps (and not
 * inside a cut's dissolve, nor after the frames the cut detector has seen): before that, nothing still to come can
 * change a frame. That is the rule; it is not trusted. Each part remembers what it drew on every frame (the crop, the
 * window, the cursor, the click effect, the dissolve: ComposePlan.frameValues), and after the recording the plan made
 * on the whole recording is compared with it frame by frame. A part that differs anywhere is composed again, from
 * the capture's file, with everything still to do; the parts are then joined, without re-encoding, into the video.
 *
 * Any failure falls back to composing the whole video in one pass as before (composeVideo), so composing ahead can
 * make a demo faster, never wrong. Not used for burned-in captions and the debug HUD (one pass draws them).
 */
export interface ComposeAhead {
  /** the recorder's watcher (RecordOptions.live) */
  watcher: RecordWatcher;
  /** Compose the rest once the recording is done, and join the parts into `options.outFile`. */
  finish(options: ComposeOptions): Promise<ComposeResult & { ahead: AheadReport }>;
  /** Drop the parts (the take is not used); stops any part being composed. */
  abort(): Promise<void>;
}

export interface AheadReport {
  /** parts composed during the recording, and of them those kept */
  parts: number;
  kept: number;
  /** frames composed during the recording and kept */
  framesAhead: number;
  /** the parts composed during the recording, first frame to last (exclusive), and whether each was kept */
  ranges: Array<{ from: number; to: number; kept: boolean }>;
  /**
   * what was composed after the recording (the rest, and any part composed again), each stretch by its own
   * compositor, from the frames still in memory or else from the capture's file
   */
  rest: Array<{ from: number; to: number; fromMemory: boolean }>;
  /** why the whole video was composed in one pass instead, when it was */
  fallback: string | null;
}

export interface ComposeAheadOptions {
  presentation: Presentation | null;
  format: VideoFormat;
  resolution: Resolution;
  /** where the parts go (a directory of their own is made in it) */
  workDir: string;
  /** the still layers being drawn meanwhile (layers-ahead.ts): parts are composed only with them */
  layersAhead: Promise<LayersAhead | null>;
  /** the recorder's small grey frames (RecordResult.smallFrames, written as the page is captured): for cuts */
  smallFrames: string;
  /** the GIF preview's width, when one is made */
  gifWidth?: number | null;
  /** the GIF preview's length (ComposeOptions.gif.maxSeconds), default 10 s */
  gifMaxSeconds?: number;
}

/** A part shorter than this is not worth an ffmpeg start of its own. */
const MIN_PART_FRAMES = 45;
/** kept clear of the newest settled moment, for rounding and for the cursor path's smoothing */
const MARGIN_MS = 200;
/** the cut detector needs a few frames after a cut to call it one */
const CUT_LOOKAHEAD_FRAMES = 8;
/** how often the recording is looked at for a new part */
const TICK_MS = 100;
/** parts composed during the recording run at this niceness; raised to 0 once the recording is over */
const PART_NICE = 19;
const GIF_FPS = 12;

export function composeAhead(options: ComposeAheadOptions): ComposeAhead {
  const style = resolveStyle(options.presentation);
  const output = OUTPUT_SIZES[options.resolution];
  const dir = path.join(options.workDir, 'compose-ahead');
  const frames: Array<Buffer | undefined> = [];
  let received = 0;
  let recording: { timeline: Readonly<InteractionTimeline>; now(): number; frames: number } | null = null;
  let setup: { capture: { width: number; height: number; pixelFormat: string | null }; layout: Layout; layers: LayerFiles } | null = null;
  let disabled: string | null = style.debugHud ? 'the debug HUD is drawn in one pass' : null;
  let stopped = false;
  let busy = false;
  let lastTried = '';
  const parts: Part[] = [];
  const running = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  // The muxer's small grey frames, read on from where the last look ended, and the differences between them: reading
  // and measuring the whole file again on every look grew with the square of the video's length (on a 30 s bench,
  // node's CPU during the recording 8.1-10.6 s against 3.6-4.8 s now).
  const frameBytes = SMOOTHNESS.width * SMOOTHNESS.height;
  let small: Buffer | null = null;
  let smallBytes = 0;
  const diffs: number[] = [];
  const readSmallFrames = async (): Promise<Buffer> => {
    small ??= Buffer.alloc(recording!.frames * frameBytes);
    const handle = await fs.open(options.smallFrames, 'r').catch(() => null);
    if (handle) {
      try {
        while (smallBytes < small.length) {
          const { bytesRead } = await handle.read(small, smallBytes, small.length - smallBytes, smallBytes);
          if (bytesRead === 0) break;
          smallBytes += bytesRead;
        }
      } finally {
        await handle.close();
      }
    }
    const available = Math.floor(smallBytes / frameBytes);
    for (let k = diffs.length; k < available - 1; k++) diffs.push(frameDifference(small, k));
    return small.subarray(0, available * frameBytes);
  };

  const prepare = async (first: Buffer) => {
    const info = jpegFrameInfo(first);
    if (!info) throw new Error('the capture is not JPEG');
    const capture = { width: info.width, height: info.height, pixelFormat: info.pixelFormat };
    const layout = computeLayout(output, capture, style);
    const durationMs = recording ? (recording.frames * 1000) / FPS : 0;
    const layers = usableLayers(await options.layersAhead, layout, windowAnimated(layout, style, durationMs));
    if (!layers) throw new Error('the still layers were not drawn ahead for this capture');
    setup = { capture, layout, layers };
  };

  /** The last frame (exclusive) nothing still to come can change, or null. */
  const settledFrame = (plan: { cuts: Cut[]; introFrames: number; outroStart: number }, smallFrames: number): number => {
    const { timeline } = recording!;
    const lastStepEnd = timeline.steps.at(-1)?.endMs ?? 0;
    const lastScroll = timeline.scrolls.at(-1)?.t ?? 0;
    let end = Math.floor(((Math.min(lastStepEnd, lastScroll) - MARGIN_MS) * FPS) / 1000);
    end = Math.min(end, received - 2, smallFrames - CUT_LOOKAHEAD_FRAMES, plan.outroStart);
    for (const cut of plan.cuts) {
      if (end >= cut.frame - cut.weights.length - 2 && end <= cut.frame + cut.weights.length + 2) end = cut.frame - cut.weights.length - 2;
    }
    return end < plan.introFrames ? -1 : end;
  };

  const tick = async () => {
    // One part at a time: the recording keeps the other core.
    if (busy || stopped || disabled || !recording || !setup || running.size > 0) return;
    // Nothing settles between two steps' ends or two scrolls: planning again would find the same end.
    const progress = `${recording.timeline.steps.length}:${recording.timeline.scrolls.length}:${parts.length}`;
    if (progress === lastTried) return;
    busy = true;
    try {
      const from = parts.at(-1)?.to ?? 0;
      const seen = await readSmallFrames();
      const available = seen.length / frameBytes;
      // The cut detector's frames lag the capture a little: a part cut short by them is tried again next time.
      if (available >= received - CUT_LOOKAHEAD_FRAMES - 2) lastTried = progress;
      const cuts = available > 2 ? withChangeMaps(cutsIn(diffs), seen) : [];
      const snapshot = snapshotTimeline(recording.timeline);
      const plan = planCompose({ layout: setup.layout, timeline: snapshot, style, durationMs: snapshot.durationMs, layers: setup.layers, cuts });
      const { camera } = plan;
      const to = settledFrame({ cuts: plan.cuts, introFrames: camera.introFrames, outroStart: camera.frames - camera.outroFrames }, available);
      if (stopped || to - from < MIN_PART_FRAMES) return;
      // The lowest priority: capture cannot be redone, and the part only uses what capture leaves.
      startPart(plan, from, to, PART_NICE);
    } catch (error) {
      disabled = `composing ahead failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      busy = false;
    }
  };

  const startPart = (plan: ComposePlan, from: number, to: number, nice: number) => {
    const index = parts.length;
    const part: Part = {
      from, to, file: path.join(dir, `part-${index}.${options.format === 'webm' ? 'webm' : 'mp4'}`), values: [], gif: [], pid: undefined, done: null as never, ahead: true,
    };
    for (let i = from; i < to; i++) part.values.push(plan.frameValues(i));
    const gif = gifFramesFor(from, part);
    running.add(index);
    part.done = renderRange({
      plan, style, layers: setup!.layers, capture: setup!.capture, from, to, source: { frame: (i) => frames[i]! }, format: options.format,
      outFile: part.file, dir: path.join(dir, `part-${index}`), gifFrames: gif, nice, timeoutMs: 600_000,
      onSpawn: (pid) => {
        part.pid = pid;
      },
    }).then(
      (peak) => ({ ok: true, peak }),
      (error: unknown) => ({ ok: false, peak: null, error }),
    ).finally(() => {
      part.pid = undefined; // never signal a process id that may have been given to another
      running.delete(index);
    });
    parts.push(part);
    // The frames before this part are never read from memory again (a part composed again reads the file).
    for (let i = 0; i < from; i++) frames[i] = undefined;
  };

  const gifMaxFrames = (options.gifMaxSeconds ?? 10) * FPS;
  const gifFramesFor = (from: number, part: Part) =>
    options.gifWidth && from < gifMaxFrames
      ? {
          width: options.gifWidth,
          height: gifHeight(options.gifWidth, output),
          fps: GIF_FPS,
          maxFrames: gifMaxFrames,
          onData: (chunk: Buffer) => {
            part.gif.push(chunk);
            part.wake?.();
          },
        }
      : null;

  const stopParts = async () => {
    stopped = true;
    clearInterval(timer);
    for (const index of running) killPart(parts[index]!);
    await Promise.all(parts.map((part) => part.done));
  };

  const watcher: RecordWatcher = {
    start(live) {
      recording = live;
      timer = setInterval(() => void tick(), TICK_MS);
      timer.unref();
    },
    frame(jpeg) {
      if (received === 0 && !disabled) {
        prepare(jpeg).catch((error: unknown) => {
          disabled = error instanceof Error ? error.message : String(error);
        });
      }
      frames[received++] = jpeg;
    },
  };

  return {
    watcher,
    async abort() {
      await stopParts();
      frames.length = 0;
      await fs.rm(dir, { recursive: true, force: true });
    },
    async finish(compose) {
      const started = performance.now();
      stopped = true;
      clearInterval(timer);
      const report: AheadReport = { parts: parts.length, kept: 0, framesAhead: 0, ranges: [], rest: [], fallback: null };
      const onePass = async (why: string) => {
        await stopParts();
        frames.length = 0;
        await fs.rm(dir, { recursive: true, force: true });
        report.fallback = why;
        return { ...(await composeVideo(compose)), ahead: report };
      };
      if (disabled) return onePass(disabled);
      if (parts.length === 0) return onePass('no part of the recording was settled before it ended');
      if (compose.captions) return onePass('burned-in captions are drawn in one pass');
      if (compose.endCard) return onePass('the end card is drawn in one pass');
      const sameGif = compose.gif
        ? compose.gif.width === options.gifWidth && (compose.gif.maxSeconds ?? 10) * FPS === gifMaxFrames && (compose.gif.fps ?? GIF_FPS) === GIF_FPS
        : true;
      const sameRender =
        compose.format === options.format &&
        compose.resolution === options.resolution &&
        JSON.stringify(compose.presentation ?? null) === JSON.stringify(options.presentation ?? null) &&
        sameGif;
      if (!setup || !sameRender) return onePass('the render asked for is not the one composed ahead');
      try {
        // The recording is over: the part still being composed need not give way any more.
        for (const index of running) setPriority(parts[index]!.pid, 0);
        const cuts = await findCuts(compose.cleanFile, 'mjpeg', compose.smallFrames);
        const plan = planCompose({ layout: setup.layout, timeline: compose.timeline, style, durationMs: compose.timeline.durationMs, layers: setup.layers, cuts });
        const result = await finishParts({
          parts, plan, style, layers: setup.layers, capture: setup.capture, compose, dir, started,
          gifFrames: (from, part) => gifFramesFor(from, part),
          gifPalette: options.gifWidth && compose.gif
            ? makeGifPalette({
                cleanFile: compose.cleanFile, samples: paletteSamplesFile(compose.smallFrames ?? options.smallFrames), plate: setup.layers.plate, output,
                content: setup.layout.content, gifWidth: options.gifWidth, codec: 'mjpeg', file: path.join(dir, 'gif-palette.png'),
              }).catch(() => null)
            : null,
          gifSize: options.gifWidth ? { width: options.gifWidth, height: gifHeight(options.gifWidth, output) } : null,
          // This job's own part still being composed does not count: it is about to end.
          sideBySide: runningCompositors() <= running.size,
          memory: (i) => frames[i],
        });
        frames.length = 0;
        report.kept = result.kept.length;
        report.ranges = parts.map((part) => ({ from: part.from, to: part.to, kept: result.kept.includes(part) }));
        report.framesAhead = result.framesAhead;
        report.rest = result.rest;
        await fs.rm(dir, { recursive: true, force: true });
        return { ...result.composed, ahead: report };
      } catch (error) {
        await fs.rm(compose.outFile, { force: true });
        return onePass(`joining the parts failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

function gifHeight(width: number, output: { width: number; height: number }): number {
  return Math.max(2, Math.round((width * output.height) / output.width / 2) * 2);
}

/** The timeline as it stands: its lists copied, so the recorder writing on does not change what a part was planned on. */
function snapshotTimeline(timeline: Readonly<InteractionTimeline>): InteractionTimeline {
  return {
    viewport: timeline.viewport,
    durationMs: timeline.durationMs,
    cursor: timeline.cursor.slice(),
    clicks: timeline.clicks.slice(),
    keystrokes: timeline.keystrokes.slice(),
    scrolls: timeline.scrolls.slice(),
    focus: timeline.focus.slice(),
    steps: timeline.steps.slice(),
  };
}

/**
 * Every thread of a process to `nice`: on Linux a niceness belongs to a thread, and x264's threads, started at the
 * compositor's niceness, keep it when only the process id is changed (a part left low was the last thing a demo waited
 * for). Best effort: a process gone, or lowering niceness without the privilege, is left as it is.
 */
function setPriority(pid: number | undefined, nice: number): void {
  if (pid === undefined) return;
  let threads: string[] = [String(pid)];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    // no /proc: the process id alone
  }
  for (const thread of threads) {
    try {
      os.setPriority(Number(thread), nice);
    } catch {
      // gone already, or not allowed
    }
  }
}
