import type { Page } from 'puppeteer-core';
import { type FrameControl, type FrameDriver, monotonicMs } from '../browser/frame-control.js';
import { jpegSize } from './screencast.js';
import type { MotionClock } from './motion.js';
import { pictureOwner, type Pictures, startPictures } from './screencast-pictures.js';

/**
 * Capture frame by frame on a frame-controlled page (browser/frame-control.ts): time is the frame count. The
 * recorder's motion runs on this clock: it sets the page up for the moment of frame i (scroll position, mouse,
 * keys), then `sleep` renders frame i with the frame time `i / fps` and captures it. So every output frame is the
 * page one frame further on — a scroll moves on every frame, a CSS transition advances exactly 1/fps per frame —
 * however long a frame takes to paint, and the interaction timeline, stamped with `now()`, is in the same time base
 * as the frames by construction: `now()` is always a frame's moment, and an event stamped `t` is in the picture of
 * frame t·fps/1000 (what is set up for a moment is rendered when the clock leaves it).
 *
 * Pictures (`pictures`), at the page's device size (the viewport times the browser's scale factor):
 *   screencast   (default) every frame is rendered without a screenshot; the screencast sends a picture of each one
 *                that changed the screen (hasDamage), drawn and JPEG-encoded while the next frame renders, and a
 *                frame without damage repeats the previous JPEG. On glasshouse at 1080p a changed frame costs about
 *                a third less wall time than a screenshot inside it, whose readback and encoding nothing overlaps.
 *                A damaged frame whose picture does not come (the first frame of a fade-in from nothing, where
 *                nothing visible changes yet) repeats the previous picture and the screencast is started afresh;
 *                only one that keeps missing them is given up, and the rest captured by screenshots.
 *   screenshots  a frame whose picture cannot have changed is only probed (rendered without a screenshot, ~1 ms
 *                when nothing is damaged); a screenshot is taken when the recorder changed the page (`changed()`: a
 *                scroll, a key, a click) or the probe reports damage (hover effects, the page's own animations).
 *                A screenshot damages the frame after it by itself (seen on Chromium 14x: S p+ p- for a still
 *                page), which would chain screenshots forever; so each screenshot is followed at once by a frame
 *                0.01 ms later that takes that damage (before any input for the next frame is sent, so a hover's
 *                damage is not swallowed). What that frame could still swallow (a timer or an image load landing in
 *                those few ms) is bounded by a screenshot at least every REFRESH_FRAMES frames.
 *
 * Not virtual: the page's JavaScript clock (Date, setTimeout, performance.now) stays the wall clock. Frame-driven
 * motion (CSS animations and transitions, requestAnimationFrame with its timestamp) follows the frame clock;
 * timer-driven motion runs at its own pace while frames take longer than 1/fps to capture. The frame clock starts
 * ahead of the wall clock (see LEAD_SHARE), so rAF timestamps read ahead of performance.now() during a capture.
 */

/**
 * How far ahead of the wall clock a capture's frame times start, as a share of the capture's length (LEAD_SHARE) and
 * at least MIN_LEAD_MS: a capture that falls behind real time by less than this keeps the page's animations on the
 * frame clock. Frame times must never fall behind the wall clock: Blink's animation clock, read outside a frame (a
 * task of ours such as the recorder's scrollTo, a timer of the page's), moves itself on to the wall clock (rounded
 * up to 1/60 s) when the last frame's time is behind it, and never goes back (AnimationClock::CurrentTime). On a
 * busy machine a capture runs slower than real time: a CSS transition then started on a frame that depended on the
 * load, and stood still for frames in a row until the frames caught up (frames without damage, repeating the one
 * before while the page should have moved: issue 58). Ahead of the wall clock, an out-of-frame read finds the
 * clock already past it and leaves it alone.
 */
const LEAD_SHARE = 1;
const MIN_LEAD_MS = 5_000;
/** the longest a still stretch goes without a fresh screenshot (0.5 s at 30 fps), when capturing by screenshots */
const REFRESH_FRAMES = 15;
/**
 * How long after the newest frame in flight was rendered a damaged frame's picture may still come before it counts
 * as missing: MISS_WAIT_FACTOR times the screencast's recent delay, at least MIN_MISS_WAIT_MS and at most
 * PICTURE_WAIT_MS (also the wait until a delay has been seen). Frames are rendered on meanwhile (waiting only once
 * pictures would pile up), so a still stretch after it covers the wait. Pictures take 20-60 ms here on a busy machine,
 * and now and then over 150 ms with a compositor beside (a picture waited for too briefly is a repeated frame).
 */
const PICTURE_WAIT_MS = 1_000;
const MIN_MISS_WAIT_MS = 300;
const MISS_WAIT_FACTOR = 6;
/** per picture received: how fast an old, long delay is forgotten */
const LATENCY_DECAY = 0.95;
/** restarts of the screencast after missed pictures, after which the rest is captured by screenshots */
const MAX_SCREENCAST_RESTARTS = 4;

/** A damaged frame rendered and not written yet: sent and rendered when (Date.now()), and its picture once decided. */
interface InFlight {
  sentAt: number;
  doneAt: number;
  /** set when an older frame's wait decided it: its picture, or null for none (it repeats the one before) */
  picture?: Buffer | null;
}
/** how long an input is waited for after the frame it was sent for, before it is left to the next frame */
const INPUT_SETTLE_MS = 40;

/** Whether `promise` settles within `ms`; its rejection, if it comes within, is thrown. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  promise.catch(() => undefined); // a rejection after the wait is thrown when it is waited for again
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}



export interface FrameCaptureOptions {
  fps: number;
  /** output frames; frames past it are rendered (time goes on) but not written */
  frameCount: number;
  /** JPEG quality, default 80 */
  quality?: number;
  /** receives each output frame in order; awaited (backpressure) */
  sink(jpeg: Buffer, index: number): Promise<void>;
  signal?: AbortSignal;
  /** default `screencast`; `screenshots` takes each picture inside its frame (slower: nothing overlaps) */
  pictures?: 'screencast' | 'screenshots';
}

export interface FrameCaptureStats {
  /** how pictures were taken: through the screencast, or by screenshots (from the start, or after a fallback) */
  pictures: 'screencast' | 'screenshots';
  /** output frames written */
  framesWritten: number;
  /** frames whose picture was captured (the rest repeat the previous one: nothing changed on screen) */
  screenshots: number;
  /** frames rendered without damage (no picture taken) */
  probes: number;
  /** screenshots taken after a probe found damage (screenshot capture only) */
  damagedProbes: number;
  /** wall ms spent rendering frames that got a picture (with their screenshot, or waiting for it), rendering the others, writing */
  screenshotMs: number;
  probeMs: number;
  sinkMs: number;
  /** screencast pictures left over at the end, or come too late for their frame, which no damaged frame took */
  strayPictures: number;
  /** damaged frames for which the screencast sent no picture (nothing visible changed): they repeat the previous one */
  missedPictures: number;
  /** times the screencast was started afresh after a missed picture */
  screencastRestarts: number;
  /**
   * frames rendered after the wall clock had passed their frame time (the capture fell further behind real time than
   * its lead): from the first, the page's animations may follow the wall clock instead of the frames (see LEAD_SHARE)
   */
  framesBehindWallClock: number;
  frameSize: { width: number; height: number } | null;
  /** output frames with a fresh screenshot, ms from the start (as the screencast's frame times) */
  frameTimesMs: number[];
}

export interface FrameCapture extends MotionClock {
  /** Start the clock at frame 0's moment (frame 0 is rendered by the first sleep, with what was set up for it). */
  begin(): void;
  /** Write whatever frames are left up to frameCount (holding the last picture) and give frames back. */
  finish(): Promise<FrameCaptureStats>;
  /** Give frames back without writing more; for error paths. */
  abort(): void;
  /** output frames written so far */
  readonly index: number;
}

export async function startFrameCapture(page: Page, control: FrameControl, options: FrameCaptureOptions): Promise<FrameCapture> {
  const frameMs = 1000 / options.fps;
  const quality = options.quality ?? 80;
  const leadMs = Math.max(MIN_LEAD_MS, LEAD_SHARE * options.frameCount * frameMs);
  const driver: FrameDriver = await control.takeOver();
  let pictures: Pictures | null = null;
  let last: Buffer | null = null;
  try {
    // The opening picture, taken before the screencast starts so that it cannot send one of its own for it.
    // The page's clock moves on by the lead here, at once (see LEAD_SHARE): animations running now are that much on.
    const opening = await driver.frame({ ticks: Math.max(driver.lastTicks + frameMs, monotonicMs() + leadMs), interval: frameMs, screenshot: { quality } });
    last = opening.jpeg;
    if ((options.pictures ?? 'screencast') === 'screencast') pictures = await startPictures(page, driver, frameMs, quality);
    else await driver.frame({ ticks: driver.lastTicks + 0.01, interval: frameMs }); // the screenshot's own damage
  } catch (error) {
    await pictures?.stop();
    driver.release();
    throw error;
  }
  // Frame i is rendered at base + i·frameMs: after anything rendered so far, and the lead ahead of now.
  const base = Math.max(driver.lastTicks + frameMs, monotonicMs() + leadMs);
  let index = 0;
  let written = 0;
  /** Frames rendered but not written yet, in order; null for a frame without damage (it repeats the picture before). */
  const unwritten: Array<InFlight | null> = [];
  /** the screencast's recent delay from a frame rendered to its picture received (a decaying maximum) */
  let latencyMs = PICTURE_WAIT_MS / MISS_WAIT_FACTOR;
  /** how long after the newest frame in flight was rendered the pictures not come by then are given up */
  const missWaitMs = () => Math.min(PICTURE_WAIT_MS, Math.max(MIN_MISS_WAIT_MS, MISS_WAIT_FACTOR * latencyMs));
  /** a picture went missing: the screencast is started afresh before the next frame */
  let restartPictures = false;
  let dirty = true;
  /** the screencast stopped sending pictures: the frames in flight get theirs, then the rest is captured by screenshots */
  let givingUp = false;
  let sinceShot = 0;
  let released = false;
  const pending: Array<Promise<unknown>> = [];
  /** input not acknowledged by the frame it was sent for: waited for after the next one (settleInput) */
  const late: Array<Promise<unknown>> = [];
  const stats: FrameCaptureStats = {
    pictures: pictures ? 'screencast' : 'screenshots',
    framesWritten: 0, screenshots: 0, probes: 0, damagedProbes: 0, screenshotMs: 0, probeMs: 0, sinkMs: 0, strayPictures: 0, missedPictures: 0, screencastRestarts: 0, framesBehindWallClock: 0, frameSize: null, frameTimesMs: [],
  };

  const release = async () => {
    if (released) return;
    released = true;
    await pictures?.stop();
    driver.release();
  };

  /** Write the oldest unwritten frame: its picture once the screencast has sent it, or the previous one. */
  const writeOne = async () => {
    const expects = unwritten.shift();
    let jpeg: Buffer | null = null;
    if (expects && expects.picture !== undefined) jpeg = expects.picture;
    else if (expects && pictures) {
      const waitAt = performance.now();
      // A picture taken before the next such frame was sent is this frame's; otherwise wait for both (see Pictures).
      const later = unwritten.filter((frame): frame is InFlight => frame !== null && frame.picture === undefined);
      const newest = later.at(-1) ?? expects;
      const taken = await pictures.take({ after: expects.sentAt, before: later[0]?.sentAt ?? Infinity, inFlight: 1 + later.length, until: newest.doneAt + missWaitMs() });
      stats.screenshotMs += performance.now() - waitAt;
      if ('picture' in taken) {
        jpeg = taken.picture.jpeg;
        latencyMs = Math.max(taken.picture.arrivedAt - expects.doneAt, latencyMs * LATENCY_DECAY);
      } else {
        // Every frame in flight has had its time. The pictures that came are the oldest frames', in order (if the
        // one missing was an older frame's, that frame shows the next one's picture a frame early: the same one
        // repeated frame either way). The frames left without one repeat the picture before: the screencast sends
        // none for some frames that report damage, such as the first of a fade-in from nothing, where nothing
        // visible changes yet (the saas fixture's cards, two of the five real pages).
        // A picture belongs to the last frame sent before it was taken (its stamp, a few ms after its frame: see
        // OWN_PICTURE_AFTER_SEND_MS): one that came for a later frame is not shown a frame early in place of a
        // missing one, nor one of this frame's, stamped just after the next was sent, a frame late.
        const frames = [expects, ...later];
        const owner = (picture: { stampMs: number }) => pictureOwner(frames.map((frame) => frame.sentAt), picture.stampMs);
        const got = new Map<number, Buffer>();
        for (const picture of taken.timedOut) {
          const k = owner(picture);
          if (!got.has(k)) got.set(k, picture.jpeg);
        }
        jpeg = got.get(0) ?? null;
        later.forEach((frame, k) => (frame.picture = got.get(k + 1) ?? null));
        const missed = frames.length - got.size;
        stats.missedPictures += missed;
        if (missed > 0) {
          // The newest frame, left without a picture, is taken by a screenshot: nothing rendered since can have
          // changed it (frames without damage at most). Its frame is 0.01 ms on; what the screencast sends for it is
          // dropped with the screencast, stopped or started afresh before the next frame.
          const shot = (await driver.frame({ ticks: driver.lastTicks + 0.01, interval: frameMs, screenshot: { quality } })).jpeg;
          if (later.length === 0) jpeg = shot;
          else later.at(-1)!.picture = shot;
          // After such a frame the screencast often sends no more pictures for a while (three frames in a row and
          // more); started afresh, it sends them again at once. One that keeps missing them is given up.
          if (stats.screencastRestarts >= MAX_SCREENCAST_RESTARTS) givingUp = true;
          else restartPictures = true;
        }
      }
    }
    await write(jpeg);
  };

  const write = async (jpeg: Buffer | null) => {
    if (jpeg) {
      stats.screenshots++;
      last = jpeg;
    }
    if (written < options.frameCount) {
      if (!last) throw new Error('The first frame could not be captured.');
      stats.frameSize ??= jpegSize(last);
      // Frame 0 shows a fresh picture either way: its own, or the opening one of a page that has not changed since.
      if (jpeg || written === 0) stats.frameTimesMs.push(Math.round(written * frameMs));
      const sinkAt = performance.now();
      await options.sink(last, written);
      stats.sinkMs += performance.now() - sinkAt;
      stats.framesWritten++;
    }
    written++;
  };

  /** Render frame `index` and write it (or, with the screencast, leave it to be written once its picture is in). */
  const nextFrame = async () => {
    options.signal?.throwIfAborted();
    if (page.isClosed()) throw new Error('The page was closed while it was being recorded.');
    const ticks = base + index * frameMs;
    if (ticks < monotonicMs()) stats.framesBehindWallClock++;
    if (pictures) {
      // One picture at most on its way while the next frame renders: Chromium keeps two screencast frames in flight
      // and skips (does not queue) the capture of a third.
      while (unwritten.filter((frame) => frame !== null).length > 1) await writeOne();
      if (restartPictures && !givingUp) {
        // The frames in flight are decided first: a picture of theirs coming after the restart would be dropped.
        while (unwritten.length > 0) await writeOne();
        if (!givingUp) {
          stats.strayPictures += pictures.queued() + pictures.late();
          await pictures.stop();
          pictures = await startPictures(page, driver, frameMs, quality, { again: true }).catch(() => null);
          stats.screencastRestarts++;
          // A screencast that does not start again: the rest is captured by screenshots.
          if (!pictures) {
            stats.pictures = 'screenshots';
            dirty = true;
          }
        }
      }
      restartPictures = false;
    }
    if (pictures && !givingUp) {
      const at = performance.now();
      const sentAt = Date.now();
      const { damaged } = await driver.frame({ ticks, interval: frameMs });
      const doneAt = Date.now();
      if (damaged) stats.screenshotMs += performance.now() - at;
      else {
        stats.probes++;
        stats.probeMs += performance.now() - at;
      }
      unwritten.push(damaged ? { sentAt, doneAt } : null);
      // The frames before this one are decided now, before anything is set up for the next frame: should a picture
      // be missing, the screenshot that stands in for it is taken of this frame as rendered, not of the page already
      // moved on (a scroll a frame further, which the next frame then repeated).
      while (unwritten.filter((frame) => frame !== null).length > 1) await writeOne();
    } else {
      while (unwritten.length > 0) await writeOne(); // frames left from the screencast, when it was given up
      if (pictures) {
        await pictures.stop();
        pictures = null;
        stats.pictures = 'screenshots';
        dirty = true;
      }
      await screenshotFrame(ticks);
    }
    await settleInput();
    dirty = false;
    index++;
  };

  /**
   * Input sent for a frame has almost always been handled (and acknowledged) by the time the frame is rendered:
   * its failures surface here. An input that reached the page only after the frame began is handled in the next
   * frame, and acknowledged then; waiting for it before rendering that frame waited for an acknowledgement no frame
   * would bring, until Chromium gave up after 5 s (seen one recording in three under load: a move step of 200 ms
   * took 5.2 s). So such input is waited for again after the next frame instead.
   */
  const settleInput = async () => {
    if (late.length > 0) {
      const earlier = late.splice(0);
      if (!(await settledWithin(Promise.all(earlier), INPUT_SETTLE_MS))) late.push(...earlier);
    }
    if (pending.length === 0) return;
    const sent = pending.splice(0);
    if (!(await settledWithin(Promise.all(sent), INPUT_SETTLE_MS))) late.push(...sent);
  };

  /** Screenshot capture: a frame whose picture may be new is captured inside the frame; the others are probed. */
  const screenshotFrame = async (ticks: number) => {
    let jpeg: Buffer | null = null;
    if (sinceShot >= REFRESH_FRAMES) dirty = true;
    if (!dirty && last) {
      const probeAt = performance.now();
      const probe = await driver.frame({ ticks, interval: frameMs });
      stats.probes++;
      stats.probeMs += performance.now() - probeAt;
      if (probe.damaged) stats.damagedProbes++;
      dirty = probe.damaged;
    }
    if (dirty || !last) {
      const shotAt = performance.now();
      const shot = await driver.frame({ ticks, interval: frameMs, screenshot: { quality } });
      // Take the damage the screenshot itself leaves, so the next probe sees only the page's own.
      await driver.frame({ ticks: ticks + 0.01, interval: frameMs });
      stats.screenshotMs += performance.now() - shotAt;
      jpeg = shot.jpeg;
    }
    sinceShot = jpeg ? 0 : sinceShot + 1;
    await write(jpeg);
  };

  let begun = false;
  const clock: FrameCapture = {
    tickMs: frameMs,
    perFrame: true,
    get index() {
      return index;
    },
    now: () => index * frameMs,
    async sleep(ms: number) {
      if (!begun) throw new Error('The frame capture has not begun.');
      const until = index * frameMs + ms;
      // A sleep that ends between two frames ends at the next one: motion lands on frame boundaries.
      while (index * frameMs < until - 1e-6) await nextFrame();
    },
    async input(send) {
      const sent = send();
      pending.push(sent);
      // Most input is acknowledged at once; a mouse move waits for the next frame, which sleep() will render.
      await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 5))]);
    },
    changed() {
      dirty = true;
    },
    begin() {
      begun = true;
      dirty = true;
    },
    async finish() {
      try {
        while (index < options.frameCount) await nextFrame();
        while (unwritten.length > 0) await writeOne();
        stats.strayPictures += (pictures?.queued() ?? 0) + (pictures?.late() ?? 0);
      } finally {
        await release();
      }
      // Input not acknowledged yet is, by the idle pump's frames from now on; its failures still surface.
      await Promise.all([...late.splice(0), ...pending.splice(0)]);
      return stats;
    },
    abort() {
      for (const p of [...late.splice(0), ...pending.splice(0)]) p.catch(() => undefined);
      void release();
    },
  };
  return clock;
}
