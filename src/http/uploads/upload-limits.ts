import type { Config } from '../../platform/config.js';
import { QuotaError, ValidationError } from '../../platform/errors.js';
import type { RateLimit } from '../../platform/rate-limit.js';
import type { VideoInfo } from '../../pipeline/encode/probe.js';

/**
 * What a video upload may cost (issue 34, finding 5): a 94 KB 4096×2304 @ 60 fps MP4 used to cost 3.5 s of ffmpeg in
 * the API process, 240 times a minute per user. Now the bytes are bounded (SHOWREEL_MAX_UPLOAD_BYTES), the picture
 * (resolution, frame rate, duration: checked from ffprobe's reading of the header before anything is derived), the
 * uploads a user has in flight (a few at once) and in an hour (a demo video is not uploaded hundreds of times).
 */

/** Seconds a refused client should wait before trying again: an upload in flight is usually done by then. */
const IN_FLIGHT_RETRY_SECONDS = 10;

/** Uploads being received or checked, per user, in this process. */
const inFlight = new Map<string, number>();

/**
 * Takes one of the user's in-flight upload slots (429 with Retry-After when all are taken); the returned function
 * gives it back. Counted per API process: the bound is on what one process spends at once (disk, ffprobe, a
 * connection), and the hourly limit, in PostgreSQL, bounds the total across processes.
 */
export function holdUploadSlot(userId: string, max: number): () => void {
  const held = inFlight.get(userId) ?? 0;
  if (held >= max) {
    throw new QuotaError(
      `Too many uploads at once: at most ${max} in flight per user; try again in ${IN_FLIGHT_RETRY_SECONDS} s, when one has finished.`,
      IN_FLIGHT_RETRY_SECONDS,
    );
  }
  inFlight.set(userId, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inFlight.get(userId) ?? 1) - 1;
    if (left > 0) inFlight.set(userId, left);
    else inFlight.delete(userId);
  };
}

/** The hourly limit on video uploads per user (SHOWREEL_UPLOADS_PER_HOUR), on top of the per-minute request limits. */
export function hourlyUploadLimit(config: Config, userId: string): RateLimit {
  return { bucket: `user:${userId}:video upload`, limit: config.SHOWREEL_UPLOADS_PER_HOUR, windowSeconds: 3600 };
}

/**
 * Refuses (400, naming the limit) a video larger, faster or longer than the service takes. Orientation is free: a
 * 2160×3840 portrait video fits a 3840x2160 bound. A duration the file does not state (a browser's WebM) is not
 * refused: the GIF only ever reads the first 10 s, and the bytes are bounded anyway.
 */
export function checkVideoBounds(info: Pick<VideoInfo, 'width' | 'height' | 'fps' | 'durationMs'>, config: Config): void {
  const [maxWidth, maxHeight] = config.SHOWREEL_UPLOAD_MAX_RESOLUTION.split('x').map(Number) as [number, number];
  const [long, short] = [Math.max(info.width, info.height), Math.min(info.width, info.height)];
  if (long > Math.max(maxWidth, maxHeight) || short > Math.min(maxWidth, maxHeight)) {
    throw new ValidationError(`The video is ${info.width}×${info.height}; the largest resolution taken is ${maxWidth}×${maxHeight}.`);
  }
  // 59.94 fps is "60": a small tolerance for NTSC rates.
  const maxFps = config.SHOWREEL_UPLOAD_MAX_FPS;
  if (info.fps !== null && info.fps > maxFps * 1.001) {
    throw new ValidationError(`The video runs at ${Math.round(info.fps * 100) / 100} fps; the highest frame rate taken is ${maxFps} fps.`);
  }
  const maxSeconds = config.SHOWREEL_UPLOAD_MAX_SECONDS;
  if (info.durationMs !== null && info.durationMs > maxSeconds * 1000) {
    throw new ValidationError(`The video is ${formatDuration(info.durationMs / 1000)} long; the longest taken is ${formatDuration(maxSeconds)}.`);
  }
}

function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return minutes === 0 ? `${rest} s` : rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
