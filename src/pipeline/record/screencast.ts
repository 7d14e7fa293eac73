import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { FrameResampler, type ResamplerStats } from './resampler.js';

/**
 * Capture through the CDP screencast: Chrome pushes a JPEG whenever the screen changes (33–36 fps at 1080p and
 * ~46 fps at 720p on a quiet machine, far above screenshot polling). Each frame is acknowledged at once (Chrome
 * keeps only two frames in flight), ordered by its timestamp, resampled to a constant rate by FrameResampler and
 * handed to `sink` in order, one at a time, as they come. Output frames that repeat a picture share its buffer, so
 * the queue for the sink costs memory only for distinct pictures; when those exceed `maxBacklogBytes` (the encoder
 * is far behind), acknowledgements are withheld until it catches up, so Chrome slows down instead of frames piling
 * up in memory.
 *
 * Frame size: with device emulation (a deviceScaleFactor set through Emulation.setDeviceMetricsOverride, as
 * puppeteer's setViewport does) Chrome sends frames at the CSS viewport size, whatever the scale factor; a launch
 * with --force-device-scale-factor and no DSF override gives frames at device pixels. `frameSize` reports it.
 *
 * Frame timestamps are Chrome's wall clock (seconds since the epoch), the same clock as Date.now().
 */

export interface ScreencastOptions {
  maxWidth: number;
  maxHeight: number;
  /** JPEG quality, default 80 */
  quality?: number;
  /** output frame rate, default 30 */
  fps?: number;
  /** default 150 ms: latecomers seen here arrive up to ~140 ms after their timestamp at 1080p */
  reorderWindowMs?: number;
  /** bytes of distinct JPEGs waiting for the sink before acks are withheld; default 64 MB */
  maxBacklogBytes?: number;
  /** receives each output frame in order; the next call waits for the previous one to resolve */
  sink(jpeg: Buffer, index: number): Promise<void>;
}

export interface ScreencastStats extends ResamplerStats {
  /** input frames whose timestamp falls inside the recorded span */
  framesReceived: number;
  /** framesReceived per second of the recorded span, before resampling */
  captureFps: number;
  /** output frames delivered to the sink */
  framesWritten: number;
  /** the recorded span (ms) = framesWritten / fps */
  durationMs: number;
  /** most output frames ever waiting for the sink */
  maxBacklogFrames: number;
  /** most bytes of distinct JPEGs ever waiting for the sink */
  maxBacklogBytes: number;
  /** frames whose ack was withheld because the sink was behind */
  acksDeferred: number;
  /** when capture stopped (Date.now() clock); what stop() spent after it went on feeding the sink */
  captureStoppedAt: number;
  /** the size of the first frame, in pixels (null if none arrived) */
  frameSize: { width: number; height: number } | null;
  /** when each of those frames was taken, ms from the start, ascending: capture rate over any stretch */
  frameTimesMs: number[];
}

export interface Screencast {
  /** Resolves with the first frame's timestamp (the page as it is now), or rejects after timeoutMs. */
  firstFrame(timeoutMs?: number): Promise<number>;
  /**
   * Start the output: frame 0 is the moment `startMs` (Date.now() clock); exactly `frameCount` frames will be
   * produced. Frames captured before it only provide the opening picture.
   */
  begin(startMs: number, frameCount: number): void;
  /** Stop capturing, emit the remaining frames (holding the last one) and wait for the sink to take them. */
  stop(): Promise<ScreencastStats>;
  /** Stop capturing and drop everything; for error paths. */
  abort(): Promise<void>;
}

interface Frame {
  ts: number;
  jpeg: Buffer;
}

export async function startScreencast(page: Page, options: ScreencastOptions): Promise<Screencast> {
  const fps = options.fps ?? 30;
  const windowMs = options.reorderWindowMs ?? 150;
  const maxBacklogBytes = options.maxBacklogBytes ?? 64 * 1024 * 1024;
  const client: CDPSession = await page.createCDPSession();

  let preroll: Frame | null = null;
  let resampler: FrameResampler<Buffer> | null = null;
  let startMs = 0;
  let endMs = Number.POSITIVE_INFINITY;
  let frameCount = 0;
  let received = 0;
  const frameTimes: number[] = [];
  let stopped = false;
  let firstTs: number | null = null;
  const firstWaiters: Array<(ts: number) => void> = [];

  const queue: Buffer[] = [];
  /** queued references per distinct buffer, and the bytes of those buffers */
  const queuedRefs = new Map<Buffer, number>();
  let queuedBytes = 0;
  let maxQueuedBytes = 0;
  let frameSize: { width: number; height: number } | null = null;
  let queueIndex = 0;
  let written = 0;
  let pumping: Promise<void> | null = null;
  let sinkError: unknown = null;
  let maxQueued = 0;
  let acksDeferred = 0;
  const deferredAcks: number[] = [];

  const ack = (sessionId: number) => {
    client.send('Page.screencastFrameAck', { sessionId }).catch(() => undefined);
  };
  const enqueue = (jpeg: Buffer) => {
    queue.push(jpeg);
    const refs = queuedRefs.get(jpeg) ?? 0;
    queuedRefs.set(jpeg, refs + 1);
    if (refs === 0) queuedBytes += jpeg.length;
    maxQueued = Math.max(maxQueued, queue.length);
    maxQueuedBytes = Math.max(maxQueuedBytes, queuedBytes);
  };
  const dequeue = (): Buffer => {
    const jpeg = queue.shift()!;
    const refs = queuedRefs.get(jpeg) ?? 1;
    if (refs <= 1) {
      queuedRefs.delete(jpeg);
      queuedBytes -= jpeg.length;
    } else {
      queuedRefs.set(jpeg, refs - 1);
    }
    return jpeg;
  };
  const releaseAcks = () => {
    if (queuedBytes > maxBacklogBytes / 2) return;
    for (const sessionId of deferredAcks.splice(0)) ack(sessionId);
  };

  const pump = () => {
    pumping ??= (async () => {
      while (queue.length > 0 && sinkError === null) {
        const jpeg = dequeue();
        try {
          await options.sink(jpeg, queueIndex++);
          written++;
        } catch (error) {
          sinkError = error;
          queue.length = 0;
          queuedRefs.clear();
          queuedBytes = 0;
        }
        releaseAcks();
      }
      releaseAcks();
      pumping = null;
    })();
    return pumping;
  };

  const onFrame = (event: Protocol.Page.ScreencastFrameEvent) => {
    const ts = (event.metadata.timestamp ?? Date.now() / 1000) * 1000;
    if (!stopped) {
      const jpeg = Buffer.from(event.data, 'base64');
      if (firstTs === null) {
        firstTs = ts;
        frameSize = jpegSize(jpeg);
        for (const resolve of firstWaiters.splice(0)) resolve(ts);
      }
      if (resampler) {
        if (ts >= startMs && ts <= endMs) {
          received++;
          frameTimes.push(Math.round(ts - startMs));
        }
        resampler.push(ts, jpeg);
      } else if (!preroll || ts > preroll.ts) {
        preroll = { ts, jpeg };
      }
    }
    if (queuedBytes > maxBacklogBytes && !stopped) {
      acksDeferred++;
      deferredAcks.push(event.sessionId);
    } else {
      ack(event.sessionId);
    }
  };
  client.on('Page.screencastFrame', onFrame);

  const tick = () => {
    if (!resampler) return;
    resampler.advance(Date.now());
    if (queue.length > 0) void pump();
  };
  const timer = setInterval(tick, Math.max(10, Math.round(1000 / fps)));

  await client.send('Page.startScreencast', {
    format: 'jpeg',
    quality: options.quality ?? 80,
    maxWidth: options.maxWidth,
    maxHeight: options.maxHeight,
    everyNthFrame: 1,
  });

  const shutdown = async () => {
    stopped = true;
    clearInterval(timer);
    client.off('Page.screencastFrame', onFrame);
    await client.send('Page.stopScreencast').catch(() => undefined);
    await client.detach().catch(() => undefined);
  };

  return {
    firstFrame(timeoutMs = 10_000) {
      if (firstTs !== null) return Promise.resolve(firstTs);
      return new Promise<number>((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error(`The screencast sent no frame within ${timeoutMs} ms.`)), timeoutMs);
        firstWaiters.push((ts) => {
          clearTimeout(timeout);
          resolve(ts);
        });
      });
    },
    begin(start: number, count: number) {
      if (resampler) throw new Error('The screencast output has begun already.');
      startMs = start;
      frameCount = count;
      endMs = start + (count * 1000) / fps;
      resampler = new FrameResampler<Buffer>({
        startMs: start,
        fps,
        reorderWindowMs: windowMs,
        maxFrames: count,
        emit: enqueue,
      });
      if (preroll) resampler.push(preroll.ts, preroll.jpeg);
      preroll = null;
    },
    async stop() {
      if (!resampler) {
        await shutdown();
        throw new Error('The screencast was stopped before it began.');
      }
      // Frames of the last moments may still be on their way.
      const wait = endMs + windowMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, windowMs)));
      await shutdown();
      const captureStoppedAt = Date.now();
      resampler.finish(frameCount);
      // Deferred acks no longer matter once stopped; drain the queue into the sink.
      while (queue.length > 0 || pumping) await pump();
      if (sinkError !== null) throw sinkError;
      const stats = resampler.stats;
      const spanMs = (frameCount * 1000) / fps;
      return {
        ...stats,
        framesReceived: received,
        captureFps: spanMs > 0 ? Math.round((received / (spanMs / 1000)) * 10) / 10 : 0,
        framesWritten: written,
        durationMs: Math.round((written * 1000) / fps),
        maxBacklogFrames: maxQueued,
        maxBacklogBytes: maxQueuedBytes,
        acksDeferred,
        captureStoppedAt,
        frameSize,
        frameTimesMs: frameTimes.sort((a, b) => a - b),
      };
    },
    async abort() {
      queue.length = 0;
      queuedRefs.clear();
      queuedBytes = 0;
      sinkError ??= new Error('aborted');
      await shutdown();
    },
  };
}

/** Width and height from a JPEG's start-of-frame marker, or null. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  let i = 2;
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  while (i + 9 < jpeg.length) {
    if (jpeg[i] !== 0xff) return null;
    const marker = jpeg[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = jpeg.readUInt16BE(i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}
