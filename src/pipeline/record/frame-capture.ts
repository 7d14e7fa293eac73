import type { Page } from 'puppeteer-core';
import { type FrameControl, type FrameDriver, monotonicMs } from '../browser/frame-control.js';
import { jpegSize } from './screencast.js';
import type { MotionClock } from './motion.js';

/**
 * Capture frame by frame on a frame-controlled page (browser/frame-control.ts): time is the frame count. The
 * recorder's motion runs on this clock: it sets the page up for the moment of frame i (scroll position, mouse,
 * keys), then `sleep` renders frame i with the frame time `i / fps` and captures it. So every output frame is the
 * page one frame further on — a scroll moves on every frame, a CSS transition advances exactly 1/fps per frame —
 * however long a frame takes to paint, and the interaction timeline, stamped with `now()`, is in the same time base
 * as the frames by construction: `now()` is always a frame's moment, and an event stamped `t` is in the picture of
 * frame t·fps/1000 (what is set up for a moment is rendered when the clock leaves it).
 *
 * Cost: a frame whose picture cannot have changed is only probed (rendered without a screenshot, ~1 ms when
 * nothing is damaged) and the previous JPEG is written again; a screenshot is taken when the recorder changed the
 * page (`changed()`: a scroll, a key, a click) or the probe reports damage (hover effects, the page's own
 * animations). Screenshots are at the page's device size (the viewport times the browser's scale factor).
 * A screenshot damages the frame after it by itself (seen on Chromium 14x: S p+ p- for a still page), which would
 * chain screenshots forever; so each screenshot is followed at once by a frame 0.01 ms later that takes that damage
 * (before any input for the next frame is sent, so a hover's damage is not swallowed). What that frame could still
 * swallow (a timer or an image load landing in those few ms) is bounded by a screenshot at least every
 * REFRESH_FRAMES frames.
 *
 * Not virtual: the page's JavaScript clock (Date, setTimeout, performance.now) stays the wall clock. Frame-driven
 * motion (CSS animations and transitions, requestAnimationFrame with its timestamp) follows the frame clock;
 * timer-driven motion runs at its own pace while frames take longer than 1/fps to capture.
 */

/** the longest a still stretch goes without a fresh screenshot (0.5 s at 30 fps) */
const REFRESH_FRAMES = 15;

export interface FrameCaptureOptions {
  fps: number;
  /** output frames; frames past it are rendered (time goes on) but not written */
  frameCount: number;
  /** JPEG quality, default 80 */
  quality?: number;
  /** receives each output frame in order; awaited (backpressure) */
  sink(jpeg: Buffer, index: number): Promise<void>;
  signal?: AbortSignal;
}

export interface FrameCaptureStats {
  /** output frames written */
  framesWritten: number;
  /** frames whose picture was captured (the rest repeat the previous one: nothing changed on screen) */
  screenshots: number;
  /** frames only probed */
  probes: number;
  /** screenshots taken after a probe found damage */
  damagedProbes: number;
  /** wall ms spent in screenshots, probes, writing */
  screenshotMs: number;
  probeMs: number;
  sinkMs: number;
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
  const driver: FrameDriver = await control.takeOver();
  // Frame i is rendered at base + i·frameMs: after anything the pump rendered, and not before now.
  const base = Math.max(driver.lastTicks + frameMs, monotonicMs());
  let index = 0;
  let dirty = true;
  let last: Buffer | null = null;
  let sinceShot = 0;
  let released = false;
  const pending: Array<Promise<unknown>> = [];
  const stats: FrameCaptureStats = {
    framesWritten: 0, screenshots: 0, probes: 0, damagedProbes: 0, screenshotMs: 0, probeMs: 0, sinkMs: 0, frameSize: null, frameTimesMs: [],
  };

  const release = () => {
    if (released) return;
    released = true;
    driver.release();
  };

  /** Render frame `index`, capture it when its picture may be new, write it, and move the clock on. */
  const nextFrame = async () => {
    options.signal?.throwIfAborted();
    if (page.isClosed()) throw new Error('The page was closed while it was being recorded.');
    const ticks = base + index * frameMs;
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
      if (shot.jpeg) {
        stats.screenshots++;
        jpeg = shot.jpeg;
        stats.frameSize ??= jpegSize(jpeg);
      }
    }
    sinceShot = jpeg ? 0 : sinceShot + 1;
    dirty = false;
    // Input sent for this frame has been handled by now; surface its failures.
    if (pending.length > 0) await Promise.all(pending.splice(0));
    if (index < options.frameCount) {
      const picture = jpeg ?? last;
      if (!picture) throw new Error('The first frame could not be captured.');
      if (jpeg) stats.frameTimesMs.push(Math.round(index * frameMs));
      const sinkAt = performance.now();
      await options.sink(picture, index);
      stats.sinkMs += performance.now() - sinkAt;
      stats.framesWritten++;
    }
    if (jpeg) last = jpeg;
    index++;
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
        if (pending.length > 0) await Promise.all(pending.splice(0));
        return stats;
      } finally {
        release();
      }
    },
    abort() {
      for (const p of pending.splice(0)) p.catch(() => undefined);
      release();
    },
  };
  return clock;
}
