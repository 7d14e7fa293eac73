import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createWorker, PSM } from 'tesseract.js';
import { normWords, OcrFrame, parseTsv } from '../../scripts/eval-story/ocr-match.js';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
// The English model ships in an npm package, so `make test` needs no system tesseract and fetches nothing.
const langPath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
/** tesseract.js gives the TSV rows without the header line the command-line tool prints and parseTsv skips. */
const TSV_HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n';

/**
 * Which sampled frames of a video let a viewer read a text, as the story evaluation reads them
 * (scripts/eval-story/ocr-video.ts: grey, upscaled, tesseract in sparse-text mode, its word matching), with tesseract.js,
 * the WebAssembly build from the npm registry, where the evaluation runs the system's tesseract. `scale`
 * upscales the frames before reading: give videos of different widths the scale that shows the page at the same size,
 * so a text is judged by where it is, not by how many pixels the frame spends on it.
 */
export async function readableFrames(video: string, texts: string[], options: { fps: number; scale: number }): Promise<boolean[][]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-ocr-'));
  try {
    const { ffmpeg } = await ffmpegBinaries();
    const filters = [`fps=${options.fps}:round=up`, `scale=trunc(iw*${options.scale}/2)*2:trunc(ih*${options.scale}/2)*2:flags=bicubic`, 'format=gray'];
    await run(ffmpeg, ['-loglevel', 'error', '-nostdin', '-i', video, '-vf', filters.join(','), '-f', 'image2', path.join(dir, 'f%05d.png')]);
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    const worker = await createWorker('eng', 1, { langPath, cacheMethod: 'none', gzip: true });
    const frames: OcrFrame[] = [];
    try {
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: String(Math.round(96 * options.scale)) });
      for (const file of files) {
        const { data } = await worker.recognize(path.join(dir, file), {}, { tsv: true });
        frames.push(new OcrFrame(parseTsv(TSV_HEADER + (data.tsv ?? ''), options.scale)));
      }
    } finally {
      await worker.terminate();
    }
    return texts.map((text) => frames.map((frame) => frame.reads(normWords(text))));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
