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
 * Pictures (`pictures`), at the page's device size (the viewport times the browser's scale factor):
 *   screencast   (default) every frame is rendered without a screenshot; the screencast sends a picture of each one
 *                that changed the screen (hasDamage), drawn and JPEG-encoded while the next frame renders, and a
 *                frame without damage repeats the previous JPEG. On glasshouse at 1080p a changed frame costs about
 *                a third less wall time than a screenshot inside it, whose readback and encoding nothing overlaps.
 *                Should a damaged frame's picture never come (seen on the cheap saas fixture, not yet understood),
 *                that frame repeats the previous picture and the rest is captured by screenshots.
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
 * timer-driven motion runs at its own pace while frames take longer than 1/fps to capture.
 */

/** the longest a still stretch goes without a fresh screenshot (0.5 s at 30 fps), when capturing by screenshots */
const REFRESH_FRAMES = 15;
/**
 * How long after its frame was sent a damaged frame's picture may still come before it counts as missing. Frames
 * are rendered on meanwhile (waiting only once pictures would pile up), so a still stretch after it covers the wait.
 */
const PICTURE_WAIT_MS = 1_000;
/** frames rendered at most when the screencast starts, until one leaves no damage */
const SETTLE_FRAMES = 4;
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
  let pictures: Pictures | null = null;
  let last: Buffer | null = null;
  try {
    // The opening picture, taken before the screencast starts so that it cannot send one of its own for it.
    const opening = await driver.frame({ ticks: Math.max(driver.lastTicks + frameMs, monotonicMs()), interval: frameMs, screenshot: { quality } });
    last = opening.jpeg;
    if ((options.pictures ?? 'screencast') === 'screencast') pictures = await startPictures(page, driver, frameMs, quality);
    else await driver.frame({ ticks: driver.lastTicks + 0.01, interval: frameMs }); // the screenshot's own damage
  } catch (error) {
    await pictures?.stop();
    driver.release();
    throw error;
  }
  // Frame i is rendered at base + i·frameMs: after anything rendered so far, and not before now.
  const base = Math.max(driver.lastTicks + frameMs, monotonicMs());
  let index = 0;
  let written = 0;
  /**
   * Frames rendered but not written yet, in order: for a frame whose picture is on its way from the screencast, when
   * its frame was sent (Date.now()); null for a frame without one.
   */
  const unwritten: Array<{ sentAt: number } | null> = [];
  let dirty = true;
  /** a picture went missing: the frames in flight get theirs, then the rest is captured by screenshots */
  let givingUp = false;
  let sinceShot = 0;
  let released = false;
  const pending: Array<Promise<unknown>> = [];
  /** input not acknowledged by the frame it was sent for: waited for after the next one (settleInput) */
  const late: Array<Promise<unknown>> = [];
  const stats: FrameCaptureStats = {
    pictures: pictures ? 'screencast' : 'screenshots',
    framesWritten: 0, screenshots: 0, probes: 0, damagedProbes: 0, screenshotMs: 0, probeMs: 0, sinkMs: 0, strayPictures: 0, missedPictures: 0, frameSize: null, frameTimesMs: [],
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
    if (expects && pictures) {
      const waitAt = performance.now();
      // A picture taken before the next such frame was sent is this frame's; otherwise wait for both (see Pictures).
      const later = unwritten.filter((frame) => frame !== null);
      jpeg = await pictures.take({ after: expects.sentAt, before: later[0]?.sentAt ?? Infinity, inFlight: 1 + later.length, until: expects.sentAt + PICTURE_WAIT_MS });
      stats.screenshotMs += performance.now() - waitAt;
      if (!jpeg) {
        // Seen on the cheap saas fixture, a few times a recording, inside scrolls too: the screencast skipped a frame
        // that did change. This frame repeats the previous picture; the rest is captured by screenshots.
        stats.missedPictures++;
        givingUp = true;
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
    if (pictures) {
      // One picture at most on its way while the next frame renders: Chromium keeps two screencast frames in flight
      // and skips (does not queue) the capture of a third.
      while (unwritten.filter((frame) => frame !== null).length > 1) await writeOne();
    }
    if (pictures && !givingUp) {
      const at = performance.now();
      const sentAt = Date.now();
      const { damaged } = await driver.frame({ ticks, interval: frameMs });
      if (damaged) stats.screenshotMs += performance.now() - at;
      else {
        stats.probes++;
        stats.probeMs += performance.now() - at;
      }
      unwritten.push(damaged ? { sentAt } : null);
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
        stats.strayPictures = (pictures?.queued() ?? 0) + (pictures?.late() ?? 0);
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

interface Pictures {
  /**
   * The picture of the oldest frame still waiting for one, sent at `after` (Date.now() clock): `inFlight` frames are
   * (this one and the later ones, the next sent at `before`). Null when none came by `until` (Date.now()).
   */
  take(options: { after: number; before: number; inFlight: number; until: number }): Promise<Buffer | null>;
  /** pictures dropped as stamped before the frame being filled was sent: late ones of a frame given up on */
  late(): number;
  /** pictures received and not taken yet */
  queued(): number;
  stop(): Promise<void>;
}

/**
 * The screencast on a frame-controlled page sends one picture for each frame that changed the screen (hasDamage),
 * a few ms after the frame: taken from the frame as drawn, stamped then (wall clock), and JPEG-encoded off the
 * renderer's path while the next frame renders. The encoding runs on a thread pool, so two pictures can arrive in
 * either order (seen: frames swapped in a scroll); their stamps are in the frames' order. So pictures are kept in
 * stamp order, and the oldest is a frame's when it was stamped before the next frame was sent (a later frame is
 * captured only after it is sent), or once every frame in flight has its picture.
 *
 * Started after the opening screenshot; a frame rendered here takes that screenshot's own damage, and whatever
 * the start itself sends is dropped, so that from here on pictures and damaged frames pair up one to one.
 */
async function startPictures(page: Page, driver: FrameDriver, frameMs: number, quality: number): Promise<Pictures> {
  const session = await page.createCDPSession();
  /** in stamp order */
  const queue: Array<{ stampMs: number; jpeg: Buffer }> = [];
  let wake: (() => void) | null = null;
  let stopped = false;
  session.on('Page.screencastFrame', (event) => {
    if (stopped) return;
    const picture = { stampMs: (event.metadata.timestamp ?? 0) * 1000, jpeg: Buffer.from(event.data, 'base64') };
    let at = queue.length;
    while (at > 0 && queue[at - 1]!.stampMs > picture.stampMs) at--;
    queue.splice(at, 0, picture);
    session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    wake?.();
  });
  const arrival = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = null;
    });
  let late = 0;
  /** pictures stamped before this are the start's own (see below), dropped without being counted as late */
  let startedAt = 0;
  const take: Pictures['take'] = async ({ after, before, inFlight, until }) => {
    for (;;) {
      // A frame is captured after it is sent: anything stamped earlier belongs to a frame already given up on.
      while (queue[0] && queue[0].stampMs < after) {
        if (queue.shift()!.stampMs >= startedAt) late++;
      }
      const oldest = queue[0];
      if (oldest && (queue.length >= inFlight || oldest.stampMs < before)) return queue.shift()!.jpeg;
      const left = until - Date.now();
      if (left <= 0 || stopped) return null;
      await arrival(left);
    }
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    wake?.();
    await session.send('Page.stopScreencast').catch(() => undefined);
    await session.detach().catch(() => undefined);
  };
  try {
    await session.send('Page.startScreencast', { format: 'jpeg', quality, everyNthFrame: 1 });
    // The start leaves damage behind, and not always in one frame: often a second frame reports damage and sends no
    // picture, which the recording's first frame then waited a second for before giving the screencast up (seen in
    // one recording in four under load). So frames are rendered until one leaves no damage (at most a few, for a
    // page that animates), and whatever they send is dropped by its stamp, however late it comes.
    for (let i = 0; i < SETTLE_FRAMES; i++) {
      const settle = await driver.frame({ ticks: driver.lastTicks + (i === 0 ? 0.01 : frameMs), interval: frameMs });
      if (!settle.damaged) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  } catch (error) {
    await stop();
    throw error;
  }
  startedAt = Date.now();
  queue.length = 0;
  return { take, queued: () => queue.length, late: () => late, stop };
}
