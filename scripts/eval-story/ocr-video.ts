import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import { longestRunS, normWords, OcrFrame, parseTsv } from './ocr-match.js';

/**
 * What a finished video lets a viewer read, sampled as ../shared/tools/story-check.mjs samples it (its defaults:
 * 2 frames a second, grey, upscaled 1.5×, tesseract in sparse-text mode with a global and an adaptive threshold,
 * lines pooled), so a flow's figure and the figures quoted from that tool measure the same thing.
 */

const FPS = 2;
const SCALE = 1.5;
const THRESHOLDS = ['0', '1'];
/** Two frames whose 16×16 block means all differ by less than this many grey levels share one OCR (codec noise). */
const SAME_FRAME_GREY = 1.5;

export interface TextReading {
  text: string;
  /** read in at least one sampled frame */
  seen: boolean;
  /** its longest readable stretch, in seconds */
  longestS: number;
  firstSeenS: number | null;
}

export interface VideoReading {
  frames: number;
  blankFrames: number;
  texts: TextReading[];
}

/** Reads the texts in the video: for each, whether it was ever readable and its longest readable stretch. */
export async function readTexts(video: string, texts: string[]): Promise<VideoReading> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eval-flows-ocr-'));
  try {
    const { ffmpeg } = await ffmpegBinaries();
    const filters = [`fps=${FPS}:round=up`, `scale=trunc(iw*${SCALE}/2)*2:trunc(ih*${SCALE}/2)*2:flags=bicubic`, 'format=gray'];
    await run(ffmpeg, ['-loglevel', 'error', '-nostdin', '-i', video, '-vf', filters.join(','), '-f', 'image2', path.join(dir, 'f%06d.pgm')]);
    const files = (await readdir(dir)).filter((f) => /^f\d+\.pgm$/.test(f)).sort();
    if (files.length === 0) throw new Error(`no frames decoded from ${video}`);

    // A frame that differs from the last OCR'd one only by codec noise reuses its OCR (a pause is most of a demo).
    const frameKeys: Array<string | null> = [];
    const toRead = new Map<string, string>();
    let last: { means: Float64Array; key: string } | null = null;
    for (const file of files) {
      const buffer = await readFile(path.join(dir, file));
      const image = parsePgm(buffer);
      if (isBlank(image)) {
        frameKeys.push(null);
        continue;
      }
      const means = blockMeans(image);
      if (last && maxDifference(last.means, means) < SAME_FRAME_GREY) {
        frameKeys.push(last.key);
        continue;
      }
      const key = createHash('md5').update(buffer).digest('hex');
      last = { means, key };
      frameKeys.push(key);
      if (!toRead.has(key)) toRead.set(key, path.join(dir, file));
    }

    const ocr = new Map<string, OcrFrame>();
    const jobs = [...toRead].flatMap(([key, file]) => THRESHOLDS.map((threshold) => ({ key, file, threshold })));
    const tsv = new Map<string, string[]>();
    await pool(jobs, Math.min(2, os.availableParallelism()), async ({ key, file, threshold }) => {
      const { stdout } = await run('tesseract', [file, 'stdout', '-l', 'eng', '--psm', '11', '--dpi', String(Math.round(96 * SCALE)), '-c', `thresholding_method=${threshold}`, 'tsv'], { OMP_THREAD_LIMIT: '1' });
      tsv.set(key, [...(tsv.get(key) ?? []), stdout]);
    });
    for (const [key, outputs] of tsv) ocr.set(key, new OcrFrame(outputs.flatMap((output) => parseTsv(output, SCALE))));

    const readings = texts.map((text) => {
      const words = normWords(text);
      const hits = frameKeys.flatMap((key, i) => (key !== null && ocr.get(key)?.reads(words) ? [i] : []));
      return { text, seen: hits.length > 0, longestS: longestRunS(hits, FPS), firstSeenS: hits.length > 0 ? hits[0]! / FPS : null };
    });
    return { frames: files.length, blankFrames: frameKeys.filter((key) => key === null).length, texts: readings };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A binary PGM (P5, 8-bit), as ffmpeg writes it. */
function parsePgm(buffer: Buffer): Gray {
  const fields: string[] = [];
  let pos = 0;
  while (fields.length < 4) {
    while (pos < buffer.length && /\s/.test(String.fromCharCode(buffer[pos]!))) pos++;
    let field = '';
    while (pos < buffer.length && !/\s/.test(String.fromCharCode(buffer[pos]!))) field += String.fromCharCode(buffer[pos++]!);
    fields.push(field);
  }
  if (fields[0] !== 'P5') throw new Error('not a binary PGM');
  return { width: Number(fields[1]), height: Number(fields[2]), data: buffer.subarray(pos + 1) };
}

/** A blank or near-uniform frame (a broken capture, a white page between two): nothing to read. */
function isBlank({ width, height, data }: Gray): boolean {
  const histogram = new Uint32Array(256);
  const step = Math.max(1, Math.floor(Math.sqrt((width * height) / 200_000)));
  let n = 0;
  let sum = 0;
  let sum2 = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const v = data[y * width + x]!;
      histogram[v]!++;
      n++;
      sum += v;
      sum2 += v * v;
    }
  }
  const mean = sum / n;
  const sd = Math.sqrt(Math.max(0, sum2 / n - mean * mean));
  let mode = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[mode]!) mode = v;
  let near = 0;
  for (let v = Math.max(0, mode - 6); v <= Math.min(255, mode + 6); v++) near += histogram[v]!;
  return sd < 3 || near / n >= 0.995;
}

function blockMeans({ width, height, data }: Gray, block = 16): Float64Array {
  const columns = Math.ceil(width / block);
  const sums = new Float64Array(columns * Math.ceil(height / block));
  const counts = new Uint32Array(sums.length);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / block) * columns;
    for (let x = 0; x < width; x++) {
      const k = row + Math.floor(x / block);
      sums[k]! += data[y * width + x]!;
      counts[k]!++;
    }
  }
  return sums.map((s, k) => s / counts[k]!);
}

function maxDifference(a: Float64Array, b: Float64Array): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let k = 0; k < a.length; k++) max = Math.max(max, Math.abs(a[k]! - b[k]!));
  return max;
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new Error(`${command}: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve({ stdout: Buffer.concat(out).toString() });
      else reject(new Error(`${command} exited ${code}: ${Buffer.concat(err).toString().slice(-400)}`));
    });
  });
}
