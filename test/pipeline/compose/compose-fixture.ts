import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'puppeteer-core';
import type { Presentation } from '../../../src/demos/presentation.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { type ComposeResult, composeVideo } from '../../../src/pipeline/compose/compose.js';
import { computeLayout, type Layout } from '../../../src/pipeline/compose/layout.js';
import { resolveStyle, type Style } from '../../../src/pipeline/compose/style.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import type { InteractionTimeline } from '../../../src/pipeline/types.js';

const run = promisify(execFile);

/**
 * A clean capture whose pixels are easy to tell apart — a deep blue page with one white 40 px square centred on
 * (300, 200) — and the timeline of a visitor who moves there and clicks it. Compositing it at 720p and decoding the
 * result tells where the compositor put every layer.
 */
export const CAPTURE_BLUE: RGB = [30, 58, 138];
export const SQUARE = { x: 280, y: 180, size: 40 };
export const CLICK = { t: 1600, x: 300, y: 200 };
export const REST = { x: 640, y: 400 };

export type RGB = [number, number, number];

export function clickTimeline(durationMs = 4000, viewport = { width: 1280, height: 720 }): InteractionTimeline {
  return {
    viewport: { ...viewport, deviceScaleFactor: 1 },
    durationMs,
    cursor: [
      { t: 0, ...REST },
      { t: 800, ...REST },
      { t: 1000, x: 520, y: 330 },
      { t: 1200, x: 400, y: 260 },
      { t: 1400, x: CLICK.x, y: CLICK.y },
    ],
    clicks: [CLICK],
    keystrokes: [],
    scrolls: [{ t: 0, y: 0 }],
    focus: [{ t: 700, rect: { x: SQUARE.x, y: SQUARE.y, width: SQUARE.size, height: SQUARE.size }, label: 'Start free trial' }],
    steps: [
      { index: 0, label: 'Start free trial', kind: 'click', startMs: 0, endMs: 2000 },
      { index: 1, label: 'Admire the result', kind: 'wait', startMs: 2000, endMs: durationMs },
    ],
  };
}

export interface Decoded {
  width: number;
  height: number;
  pixel(x: number, y: number): RGB;
  /** pixels matching `test` inside the rectangle (default: the whole frame), with their bounding box */
  find(test: (p: RGB) => boolean, rect?: { x: number; y: number; width: number; height: number }): { count: number; box: { x0: number; y0: number; x1: number; y1: number } | null };
  meanLuma(): number;
}

export interface Rendered {
  file: string;
  layout: Layout;
  style: Style;
  composed: ComposeResult;
  frame(seconds: number): Promise<Decoded>;
}

export interface ComposeFixture {
  render(
    presentation: Presentation | null,
    options?: {
      capture?: 'desktop' | 'portrait';
      format?: 'mp4' | 'webm';
      loadImage?: Parameters<typeof composeVideo>[0]['loadImage'];
      /** also write the GIF preview and the thumbnail from the same pass (out.gif, out.png) */
      sideOutputs?: boolean;
      captions?: Parameters<typeof composeVideo>[0]['captions'];
      endCard?: Parameters<typeof composeVideo>[0]['endCard'];
      /** issue 59: cuts of the same capture, beside the video (out-9x16.mp4, out-1x1.mp4) */
      variants?: Array<'9:16' | '1:1'>;
    },
  ): Promise<Rendered>;
  close(): Promise<void>;
}

const OUTPUT = { width: 1280, height: 720 };

export async function startComposeFixture(): Promise<ComposeFixture> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-compose-test-'));
  const { ffmpeg } = await ffmpegBinaries();
  const captures = {
    desktop: { file: path.join(dir, 'desktop.mkv'), width: 1280, height: 720 },
    portrait: { file: path.join(dir, 'portrait.mkv'), width: 500, height: 1080 },
  };
  for (const capture of Object.values(captures)) {
    const hex = CAPTURE_BLUE.map((c) => c.toString(16).padStart(2, '0')).join('');
    await run(ffmpeg, [
      '-v', 'error', '-y', '-f', 'lavfi',
      '-i', `color=c=0x${hex}:s=${capture.width}x${capture.height}:r=30:d=4,drawbox=x=${SQUARE.x}:y=${SQUARE.y}:w=${SQUARE.size}:h=${SQUARE.size}:color=white:t=fill`,
      '-c:v', 'mjpeg', '-q:v', '2', '-f', 'matroska', capture.file,
    ]);
  }
  const browser: Browser = await launchBrowser({ allowPrivate: true });
  const page: Page = await browser.newPage();
  let count = 0;
  return {
    async render(presentation, options = {}) {
      const capture = captures[options.capture ?? 'desktop'];
      const work = path.join(dir, `render-${++count}`);
      const format = options.format ?? 'mp4';
      const file = path.join(work, `out.${format}`);
      const viewport = options.capture === 'portrait' ? { width: 390, height: 844 } : { width: 1280, height: 720 };
      const composed = await composeVideo({
        cleanFile: capture.file,
        timeline: clickTimeline(4000, viewport),
        presentation,
        format,
        resolution: '720p',
        outFile: file,
        page,
        workDir: work,
        templateId: 'guided-tour',
        ...(options.loadImage ? { loadImage: options.loadImage } : {}),
        ...(options.captions ? { captions: options.captions } : {}),
        ...(options.endCard ? { endCard: options.endCard } : {}),
        ...(options.variants ? { variants: options.variants.map((aspect) => ({ aspect, outFile: path.join(work, `out-${aspect.replace(':', 'x')}.${format}`) })) } : {}),
        ...(options.sideOutputs ? { gif: { file: path.join(work, 'out.gif'), width: 640 }, thumbnail: { file: path.join(work, 'out.png') } } : {}),
      });
      const style = resolveStyle(presentation);
      const layout = computeLayout(OUTPUT, capture, style);
      return { file, layout, style, composed, frame: (seconds: number) => decodeFrame(ffmpeg, file, seconds) };
    },
    async close() {
      await browser.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export async function decodeFrame(ffmpeg: string, file: string, seconds: number): Promise<Decoded> {
  const { width, height } = OUTPUT;
  const { stdout } = await run(ffmpeg, ['-v', 'error', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: 16 * 1024 * 1024,
  });
  const data = stdout as unknown as Buffer;
  const pixel = (x: number, y: number): RGB => {
    const i = (Math.round(y) * width + Math.round(x)) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  return {
    width,
    height,
    pixel,
    find(test, rect = { x: 0, y: 0, width, height }) {
      let count = 0;
      let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
      for (let y = Math.max(0, rect.y); y < Math.min(height, rect.y + rect.height); y++) {
        for (let x = Math.max(0, rect.x); x < Math.min(width, rect.x + rect.width); x++) {
          if (!test(pixel(x, y))) continue;
          count++;
          box = box ? { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) } : { x0: x, y0: y, x1: x, y1: y };
        }
      }
      return { count, box };
    },
    meanLuma() {
      let total = 0;
      for (let i = 0; i < data.length; i += 3) total += 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
      return total / (data.length / 3);
    },
  };
}

/** Within `tolerance` of the colour on every channel (video is lossy). */
export function near(actual: RGB, expected: RGB, tolerance = 28): boolean {
  return actual.every((c, i) => Math.abs(c - expected[i]!) <= tolerance);
}

export const isCaptureBlue = (p: RGB) => near(p, CAPTURE_BLUE, 30);
export const isWhite = (p: RGB) => p[0] > 215 && p[1] > 215 && p[2] > 215;
