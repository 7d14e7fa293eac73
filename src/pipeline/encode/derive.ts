import fs from 'node:fs/promises';
import { gifFrameCount, pngDimensions } from '../../platform/media-signatures.js';
import { probeVideo, InvalidVideoError } from './probe.js';
import { runFluent } from './run-fluent.js';
import { fileArg, INPUT_GUARD } from './run-tool.js';

/**
 * The still and animated shortcuts of a finished video (`/thumb/<id>.png`, `/gif/<id>.gif`), made from the
 * encoded video itself so they always match it, driven through fluent-ffmpeg. Only filters present in ffmpeg 4.1
 * (the packaged build) are used.
 */

export interface ThumbnailOptions {
  /** where to take the frame; default thumbnailTimeMs(duration) */
  atMs?: number;
  /** pass it when known to save an ffprobe run */
  durationMs?: number | null;
  /** never wider than this; narrower videos keep their size */
  maxWidth?: number;
  timeoutMs?: number;
}

export interface DerivedThumbnail {
  width: number;
  height: number;
  atMs: number;
}

/**
 * 10% in, but at least 1 s so a fade-in is over, and never past the middle so short clips still show content.
 * Unknown duration: 1 s, falling back to the first frame if the clip is shorter.
 */
export function thumbnailTimeMs(durationMs: number | null): number {
  if (durationMs === null) return 1000;
  return Math.round(Math.max(0, Math.min(Math.max(durationMs * 0.1, 1000), durationMs / 2)));
}

export async function deriveThumbnail(videoFile: string, outPng: string, options: ThumbnailOptions = {}): Promise<DerivedThumbnail> {
  const maxWidth = options.maxWidth ?? 1280;
  const durationMs = options.durationMs !== undefined ? options.durationMs : (await probeVideo(videoFile)).durationMs;
  const wanted = options.atMs ?? thumbnailTimeMs(durationMs);
  const atMs = Math.max(0, durationMs === null ? wanted : Math.min(wanted, Math.max(0, durationMs - 100)));

  // Seeking past the last frame makes ffmpeg succeed with no output; then the first frame will do.
  for (const at of atMs > 0 ? [atMs, 0] : [0]) {
    await fs.rm(outPng, { force: true });
    await runOrThrow(
      (command) =>
        command
          .input(fileArg(videoFile))
          .inputOptions(['-ss', (at / 1000).toFixed(3), ...INPUT_GUARD])
          .noAudio()
          .frames(1)
          .videoFilters(`scale='min(${maxWidth},iw)':-1`)
          .outputOptions(['-update', '1', '-c:v', 'png'])
          .format('image2')
          .output(fileArg(outPng)),
      options.timeoutMs ?? 60_000,
      outPng,
    );
    const head = await readHead(outPng, 24);
    const size = head && pngDimensions(head);
    if (size) return { ...size, atMs: at };
  }
  throw new InvalidVideoError('no frame could be decoded for the thumbnail');
}

export interface GifOptions {
  /** frames per second; 12 keeps cursor motion smooth at a fraction of the video's frames */
  fps?: number;
  /** output width, 640 to 800; height follows the aspect ratio */
  width?: number;
  /** only the first seconds, to bound the size (local GIF assets are capped at 25 MB) */
  maxSeconds?: number;
  timeoutMs?: number;
}

export interface DerivedGif {
  width: number;
  height: number;
  frames: number;
}

/**
 * One ffmpeg run: `split` feeds the same frames to palettegen (a 256-colour palette for this clip) and to
 * paletteuse, so the GIF gets a tailored palette without a second decode or a palette file. Bayer dithering and
 * `diff_mode=rectangle` keep mostly-still screen recordings small.
 *
 * Cost (it was 10–17 s of a 1080p job): palettegen and paletteuse keep hash tables of the colours they meet, which
 * photos, gradients and shadows fill with hundreds of thousands of entries. Colours are cut to 6 bits a channel
 * first (invisible under a 256-colour palette and its dither), the palette is built from every third frame, and the
 * downscale is an area average instead of lanczos: about 2.3× less CPU for the same-looking GIF.
 */
export async function deriveGif(videoFile: string, outGif: string, options: GifOptions = {}): Promise<DerivedGif> {
  const fps = options.fps ?? 12;
  const width = options.width ?? 640;
  checkGifOptions({ fps, width, maxSeconds: options.maxSeconds });
  const filter = gifFilter(width, fps);
  await runOrThrow(
    (command) =>
      command
        .input(fileArg(videoFile))
        .inputOptions([...(options.maxSeconds !== undefined ? ['-t', String(options.maxSeconds)] : []), ...INPUT_GUARD])
        .noAudio()
        .outputOptions(['-vf', filter, '-loop', '0'])
        .format('gif')
        .output(fileArg(outGif)),
    options.timeoutMs ?? 10 * 60_000,
    outGif,
  );
  return describeGif(outGif);
}

/** minWidth: 640, but 360 for an aspect variant's GIF (a 9:16 one is 360 wide and 640 tall: issue 59) */
export function checkGifOptions(options: { fps: number; width: number; maxSeconds?: number | undefined }, minWidth = 640): void {
  const { fps, width, maxSeconds } = options;
  if (!Number.isInteger(width) || width < minWidth || width > 800) throw new RangeError(`GIF width must be an integer from ${minWidth} to 800.`);
  if (!(fps > 0 && fps <= 30)) throw new RangeError('GIF fps must be above 0 and at most 30.');
  if (maxSeconds !== undefined && !(maxSeconds > 0)) throw new RangeError('GIF maxSeconds must be positive.');
}

/**
 * The GIF's filters, from video frames to paletted ones (see deriveGif): a chain with one input and one output, its
 * inner labels prefixed `gif_` so that compose can put it in its own graph as a second output.
 */
export function gifFilter(width: number, fps: number): string {
  return `${gifFramesFilter(width, fps)},${gifPaletteFilter()}`;
}

/** The GIF's first filters: its frame rate and size (still video frames, a 640 px GIF's being ~1/9 of 1080p). */
export function gifFramesFilter(width: number, fps: number): string {
  return `fps=${fps},scale=${width}:-1:flags=area`;
}

/** The rest of the GIF's filters, from its frames to paletted ones (the costly part: ~2 s of CPU for 120 frames). */
export function gifPaletteFilter(): string {
  return `${gifColours()},split[gif_a][gif_b];[gif_a]select='not(mod(n,3))',palettegen[gif_p];[gif_b][gif_p]${gifPaletteUse()}`;
}

/** Colours cut to 6 bits a channel, in RGB: what the palette is made from and applied to. */
export function gifColours(): string {
  const six = "'bitand(val,252)'";
  return `format=rgb24,lutrgb=r=${six}:g=${six}:b=${six}`;
}

/** The ordered dither's scale: at 5 its pattern adds 0 or -1 to a pixel (gif-mapping.ts depends on it). */
export const GIF_BAYER_SCALE = 5;

/** How frames are mapped onto the palette (its second input): an ordered dither, only the rectangle that changed. */
export function gifPaletteUse(): string {
  return `paletteuse=dither=bayer:bayer_scale=${GIF_BAYER_SCALE}:diff_mode=rectangle`;
}

/** The size and frame count of a GIF written by ffmpeg; a GIF without frames is removed and refused. */
export async function describeGif(file: string): Promise<DerivedGif> {
  const gif = await fs.readFile(file).catch(() => null);
  const frames = gif && gifFrameCount(gif);
  if (!gif || !frames) {
    await fs.rm(file, { force: true });
    throw new InvalidVideoError('no frame could be decoded for the GIF');
  }
  return { width: gif.readUInt16LE(6), height: gif.readUInt16LE(8), frames };
}

/** A failure on a file that passed probing is a fault of ours or a broken file; the partial output goes. */
async function runOrThrow(build: Parameters<typeof runFluent>[0], timeoutMs: number, output: string): Promise<void> {
  try {
    await runFluent(build, timeoutMs);
  } catch (error) {
    await fs.rm(output, { force: true });
    throw error;
  }
}

async function readHead(file: string, bytes: number): Promise<Buffer | null> {
  const handle = await fs.open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
