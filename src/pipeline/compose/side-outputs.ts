import fs from 'node:fs/promises';
import path from 'node:path';
import { pngDimensions } from '../../platform/media-signatures.js';
import { checkGifOptions, type DerivedGif, type DerivedThumbnail, describeGif, gifColours, gifFramesFilter, gifPaletteFilter, gifPaletteUse, thumbnailTimeMs } from '../encode/derive.js';
import { InvalidVideoError } from '../encode/probe.js';

/**
 * The compose pass's other outputs, beside the video: the GIF preview and the PNG thumbnail, made from the finished
 * frames before they are encoded (the same frames the video shows), so neither costs a decode of the finished video
 * nor an ffmpeg run of its own. They follow deriveGif's and deriveThumbnail's definitions (filters, defaults, the
 * thumbnail's time), so a demo's files look as they did when derived afterwards.
 */
export interface SideOutputOptions {
  /** deriveGif's filters and defaults: 12 fps, the first 10 s */
  gif?: { file: string; width: number; fps?: number; maxSeconds?: number } | undefined;
  /**
   * deriveThumbnail's size (never wider than maxWidth, default 1280) and frame: the one at `atMs` (the main shot,
   * main-shot.ts) when given, else thumbnailTimeMs of the video's duration
   */
  thumbnail?: { file: string; maxWidth?: number; atMs?: number | null } | undefined;
}

export interface SideOutputs {
  /** appended to the filter graph: splits `[out]` and ends the video's branch in `[video]` */
  graph: string;
  /** the label the video's output maps */
  videoLabel: string;
  /** ffmpeg output arguments of the side outputs, after the video's */
  args: string[];
  /**
   * The GIF's own ffmpeg (its arguments), reading on stdin what the compositor writes on its fd 3; null without a
   * GIF. Given a palette made beforehand (gif-palette.ts) it maps each frame as it comes; without one it makes the
   * palette from the frames themselves, and maps them all once the last is in.
   */
  gifEncoder: ((palette: string | null) => string[]) | null;
  /** reads back what was written */
  describe(): Promise<{ gif: (DerivedGif & { file: string }) | null; thumbnail: (DerivedThumbnail & { file: string }) | null }>;
}

export async function sideOutputs(options: SideOutputOptions, video: { frames: number; fps: number; width: number }): Promise<SideOutputs> {
  const gif = options.gif ? { fps: 12, maxSeconds: 10, ...options.gif } : null;
  if (gif) checkGifOptions(gif, 360);
  const thumbnail = options.thumbnail ?? null;
  const branches: string[] = [];
  const args: string[] = [];
  let gifEncoder: ((palette: string | null) => string[]) | null = null;
  if (gif) {
    await fs.mkdir(path.dirname(path.resolve(gif.file)), { recursive: true });
    // The GIF branch takes the finished frames of its first maxSeconds, at the GIF's rate and size; they go out
    // uncompressed on fd 3 to a second ffmpeg that makes the palette and writes the GIF. ffmpeg filters on one
    // thread, which the compositor's graph keeps busy: in the same graph the palette's ~2 s of CPU at 1080p added
    // as much to its wall time, in a process of its own it runs beside it.
    branches.push(`[gif_in]trim=end=${gif.maxSeconds},${gifFramesFilter(gif.width, gif.fps)}[gif]`);
    args.push('-map', '[gif]', '-an', '-c:v', 'rawvideo', '-f', 'nut', 'pipe:3');
    const out = ['-map', '[gif]', '-an', '-loop', '0', '-f', 'gif', `file:${path.resolve(gif.file)}`];
    gifEncoder = (palette) =>
      palette
        ? ['-hide_banner', '-loglevel', 'error', '-nostats', '-y', '-f', 'nut', '-i', 'pipe:0', '-i', `file:${path.resolve(palette)}`,
            '-filter_complex', `[0:v]${gifColours()}[gif_q];[gif_q][1:v]${gifPaletteUse()}[gif]`, ...out]
        : ['-hide_banner', '-loglevel', 'error', '-nostats', '-y', '-f', 'nut', '-i', 'pipe:0', '-filter_complex', `[0:v]${gifPaletteFilter()}[gif]`, ...out];
  }
  // As deriveThumbnail seeks: the first frame at or after thumbnailTimeMs (whole frames on the 30 fps grid).
  const durationMs = (video.frames * 1000) / video.fps;
  const thumbnailAtMs = thumbnail?.atMs ?? thumbnailTimeMs(durationMs);
  const thumbnailFrame = Math.max(0, Math.min(video.frames - 1, Math.ceil((thumbnailAtMs * video.fps) / 1000 - 1e-6)));
  const thumbnailWidth = Math.min(thumbnail?.maxWidth ?? 1280, video.width);
  if (thumbnail) {
    await fs.mkdir(path.dirname(path.resolve(thumbnail.file)), { recursive: true });
    await fs.rm(thumbnail.file, { force: true });
    // The frames are tagged BT.709 only when encoded: read them as the video's players (and deriveThumbnail) do,
    // converting to RGB in this scale, not in a BT.601 conversion ffmpeg would insert before the PNG encoder.
    branches.push(
      `[thumb_in]trim=start_frame=${thumbnailFrame}:end_frame=${thumbnailFrame + 1},` +
        `scale=${thumbnailWidth}:-1:in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgb24[thumb]`,
    );
    args.push('-map', '[thumb]', '-an', '-frames:v', '1', '-update', '1', '-c:v', 'png', '-f', 'image2', `file:${path.resolve(thumbnail.file)}`);
  }
  if (branches.length === 0) return { graph: '', videoLabel: 'out', args, gifEncoder, describe: async () => ({ gif: null, thumbnail: null }) };
  const labels = ['[video]', ...(gif ? ['[gif_in]'] : []), ...(thumbnail ? ['[thumb_in]'] : [])];
  return {
    graph: `;\n[out]split=${labels.length}${labels.join('')};\n${branches.join(';\n')}`,
    videoLabel: 'video',
    args,
    gifEncoder,
    describe: async () => ({
      gif: gif ? { file: gif.file, ...(await describeGif(gif.file)) } : null,
      thumbnail: thumbnail ? { file: thumbnail.file, ...(await describeThumbnail(thumbnail.file)), atMs: Math.round((thumbnailFrame * 1000) / video.fps) } : null,
    }),
  };
}

async function describeThumbnail(file: string): Promise<{ width: number; height: number }> {
  const head = await fs.readFile(file).catch(() => null);
  const size = head && pngDimensions(head);
  if (!size) {
    await fs.rm(file, { force: true });
    throw new InvalidVideoError('no frame could be written for the thumbnail');
  }
  return size;
}
