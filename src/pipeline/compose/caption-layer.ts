import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Caption } from '../story-text/types.js';
import type { Camera } from './camera.js';
import { FPS } from './camera.js';

/**
 * Burned-in captions (issue 36), as a precomputed layer: each caption is drawn once by the browser into a PNG (text
 * set as text, never markup) and laid over the finished frames only while it shows (`enable=between(t,a,b)`), so the
 * compositor pays one overlay of a small still per caption instead of a per-frame text renderer. A caption goes to
 * the edge the presentation asks for, unless the focused section's box (projected through the camera, zoom and all)
 * reaches into that band at any frame it shows: then it moves to the other edge. The top band is inside the page,
 * below the window's title bar and the page's sticky navigation, never over them.
 */
export interface CaptionBurnIn {
  captions: Caption[];
  position: 'bottom' | 'top';
  style: 'pill' | 'bar';
  /** the page's sticky header (viewport px, 0 for none), which a caption at the top stays below */
  stickyHeaderHeight?: number;
  /** the recording's viewport height (px): the part of a focused section below it is not on screen */
  viewportHeight: number;
}

export interface CaptionImage {
  file: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fromS: number;
  toS: number;
  edge: 'bottom' | 'top';
}

export async function renderCaptionImages(options: {
  page: Page;
  burnIn: CaptionBurnIn;
  output: { width: number; height: number };
  camera: Camera;
  dir: string;
}): Promise<CaptionImage[]> {
  const { page, burnIn, output, camera, dir } = options;
  if (burnIn.captions.length === 0) return [];
  const { width: W, height: H } = output;
  // Sized by the frame's shorter side: a 16:9 video's height, a vertical cut's width (issue 59).
  const unit = Math.min(W, H) / 1080;
  const font = Math.round(40 * unit);
  const margin = Math.round(48 * unit);
  await fs.mkdir(dir, { recursive: true });
  await page.setViewport({ width: W, height: H, deviceScaleFactor: 1 });
  await page.setContent(captionHtml(burnIn, W, font), { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const boxes = (await page.evaluate(`[...document.querySelectorAll('.c')].map((e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })`)) as number[][];
  const images: CaptionImage[] = [];
  for (const [i, caption] of burnIn.captions.entries()) {
    const [bx = 0, by = 0, bw = 0, bh = 0] = boxes[i] ?? [];
    const clip = { x: Math.floor(bx), y: Math.floor(by), width: Math.ceil(bw), height: Math.ceil(bh) };
    const file = path.join(dir, `caption-${i}.png`);
    await fs.writeFile(file, await page.screenshot({ type: 'png', omitBackground: true, clip, captureBeyondViewport: true }));
    const { edge, y } = placeCaption(caption, burnIn.position, { height: clip.height, margin }, camera, output, { stickyHeaderHeight: burnIn.stickyHeaderHeight ?? 0, viewportHeight: burnIn.viewportHeight });
    const x = Math.round((W - clip.width) / 2);
    images.push({ file, x, y, width: clip.width, height: clip.height, fromS: caption.startMs / 1000, toS: caption.endMs / 1000, edge });
  }
  return images;
}

export interface CaptionPlacement {
  edge: 'bottom' | 'top';
  /** the caption's top (output px) */
  y: number;
}

/**
 * Where a caption goes. Its bands: the bottom one a margin above the frame's foot; the top one below the page's
 * sticky navigation (or the page's own top, which is below the window's title bar), as far down as that edge comes
 * at any settled frame the caption shows (zoomed in, it may be out of the frame: then a margin from the top), since
 * a caption is one still for its whole time. It goes to the asked-for band when the focused box stays out of it
 * through every frame it shows, else to the other (if the box reaches into both, the one it reaches less far into).
 * A top band pushed past the frame's middle by a tall header is no top band: such a caption stays at the bottom.
 */
export function placeCaption(
  caption: Caption,
  preferred: 'bottom' | 'top',
  size: { height: number; margin: number },
  camera: Camera,
  output: { width: number; height: number },
  page: { stickyHeaderHeight: number; viewportHeight: number },
): CaptionPlacement {
  const { stickyHeaderHeight, viewportHeight } = page;
  const frames = captionFrames(caption, camera);
  const pageTop = camera.fromViewport({ x: 0, y: Math.max(0, stickyHeaderHeight) });
  // While the window flies in or out it is no guide to where the page settles; a caption shown only then uses the
  // settled layout.
  const settled = frames.filter((frame) => !camera.at(frame).animating);
  const headerBottom = settled.length > 0 ? Math.max(...settled.map((frame) => camera.project(frame, pageTop).y)) : pageTop.y;
  const top = Math.round(Math.max(size.margin, headerBottom + size.margin / 2));
  const bottom = output.height - size.margin - size.height;
  if (top + size.height > output.height / 2) return { edge: 'bottom', y: bottom };
  const y = { top, bottom };
  if (!caption.avoid) return { edge: preferred, y: y[preferred] };
  // Only the part of the section in the page's view is on screen (a tall section runs off its foot).
  const box = { top: Math.max(0, caption.avoid.y), bottom: Math.min(viewportHeight, caption.avoid.y + caption.avoid.height) };
  const overlap = (at: number) => {
    let most = 0;
    for (const frame of frames) {
      const a = camera.project(frame, camera.fromViewport({ x: 0, y: box.top })).y;
      const b = camera.project(frame, camera.fromViewport({ x: 0, y: box.bottom })).y;
      most = Math.max(most, Math.min(b, at + size.height) - Math.max(a, at));
    }
    return most;
  };
  const into = { top: overlap(top), bottom: overlap(bottom) };
  const other = preferred === 'bottom' ? 'top' : 'bottom';
  if (into[preferred] <= 0) return { edge: preferred, y: y[preferred] };
  if (into[other] <= 0) return { edge: other, y: y[other] };
  // The section fills the page's view: no band inside the page is clear. Below the window, on the background the
  // style leaves around it, as far as the caption fits there at every frame it shows: over as little of the
  // section's foot (the part that runs off the view) as it can, never over its heading at the top.
  const pageFoot = Math.max(...frames.map((frame) => camera.project(frame, camera.fromViewport({ x: 0, y: viewportHeight })).y));
  const lowest = output.height - size.height - Math.round(size.margin / 4);
  const below = Math.round(Math.max(pageFoot, bottom));
  return { edge: 'bottom', y: below + size.height <= output.height ? below : lowest };
}



/** The frames a caption shows on (its interval on the video's frame grid, within the video). */
export function captionFrames(caption: { startMs: number; endMs: number }, camera: Camera): number[] {
  const first = Math.max(0, Math.floor((caption.startMs * FPS) / 1000));
  const last = Math.min(camera.frames - 1, Math.ceil((caption.endMs * FPS) / 1000));
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}

function captionHtml(burnIn: CaptionBurnIn, width: number, font: number): string {
  const pill = burnIn.style === 'pill';
  const box = pill
    ? `display:inline-block;max-width:${Math.round(width * 0.8)}px;padding:${Math.round(font * 0.3)}px ${Math.round(font * 0.6)}px;border-radius:${Math.round(font * 0.5)}px;background:rgba(12,13,18,.82)`
    : `display:block;width:${width}px;padding:${Math.round(font * 0.35)}px 0;background:rgba(0,0,0,.7)`;
  const items = burnIn.captions
    .map((caption) => `<div class="row"><div class="c">${caption.lines.map((line) => `<div>${escapeHtml(line)}</div>`).join('')}</div></div>`)
    .join('');
  return `<!doctype html><html><head><style>
html,body{margin:0;background:transparent}
.row{text-align:center;margin:0 0 ${font}px}
.c{${box};color:#fff;font:600 ${font}px/1.3 "DejaVu Sans","Liberation Sans",Arial,sans-serif;text-align:center;white-space:nowrap}
</style></head><body>${items}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
