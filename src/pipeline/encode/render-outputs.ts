import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type DerivedGif, type DerivedThumbnail, deriveGif, deriveThumbnail } from './derive.js';

/**
 * The three files a demo publishes, from the recorded (plain-rendered) video: the video itself, an animated GIF
 * preview (tailored palette, ~12 fps, 640–800 px wide) and a PNG thumbnail, both made from the encoded video so
 * they always match it — unless compose wrote them already from the same frames (ComposeOptions.gif, .thumbnail).
 */
export interface RenderOutputsOptions {
  /** the encoded video */
  videoFile: string;
  /** where the GIF and PNG go; default next to the video */
  outDir?: string;
  /** known duration, saves an ffprobe run */
  durationMs?: number;
  /** GIF width, 640–800; default 720 */
  gifWidth?: number;
  /** GIF frame rate; default 12 */
  gifFps?: number;
  /** only the first seconds go into the GIF; default 10 */
  gifMaxSeconds?: number;
  /** widest thumbnail; default 1280 */
  thumbnailMaxWidth?: number;
  /** the GIF, when compose wrote it already from the same frames (ComposeResult.gif): then it is not derived again */
  gif?: (DerivedGif & { file: string }) | null;
  /** the thumbnail, when compose wrote it already from the same frames (ComposeResult.thumbnail): then it is not derived again */
  thumbnail?: (DerivedThumbnail & { file: string }) | null;
}

export interface RenderedOutputs {
  video: string;
  gif: string;
  thumbnail: string;
  gifInfo: DerivedGif;
  thumbnailInfo: DerivedThumbnail;
  /** wall time per derived file */
  timings: { gifMs: number; thumbnailMs: number };
}

export async function renderOutputs(options: RenderOutputsOptions): Promise<RenderedOutputs> {
  const dir = options.outDir ?? path.dirname(path.resolve(options.videoFile));
  const base = path.basename(options.videoFile).replace(/\.[^.]+$/, '');
  const gif = options.gif?.file ?? path.join(dir, `${base}.gif`);
  const thumbnail = options.thumbnail?.file ?? path.join(dir, `${base}.png`);

  // One after the other: each ffmpeg uses the cores it can get, and in parallel they would only contend.
  let started = performance.now();
  const thumbnailInfo =
    options.thumbnail ??
    (await deriveThumbnail(options.videoFile, thumbnail, {
      ...(options.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
      maxWidth: options.thumbnailMaxWidth ?? 1280,
    }));
  const thumbnailMs = performance.now() - started;
  started = performance.now();
  const gifInfo =
    options.gif ??
    (await deriveGif(options.videoFile, gif, {
      width: options.gifWidth ?? 720,
      fps: options.gifFps ?? 12,
      maxSeconds: options.gifMaxSeconds ?? 10,
    }));
  const gifMs = performance.now() - started;
  return {
    video: options.videoFile,
    gif,
    thumbnail,
    gifInfo,
    thumbnailInfo,
    timings: { gifMs: Math.round(gifMs), thumbnailMs: Math.round(thumbnailMs) },
  };
}
