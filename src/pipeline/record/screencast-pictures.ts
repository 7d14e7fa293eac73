import type { Page } from 'puppeteer-core';
import type { FrameDriver } from '../browser/frame-control.js';

/** frames rendered at most when the screencast starts, until one leaves no damage */
const SETTLE_FRAMES = 4;
/** a timer this much later than asked for says this process was not running meanwhile (see take) */
const OVERSLEPT_MS = 20;
/**
 * A picture stamped less than this after a frame was sent is still the frame before's. A picture is stamped when it
 * reaches Chromium's browser process, after its frame was drawn and copied: no frame's own picture came sooner than
 * 6.4 ms after the frame was sent (about 700 pictures on saas at 720p, quiet and beside two recordings and two busy
 * loops), while the frame before's came up to 2.7 ms (once 7 ms) after it, about one picture in twenty on a quiet
 * machine. Counted by the send alone, such a picture went to the next frame whenever that one had no picture of its own
 * (the first frame of a reveal's fade, just after a scroll stopped), and the scroll's last frame repeated the one
 * before it while the page moved (issue 58: saas's clean capture, one run in two).
 */
export const OWN_PICTURE_AFTER_SEND_MS = 5;

/** Which of `sentAt` (frames in flight, oldest first, Date.now() clock) a picture stamped `stampMs` shows: the last sent before it, by OWN_PICTURE_AFTER_SEND_MS. */
export function pictureOwner(sentAt: number[], stampMs: number): number {
  return Math.max(0, sentAt.findLastIndex((sent) => sent + OWN_PICTURE_AFTER_SEND_MS <= stampMs));
}

export interface Picture {
  /** when Chromium took it (Date.now() clock) */
  stampMs: number;
  /** when it reached us (Date.now() clock) */
  arrivedAt: number;
  jpeg: Buffer;
}

export interface Pictures {
  /**
   * The picture of the oldest frame still waiting for one, sent at `after` (Date.now() clock): `inFlight` frames are
   * (this one and the later ones, the next sent at `before`; a picture stamped before it, by OWN_PICTURE_AFTER_SEND_MS,
   * is this one's). When `until` (Date.now()) passes first, or the
   * screencast stops: the pictures that came for these frames, oldest first, taken off the queue; fewer than
   * `inFlight`, as some frames got none.
   */
  take(options: { after: number; before: number; inFlight: number; until: number }): Promise<{ picture: Picture } | { timedOut: Picture[] }>;
  /** pictures dropped as stamped before the frame being filled was sent: late ones of a frame given up on */
  late(): number;
  /** pictures received and not taken yet */
  queued(): number;
  stop(): Promise<void>;
}

/**
 * The screencast on a frame-controlled page sends one picture for most frames that changed the screen (hasDamage),
 * a few ms after the frame: taken from the frame as drawn, stamped then (wall clock), and JPEG-encoded off the
 * renderer's path while the next frame renders. The encoding runs on a thread pool, so two pictures can arrive in
 * either order (seen: frames swapped in a scroll); their stamps are in the frames' order. So pictures are kept in
 * stamp order, and the oldest is a frame's when it was stamped before the next frame was sent (a later frame is
 * captured only after it is sent), or once every frame in flight has its picture.
 *
 * Started after the opening screenshot; a frame rendered here takes that screenshot's own damage, and whatever
 * the start itself sends is dropped, so that from here on pictures and damaged frames pair up one to one.
 */
export async function startPictures(page: Page, driver: FrameDriver, frameMs: number, quality: number, options: { again?: boolean } = {}): Promise<Pictures> {
  const session = await page.createCDPSession();
  /** in stamp order */
  const queue: Picture[] = [];
  let wake: (() => void) | null = null;
  let stopped = false;
  session.on('Page.screencastFrame', (event) => {
    if (stopped) return;
    const picture = { stampMs: (event.metadata.timestamp ?? 0) * 1000, arrivedAt: Date.now(), jpeg: Buffer.from(event.data, 'base64') };
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
    let deadline = until;
    let flushed = false;
    for (;;) {
      // A frame is captured after it is sent: anything stamped earlier belongs to a frame already given up on.
      while (queue[0] && queue[0].stampMs < after) {
        if (queue.shift()!.stampMs >= startedAt) late++;
      }
      const oldest = queue[0];
      if (oldest && (queue.length >= inFlight || oldest.stampMs < before + OWN_PICTURE_AFTER_SEND_MS)) return { picture: queue.shift()! };
      const left = deadline - Date.now();
      if (stopped) return { timedOut: queue.splice(0, inFlight) };
      if (left <= 0) {
        // Before a picture counts as missing (its frame then repeats the one before), make sure it is not already
        // on its way to us: a round trip on the screencast's own session brings every event Chromium sent before
        // it (the protocol keeps their order). On a busy machine (issue 58: two recordings and a CPU hog on two
        // cores) this process can sleep past the deadline, and then the timer fires before the socket is read:
        // the picture was there, and the frame repeated anyway.
        if (flushed) return { timedOut: queue.splice(0, inFlight) };
        flushed = true;
        await session.send('Runtime.evaluate', { expression: '0' }).catch(() => undefined);
        continue;
      }
      const asleepAt = Date.now();
      await arrival(left);
      // Time this process was not running is no time the screencast had: a timer that fires far later than asked
      // means the machine was busy, and the wait is extended by what it overslept.
      const overslept = Date.now() - asleepAt - left;
      if (overslept > OVERSLEPT_MS) deadline += overslept;
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
      // Started afresh during the recording (after a missed picture), the page's clock must not move on.
      const settle = await driver.frame({ ticks: driver.lastTicks + (i === 0 || options.again ? 0.01 : frameMs), interval: frameMs });
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
