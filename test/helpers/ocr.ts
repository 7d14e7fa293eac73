import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker } from 'tesseract.js';

/** A line of text read in an image, with its box in the image's pixels. */
export interface OcrLine { text: string; x: number; y: number; width: number; height: number }

const require = createRequire(import.meta.url);
// The English model ships in an npm package (MIT), so nothing is fetched while the tests run.
const langPath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');

/**
 * The lines tesseract (tesseract.js: its WebAssembly build, from the npm registry, so `make test` needs no system
 * package) reads in a PNG, each made of its words read with a confidence of 30 or more, boxed around those words.
 */
export async function ocrLines(png: string): Promise<OcrLine[]> {
  const worker = await createWorker('eng', 1, { langPath, cacheMethod: 'none', gzip: true });
  try {
    const { data } = await worker.recognize(png, {}, { blocks: true });
    const lines: OcrLine[] = [];
    for (const block of data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          const words = line.words.filter((word) => word.confidence >= 30 && word.text.trim() !== '');
          if (words.length === 0) continue;
          const x = Math.min(...words.map((word) => word.bbox.x0));
          const y = Math.min(...words.map((word) => word.bbox.y0));
          const right = Math.max(...words.map((word) => word.bbox.x1));
          const bottom = Math.max(...words.map((word) => word.bbox.y1));
          lines.push({ text: words.map((word) => word.text.trim()).join(' '), x, y, width: right - x, height: bottom - y });
        }
      }
    }
    return lines;
  } finally {
    await worker.terminate();
  }
}
