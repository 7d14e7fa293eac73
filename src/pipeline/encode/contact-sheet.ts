import fs from 'node:fs/promises';
import path from 'node:path';
import { pngDimensions } from '../../platform/media-signatures.js';
import { readFrameTimes, spreadEvenly } from './frame-times.js';
import { labelFont } from './label-font.js';
import { InvalidVideoError, probeVideo } from './probe.js';
import { runFluent } from './run-fluent.js';
import { FfmpegError, fileArg, INPUT_GUARD } from './run-tool.js';

/**
 * A contact sheet: one PNG holding a grid of frames taken at even intervals through a video, first frame to last,
 * each labelled with its time, for reviewing output at a glance.
 *
 * One ffmpeg run decodes the video once, keeps the chosen frames (select) and lays them out (tile). Measured on a
 * 30 s 1080p H.264 demo against one run seeking per frame (-ss per input): about 4.5 s of CPU against 9.5 s. Our
 * encodes have a keyframe every 250 frames, so 12 accurate seeks decode more frames than the whole clip holds.
 * Decoding everything grows with length, and past about a minute seeking would win (120 s: 18 s against 8 s);
 * demos last 30 s at most, so there is one path. Only filters present in ffmpeg 4.1 (the packaged build) are used.
 */

/** The input cannot make a sheet: missing, not a video, or without frames. The message is a sentence. */
export class ContactSheetError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ContactSheetError';
  }
}

export interface ContactSheetOptions {
  /** tiles across, 1 to 12; default 4 */
  columns?: number;
  /** tiles down, 1 to 12; default 3 */
  rows?: number;
  /** pixels, 64 to 1920; default 480. The tile height follows the video's aspect ratio. */
  tileWidth?: number;
  /** time labels on the tiles; default true. They need one of the usual fonts installed, else none are drawn. */
  labels?: boolean;
  timeoutMs?: number;
}

export interface ContactSheet {
  outFile: string;
  /** frames on the sheet: columns × rows, or fewer for a clip with fewer frames (the rest of the grid stays empty) */
  tiles: number;
  width: number;
  height: number;
  /** the time of each tile's frame, in reading order */
  timesMs: number[];
  /** false when no font was found and the tiles carry no time labels */
  labelled: boolean;
}

export interface SheetLayout {
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  /** the gap between tiles, and the border around them */
  gap: number;
  width: number;
  height: number;
}

const GAP = 8;
const BACKGROUND = '0x2b2b2b'; // not black, so the edges of dark frames still show

/** The sheet's geometry for a video displayed at `video.width`×`video.height`. */
export function sheetLayout(video: { width: number; height: number }, options: ContactSheetOptions = {}): SheetLayout {
  const columns = options.columns ?? 4;
  const rows = options.rows ?? 3;
  const tileWidth = options.tileWidth ?? 480;
  if (!isIntegerIn(columns, 1, 12)) throw new RangeError('Columns must be a whole number from 1 to 12.');
  if (!isIntegerIn(rows, 1, 12)) throw new RangeError('Rows must be a whole number from 1 to 12.');
  if (!isIntegerIn(tileWidth, 64, 1920)) throw new RangeError('The tile width must be a whole number of pixels from 64 to 1920.');
  const tileHeight = Math.max(1, Math.round((tileWidth * video.height) / video.width));
  return {
    columns,
    rows,
    tileWidth,
    tileHeight,
    gap: GAP,
    width: columns * tileWidth + (columns + 1) * GAP,
    height: rows * tileHeight + (rows + 1) * GAP,
  };
}

export async function renderContactSheet(videoFile: string, outFile: string, options: ContactSheetOptions = {}): Promise<ContactSheet> {
  const stats = await fs.stat(videoFile).catch(() => null);
  if (!stats) throw new ContactSheetError(`There is no file at ${videoFile}.`);
  if (!stats.isFile()) throw new ContactSheetError(`${videoFile} is not a file.`);

  const [video, frameTimes] = await Promise.all([probeVideo(videoFile), readFrameTimes(videoFile)]).catch((error: unknown) => {
    if (error instanceof InvalidVideoError) throw new ContactSheetError(`${videoFile} is not a readable MP4 or WebM video.`, { cause: error });
    throw error;
  });
  const layout = sheetLayout(video, options);
  const times = spreadEvenly(frameTimes, layout.columns * layout.rows);
  if (times.length === 0) throw new ContactSheetError(`${videoFile} is a zero-length video: it holds no frames.`);

  await fs.mkdir(path.dirname(path.resolve(outFile)), { recursive: true });
  const font = options.labels === false ? null : await labelFont();
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  try {
    await drawSheet(videoFile, outFile, layout, times, font, timeoutMs);
  } catch (error) {
    // A font that exists but FreeType cannot load is no reason to fail: the frames matter more than their labels.
    if (!(font && error instanceof FfmpegError && /drawtext|font/i.test(error.stderr))) throw error;
    await drawSheet(videoFile, outFile, layout, times, null, timeoutMs);
    return result(outFile, layout, times, false);
  }
  return result(outFile, layout, times, font !== null);
}

async function drawSheet(videoFile: string, outFile: string, layout: SheetLayout, times: number[], font: string | null, timeoutMs: number): Promise<void> {
  const filters = [
    // Each chosen frame by its exact timestamp (±0.5 ms for float rounding); nothing else reaches the scaler.
    `select='${times.map((t) => `between(t,${(t - 0.0005).toFixed(6)},${(t + 0.0005).toFixed(6)})`).join('+')}'`,
    `scale=${layout.tileWidth}:${layout.tileHeight}`,
    'setsar=1',
    // RGB before tiling: 4:2:0 chroma cannot sit at odd offsets, and the PNG is RGB anyway.
    'format=rgb24',
    ...(font ? [timeLabel(font, layout.tileWidth)] : []),
    `tile=${layout.columns}x${layout.rows}:padding=${layout.gap}:margin=${layout.gap}:color=${BACKGROUND}`,
  ];
  try {
    await runFluent(
      (command) =>
        command
          .input(fileArg(videoFile))
          .inputOptions([...INPUT_GUARD])
          .noAudio()
          // -y: a sheet is redrawn over the last one (else ffmpeg asks on stdin and waits). -update: write this
          // one file as is; without it the image2 muxer reads % in the name as a pattern.
          .outputOptions(['-nostdin', '-y', '-vf', filters.join(','), '-frames:v', '1', '-update', '1', '-c:v', 'png'])
          .format('image2')
          .output(fileArg(outFile)),
      timeoutMs,
    );
    const png = await fs.readFile(outFile).catch(() => null);
    const size = png && pngDimensions(png);
    if (!size || size.width !== layout.width || size.height !== layout.height) {
      throw new ContactSheetError(`No contact sheet could be drawn from ${videoFile}: its frames did not decode.`);
    }
  } catch (error) {
    await fs.rm(outFile, { force: true });
    throw error;
  }
}

/** The frame's own timestamp, `00:01:02.345`, white on a translucent box in the top-left corner. */
function timeLabel(font: string, tileWidth: number): string {
  const size = Math.max(12, Math.round(tileWidth / 24));
  const inset = Math.round(size / 2);
  return [
    `drawtext=fontfile=${font}`,
    `text='%{pts\\:hms}'`,
    `fontsize=${size}`,
    'fontcolor=white',
    'box=1',
    'boxcolor=black@0.6',
    `boxborderw=${Math.round(size / 4)}`,
    `x=${inset}`,
    `y=${inset}`,
  ].join(':');
}

function result(outFile: string, layout: SheetLayout, times: number[], labelled: boolean): ContactSheet {
  return { outFile, tiles: times.length, width: layout.width, height: layout.height, timesMs: times.map((t) => Math.round(t * 1000)), labelled };
}

function isIntegerIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}
