import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { Browser } from 'puppeteer-core';
import type { Presentation } from '../../demos/presentation.js';
import { OUTPUT_SIZES } from '../encode/video-encoder.js';
import type { Resolution } from '../types.js';
import { type LayerFiles, renderLayers } from './layers.js';
import { computeLayout, type Layout } from './layout.js';
import { resolveStyle } from './style.js';

/**
 * The still layers drawn ahead, while the recording runs: they depend only on the presentation, the output size and
 * the size the recording is captured at, all known before it starts, and drawing them (~1.5–2 s at 1080p, most of
 * it the browser rastering and PNG-encoding full frames) then overlaps the capture, which leaves part of a core idle
 * while it waits for each frame, instead of adding to the compose stage.
 *
 * They are drawn on a plain page of their own in the browser's default context: the job page is busy being
 * recorded, and a second page in the job's context would be closed as a popup by the pool. The page loads nothing
 * (a background image arrives as bytes, shown as a data URL) and is closed once the layers are written.
 *
 * composeVideo uses them only when the layout it computes from the finished capture is the one they were drawn
 * for (a capture can come out a few pixels off the size asked for) and they include the window animation's layers
 * when it needs them; otherwise, or when drawing ahead failed, it draws them itself as before.
 */
export interface LayersAhead {
  layout: Layout;
  /** whether the window animation's layers (background, window, mask) were drawn too */
  animated: boolean;
  files: LayerFiles;
  /** wall time of drawing them */
  ms: number;
}

export interface DrawLayersAheadOptions {
  browser: Browser;
  presentation: Presentation | null;
  resolution: Resolution;
  /**
   * The size the capture's frames will have: the viewport in device pixels, which frame capture renders at exactly
   * (not captureSizeFor's figure: the browser rounds the viewport, and a capture a pixel or two wider moves the
   * window's edges). The realtime screencast scales its frames to fit instead, so its layers are drawn again.
   */
  capture: { width: number; height: number };
  backgroundImage: { bytes: Buffer; type: 'png' | 'jpeg' | 'webp' } | null;
  /** where the layer files go (a directory of their own; removed with the job's work directory) */
  dir: string;
  /** draw the window animation's layers even for a still window: aspect variants are made from them (issue 59) */
  windowLayers?: boolean;
}

/** Starts drawing; resolves to null when it could not (compose then draws the layers itself). Never rejects. */
export function drawLayersAhead(options: DrawLayersAheadOptions): Promise<LayersAhead | null> {
  return draw(options).catch(() => null);
}

async function draw(options: DrawLayersAheadOptions): Promise<LayersAhead> {
  const started = performance.now();
  const style = resolveStyle(options.presentation);
  const capture = { width: Math.round(options.capture.width), height: Math.round(options.capture.height) };
  const layout = computeLayout(OUTPUT_SIZES[options.resolution], capture, style);
  // As composeVideo decides, except for videos so short that the animation is dropped (then they go unused).
  const animated = style.windowAnimation.intro || style.windowAnimation.outro || options.windowLayers === true;
  await fs.mkdir(options.dir, { recursive: true });
  const page = await options.browser.newPage();
  try {
    const files = await renderLayers({ page, layout, style, dir: options.dir, animated, backgroundImage: options.backgroundImage });
    return { layout, animated, files, ms: performance.now() - started };
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The layers drawn ahead, if they fit this render (see LayersAhead). */
export function usableLayers(ahead: LayersAhead | null, layout: Layout, animated: boolean): LayerFiles | null {
  if (!ahead) return null;
  if (animated && !ahead.animated) return null;
  return JSON.stringify(ahead.layout) === JSON.stringify(layout) ? ahead.files : null;
}
