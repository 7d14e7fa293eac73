import fs from 'node:fs/promises';
import path from 'node:path';
import { gifColours } from '../encode/derive.js';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { fileArg, runTool } from '../encode/run-tool.js';
import { PALETTE_SAMPLE_EVERY } from '../encode/video-encoder.js';
import type { Rect } from '../types.js';

/**
 * The GIF preview's palette, made before the video is composed rather than after it. A palette made from the GIF's
 * own frames (palettegen) is known only once the last frame is in, so every frame was mapped onto it after the
 * compositor had finished: ~0.9 s at 1080p in which nothing else ran. Made here from what those frames are built
 * of (the plate, the capture in its place, and a darker copy for the fades), beside the compositor's start, the
 * GIF's ffmpeg maps each frame as it arrives and is done when the compositor is.
 *
 * Its samples of the capture are the capture muxer's (every PALETTE_SAMPLE_EVERY-th frame at a quarter size,
 * decoded while the page was captured: colours, not detail, are what a palette needs); without them, the capture is
 * decoded again at that size and sampled the same way.
 */
/** One sample in DARK_EVERY is also counted darkened to half, for the fades in and out (and the window's shadow). */
const DARK_EVERY = 6;

export async function makeGifPalette(options: {
  cleanFile: string;
  /** the capture muxer's colour samples (paletteSamplesFile), when it wrote them */
  samples?: string | null;
  /** the plate (layers.ts): the whole frame at rest at the output size, with the recording's place in it */
  plate: string;
  output: { width: number; height: number };
  /** the recording's place in the output frame */
  content: Rect;
  gifWidth: number;
  /** the capture's codec (probe.ts): the quarter-size decode is the JPEG decoder's */
  codec: string | null;
  file: string;
  timeoutMs?: number;
}): Promise<string> {
  const { ffmpeg } = await ffmpegBinaries();
  const samples = options.samples && (await fs.stat(options.samples).then((stat) => stat.size > 0, () => false)) ? options.samples : null;
  // The capture's JPEGs, from the muxer's samples or decoded here.
  const fullRange = samples !== null || options.codec === 'mjpeg';
  const k = options.gifWidth / options.output.width;
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  const box = { x: Math.round(options.content.x * k), y: Math.round(options.content.y * k), width: even(options.content.width * k), height: even(options.content.height * k) };
  const graph = [
    `[0:v]scale=${options.gifWidth}:-2:flags=area,format=rgb24,loop=loop=-1:size=1:start=0[pal_plate]`,
    // The samples one after another (one per output frame), so the looped plate is laid under each once. A JPEG's
    // colours are full range, and the sample file keeps the decoder's bytes but labels them TV range: read as such,
    // every colour of the palette was stretched from the GIF's frames' (by 7 levels on average, up to 21).
    `[1:v]${samples ? '' : `select='not(mod(n,${PALETTE_SAMPLE_EVERY}))',`}setpts=N/(30*TB),scale=${box.width}:${box.height}:flags=area${fullRange ? ':in_range=full' : ''},format=rgb24[pal_rec]`,
    `[pal_plate][pal_rec]overlay=x=${box.x}:y=${box.y}:shortest=1:format=rgb,split[pal_lit][pal_copy]`,
    `[pal_copy]select='not(mod(n,${DARK_EVERY}))',lutrgb=r=val/2:g=val/2:b=val/2[pal_dark]`,
    `[pal_lit][pal_dark]interleave,${gifColours()},palettegen`,
  ].join(';');
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostats', '-y',
    '-framerate', '30', '-i', fileArg(options.plate),
    ...(samples ? ['-f', 'yuv4mpegpipe', '-i', fileArg(samples)] : [...(options.codec === 'mjpeg' ? ['-lowres', '2'] : []), '-i', fileArg(options.cleanFile)]),
    '-filter_complex', graph, '-frames:v', '1', '-update', '1', '-f', 'image2', fileArg(path.resolve(options.file)),
  ];
  const result = await runTool(ffmpeg, args, options.timeoutMs ?? 60_000);
  if (result.exitCode !== 0) throw new Error(`The GIF palette could not be made: ${result.stderr.split('\n').pop() ?? ''}`);
  return options.file;
}
