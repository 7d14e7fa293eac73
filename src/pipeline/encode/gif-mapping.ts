import fs from 'node:fs/promises';
import path from 'node:path';
import { GIF_BAYER_SCALE } from './derive.js';
import { fileArg, runTool } from './run-tool.js';

/**
 * The GIF's frames mapped onto their palette here, as ffmpeg's paletteuse maps them (gifPaletteUse: ordered bayer
 * dither, nearest colour), byte for byte, in about a ninth of its CPU: paletteuse searched its colour tree for
 * every pixel, ~0.9 CPU-s for a 10 s GIF at 640 px, and a demo composed in parts (join-parts.ts) spent it after the
 * recording, when the palette is known and nothing else is left to wait for.
 *
 * Only a few colours can reach the search. The frames come cut to 6 bits a channel (gifColours: multiples of 4),
 * and the dither at bayer_scale 5 adds 0 or -1 to all three channels of a pixel, by its place in an 8×8 pattern.
 * That is 2 × 64³ colours: ffmpeg's paletteuse maps all of them once, from one frame that holds each (its own search,
 * so its own choice between two equally near colours), and each pixel is then a lookup in that table.
 */

const LEVELS = 64;
/** table rows: the dither's 0 first, then its -1 */
const HALF = LEVELS * LEVELS * LEVELS;
/** ffmpeg keeps a paletted frame's palette after its pixels: 256 colours of 4 bytes (B, G, R, A) */
const PALETTE_BYTES = 1024;

export interface GifColourTable {
  /** palette index of every colour a dithered pixel can have: [dither row][r/4][g/4][b/4] */
  lookup: Buffer;
  /** the palette as paletteuse hands it on (BGRA), appended to each mapped frame */
  palette: Buffer;
}

/** The table, from the palette (a PNG from palettegen), by one paletteuse run over every colour a pixel can have. */
export async function gifColourTable(ffmpeg: string, paletteFile: string, dir: string, timeoutMs = 60_000): Promise<GifColourTable> {
  const colours = path.join(dir, 'gif-colours.rgb');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(colours, everyDitheredColour());
  try {
    const result = await runTool(
      ffmpeg,
      [
        '-hide_banner', '-loglevel', 'error', '-nostdin',
        '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${LEVELS * LEVELS}x${(2 * HALF) / (LEVELS * LEVELS)}`, '-i', fileArg(colours),
        '-i', fileArg(paletteFile),
        '-filter_complex', '[0:v][1:v]paletteuse=dither=none', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'pal8', 'pipe:1',
      ],
      timeoutMs,
    );
    if (result.exitCode !== 0 || result.stdout.length !== 2 * HALF + PALETTE_BYTES) {
      throw new Error(`The GIF's colour table could not be made: ${result.stderr.split('\n').pop() ?? `${result.stdout.length} bytes`}`);
    }
    return { lookup: result.stdout.subarray(0, 2 * HALF), palette: result.stdout.subarray(2 * HALF) };
  } finally {
    await fs.rm(colours, { force: true });
  }
}

/** One frame (RGB, 6 bits a channel) to ffmpeg's paletted raw frame: an index a pixel, then the palette. */
export function mapGifFrame(rgb: Buffer, width: number, height: number, table: GifColourTable): Buffer {
  if (rgb.length !== width * height * 3) throw new RangeError(`A ${width}x${height} RGB frame has ${width * height * 3} bytes, not ${rgb.length}.`);
  const out = Buffer.allocUnsafe(width * height + PALETTE_BYTES);
  const { lookup } = table;
  let p = 0;
  let s = 0;
  for (let y = 0; y < height; y++) {
    const row = ROW_OFFSETS.subarray((y & 7) << 3, ((y & 7) << 3) + 8);
    for (let x = 0; x < width; x++, p++, s += 3) {
      out[p] = lookup[row[x & 7]! + ((rgb[s]! >> 2) << 12) + ((rgb[s + 1]! >> 2) << 6) + (rgb[s + 2]! >> 2)]!;
    }
  }
  table.palette.copy(out, width * height);
  return out;
}

/**
 * paletteuse's 8×8 ordered dither (vf_paletteuse.c: the bit-reversed interleave of x and x^y, shifted right by
 * bayer_scale, less 2^(5 - bayer_scale)), as the table row each place reads: at bayer_scale 5 it is 0 or -1.
 */
const ROW_OFFSETS = Int32Array.from({ length: 64 }, (_, i) => {
  const q = i ^ (i >> 3);
  const value = ((i & 4) >> 2) | ((q & 4) >> 1) | ((i & 2) << 1) | ((q & 2) << 2) | ((i & 1) << 4) | ((q & 1) << 5);
  const offset = (value >> GIF_BAYER_SCALE) - (1 << (5 - GIF_BAYER_SCALE));
  if (offset !== 0 && offset !== -1) throw new Error('The GIF mapping assumes a dither of 0 or -1 (bayer_scale 5).');
  return offset === 0 ? 0 : HALF;
});

/** Every colour a dithered pixel can have, in table order: each 6-bit colour as it is, then each less 1 (at least 0). */
function everyDitheredColour(): Buffer {
  const out = Buffer.allocUnsafe(2 * HALF * 3);
  let at = 0;
  for (const offset of [0, -1]) {
    for (let r = 0; r < LEVELS; r++) {
      for (let g = 0; g < LEVELS; g++) {
        for (let b = 0; b < LEVELS; b++) {
          out[at++] = Math.max(0, r * 4 + offset);
          out[at++] = Math.max(0, g * 4 + offset);
          out[at++] = Math.max(0, b * 4 + offset);
        }
      }
    }
  }
  return out;
}
