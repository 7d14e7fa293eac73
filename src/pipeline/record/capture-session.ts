import type { Page } from 'puppeteer-core';
import type { FrameControl } from '../browser/frame-control.js';
import { type EncodeResult, startVideoEncoder, type VideoEncoder, type VideoFormat } from '../encode/video-encoder.js';
import { type MotionClock, type Point, sleep, wallClock } from './motion.js';
import { type FrameCapture, type FrameCaptureStats, startFrameCapture } from './frame-capture.js';
import { type Screencast, type ScreencastStats, startScreencast } from './screencast.js';

/**
 * The capture loop's wiring, apart from the script it records (recorder.ts): the encoder (or the clean capture's
 * muxer) fed by either frame capture on a frame-controlled page or the realtime screencast, the clock the script's
 * motion runs on, and how it all ends: finished (capture stopped, the file written) or aborted (the partial file
 * removed).
 */
export interface CaptureSessionOptions {
  format: VideoFormat | 'capture';
  /** the largest frame to capture (the screencast scales down to fit); the encoder's size */
  size: { width: number; height: number };
  fps: number;
  frameCount: number;
  outFile: string;
  /** with the clean capture: its frames at 160×90 grey, for compose's cut detection (video-encoder.ts) */
  smallFrames?: string;
  /** the page's frame control: frames on demand; absent, the screencast in real time */
  control: FrameControl | undefined;
  /** where the cursor rests before the first move (it is moved there before frame 0) */
  cursor: Point;
  /** aborts waits on the wall clock (the screencast's) */
  signal: AbortSignal;
  quality: number;
  framePictures?: 'screencast' | 'screenshots';
  encoderNice: number;
  /** every frame written, in order (a watcher of the recording: RecordOptions.live) */
  onFrame?: (jpeg: Buffer) => void;
}

export interface CaptureOutcome {
  screencast: Pick<ScreencastStats, 'frameSize' | 'frameTimesMs'> & Partial<ScreencastStats>;
  frameCapture: FrameCaptureStats | null;
  captureFps: number;
  captureMode: 'frames' | 'screencast';
  encode: EncodeResult;
  /** Date.now() when capture stopped, before the encoder finished */
  captureStoppedAt: number;
}

export interface CaptureSession {
  /** the clock the script's motion runs on: frames on demand, or the wall clock from the first frame */
  clock: MotionClock;
  /** Date.now() at output frame 0 */
  t0: number;
  /** Stop capturing (the video has all its frames by now) and finish the file. */
  finish(videoMs: number): Promise<CaptureOutcome>;
  /** Stop everything and remove the partial file. Safe at any time. */
  abort(): Promise<void>;
}

export async function startCaptureSession(page: Page, options: CaptureSessionOptions): Promise<CaptureSession> {
  let encoder: VideoEncoder | null = null;
  let frames: FrameCapture | null = null;
  let screencast: Screencast | null = null;
  const abort = async () => {
    frames?.abort();
    await screencast?.abort().catch(() => undefined);
    await encoder?.abort().catch(() => undefined);
  };
  try {
    encoder = await startVideoEncoder({
      format: options.format === 'capture' ? 'mp4' : options.format,
      capture: options.format === 'capture',
      width: options.size.width,
      height: options.size.height,
      fps: options.fps,
      outFile: options.outFile,
      ...(options.smallFrames ? { smallFrames: options.smallFrames } : {}),
      nice: options.encoderNice,
    });
    const muxer = encoder;
    const onFrame = options.onFrame;
    const sink = onFrame
      ? {
          writeFrame(jpeg: Buffer) {
            onFrame(jpeg);
            return muxer.writeFrame(jpeg);
          },
          setNice: (nice: number) => muxer.setNice(nice),
          finish: () => muxer.finish(),
        }
      : muxer;
    const { cursor, signal } = options;
    let clock: MotionClock;
    let t0: number;
    if (options.control) {
      // The cursor goes to its rest before the capture starts, while the page still paints on its own: whatever it
      // hovers is in the opening picture. Moved after the start, in a browser's first page, the move's frame reported
      // damage but the screencast sent no picture for it, so the whole recording fell back to screenshots: 4 of 5
      // real pages in the one-shot CLI, each 0.9–1.8 s slower (docs/decisions.md).
      await page.mouse.move(cursor.x, cursor.y);
      const capture = await startFrameCapture(page, options.control, {
        fps: options.fps,
        frameCount: options.frameCount,
        quality: options.quality,
        sink: (jpeg) => sink.writeFrame(jpeg),
        signal,
        ...(options.framePictures ? { pictures: options.framePictures } : {}),
      });
      frames = capture;
      clock = capture;
      t0 = Date.now();
      capture.begin();
    } else {
      const capture = await startScreencast(page, {
        maxWidth: options.size.width,
        maxHeight: options.size.height,
        quality: options.quality,
        fps: options.fps,
        sink: (jpeg) => sink.writeFrame(jpeg),
      });
      screencast = capture;
      await page.mouse.move(cursor.x, cursor.y);
      await capture.firstFrame();
      t0 = Date.now();
      capture.begin(t0, options.frameCount);
      const start = t0;
      clock = { ...wallClock, now: () => Date.now() - start, sleep: (ms) => abortableSleep(ms, signal) };
    }
    return {
      clock,
      t0,
      abort,
      async finish(videoMs) {
        // Capture is over: let the encoder have the CPU (lowering niceness may need privileges; then it stays).
        if (options.encoderNice) sink.setNice(0);
        let captured: CaptureOutcome['screencast'];
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
        const encode = await sink.finish();
        encoder = null;
        return { screencast: captured, frameCapture: frameStats, captureFps, captureMode: frameStats ? 'frames' : 'screencast', encode, captureStoppedAt };
      },
    };
  } catch (error) {
    await abort();
    throw error;
  }
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
