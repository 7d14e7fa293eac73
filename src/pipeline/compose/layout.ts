import type { Rect } from '../types.js';
import type { Style } from './style.js';

/**
 * Where things sit in the output frame, in output pixels. The recording keeps its aspect ratio (a portrait mobile
 * capture becomes a tall window with background on both sides); the window (title bar + recording) is the largest
 * that fits inside the padding, centred. Rectangles are even-aligned, as yuv420p video needs.
 */
export interface Layout {
  output: { width: number; height: number };
  /** the whole window: title bar and recording */
  window: Rect;
  /** where the recording is drawn */
  content: Rect;
  titleBarHeight: number;
  cornerRadius: number;
  /** the window's shadow: blur radius and downward offset; 0 for no shadow */
  shadow: { blur: number; offsetY: number };
  /** the window layer (window plus room for its shadow), used when the window animates */
  layer: Rect;
  /**
   * An aspect variant's (aspect.ts): `output` is then the stage the window is composed on, and `frame` the video's
   * own size, which the camera's crop of the stage is scaled to; absent, the video is `output`.
   */
  frame?: { width: number; height: number };
  /** an aspect variant's size unit (the 16:9 video's height / 1080): cursor, click effects and HUD are sized by it */
  unit?: number;
}

/** The size of the video's frames. */
export function frameOf(layout: Layout): { width: number; height: number } {
  return layout.frame ?? layout.output;
}

/** Sizes are designed at 1080p: the scale of this video's drawn sizes (cursor, click effects, HUD) to that. */
export function unitOf(layout: Layout): number {
  return layout.unit ?? layout.output.height / 1080;
}

/** how far (px) a capture may be from the window's size and still be placed without rescaling */
const SNAP = 4;

export function computeLayout(output: { width: number; height: number }, capture: { width: number; height: number }, style: Style): Layout {
  const { width: W, height: H } = output;
  const unit = H / 1080; // sizes below are designed at 1080p
  const chrome = style.mockup === 'macos-light' || style.mockup === 'macos-dark';
  const framed = style.mockup !== 'none';
  const titleBarHeight = chrome ? even(34 * unit) : 0;
  const cornerRadius = framed ? Math.round(12 * unit) : 0;
  const shadow = framed ? { blur: Math.round(48 * unit), offsetY: Math.round(18 * unit) } : { blur: 0, offsetY: 0 };

  const availableWidth = W * (1 - 2 * style.padding);
  const availableHeight = H * (1 - 2 * style.padding) - titleBarHeight;
  const aspect = capture.width / capture.height;
  let contentWidth = availableWidth;
  let contentHeight = contentWidth / aspect;
  if (contentHeight > availableHeight) {
    contentHeight = availableHeight;
    contentWidth = contentHeight * aspect;
  }
  contentWidth = Math.max(2, evenDown(contentWidth));
  contentHeight = Math.max(2, evenDown(contentHeight));
  // A capture made for this window (captureSizeFor) can come out a pixel off (the browser rounds its own scaling):
  // take its size, so its frames are placed as they are (at most one edge pixel cropped) instead of rescaled.
  if (Math.abs(capture.width - contentWidth) <= SNAP && Math.abs(capture.height - contentHeight) <= SNAP) {
    contentWidth = Math.max(2, evenDown(capture.width));
    contentHeight = Math.max(2, evenDown(capture.height));
  }
  const windowHeight = contentHeight + titleBarHeight;
  const windowX = even((W - contentWidth) / 2);
  const windowY = even((H - windowHeight) / 2);
  const window = { x: windowX, y: windowY, width: contentWidth, height: windowHeight };
  const content = { x: windowX, y: windowY + titleBarHeight, width: contentWidth, height: contentHeight };
  const margin = even(shadow.blur + shadow.offsetY);
  const layer = { x: window.x - margin, y: window.y - margin, width: window.width + 2 * margin, height: window.height + 2 * margin };
  return { output, window, content, titleBarHeight, cornerRadius, shadow, layer };
}

function even(value: number): number {
  return Math.round(value / 2) * 2;
}

function evenDown(value: number): number {
  return Math.floor(value / 2) * 2;
}
