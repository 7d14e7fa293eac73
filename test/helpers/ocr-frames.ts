import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { normWords, OcrFrame, parseTsv } from '../../scripts/eval-story/ocr-match.js';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';

const run = promisify(execFile);

/**
 * Which sampled frames of a video let a viewer read a text, as the story evaluation reads them
 * (scripts/eval-story/ocr-video.ts: grey, upscaled, tesseract in sparse-text mode, its word matching). `scale`
 * upscales the frames before reading: give videos of different widths the scale that shows the page at the same size,
 * so a text is judged by where it is, not by how many pixels the frame spends on it.
 */
export async function readableFrames(video: string, texts: string[], options: { fps: number; scale: number }): Promise<boolean[][]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-ocr-'));
  try {
    const { ffmpeg } = await ffmpegBinaries();
    const filters = [`fps=${options.fps}:round=up`, `scale=trunc(iw*${options.scale}/2)*2:trunc(ih*${options.scale}/2)*2:flags=bicubic`, 'format=gray'];
    await run(ffmpeg, ['-loglevel', 'error', '-nostdin', '-i', video, '-vf', filters.join(','), '-f', 'image2', path.join(dir, 'f%05d.pgm')]);
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.pgm')).sort();
    const frames: OcrFrame[] = [];
    for (const file of files) {
      const { stdout } = await run('tesseract', [path.join(dir, file), 'stdout', '-l', 'eng', '--psm', '11', '--dpi', String(Math.round(96 * options.scale)), 'tsv'], {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      });
      frames.push(new OcrFrame(parseTsv(stdout, options.scale)));
    }
    return texts.map((text) => frames.map((frame) => frame.reads(normWords(text))));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
