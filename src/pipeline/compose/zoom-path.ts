import type { Layout } from './layout.js';
import { FPS } from './frame-rate.js';
import type { ZoomAction } from './shots.js';

/**
 * The zoom path: from the shots' actions to the crop of every output frame. Each is zoomed in on with a lead-in (the
 * zoom is complete a little before the action), held after it, and eased out; actions close in time share one
 * zoom, and the view pans from one to the next instead of pumping out and in — but never across a scroll: a pan
 * while the page scrolls under it can cancel the scroll out for a frame (a still picture in the middle of motion).
 *
 * Every move is planned frame by frame on the crop's grid (whole pixels; even widths), like the recorder's scrolls:
 * the crop changes on every frame of a move (a move with fewer grid steps than frames is made shorter, never a crawl
 * that holds still every other frame), and its first and last RAMP_STEPS frames move by one grid step, so a move
 * starts and ends gently instead of jumping to or from a still picture. One pixel, not two: at 720p and 1.6× a 2-px
 * step of the view already changes a dense page by more than smoothness.py's 2 grey levels.
 */

const LEAD_MS = 150;
const HOLD_MS = 900;
/** actions whose zooms would come closer than this share one zoom */
const MERGE_GAP_MS = 500;

export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Keyframe {
  t: number;
  rect: Crop;
}

export function zoomKeyframes(
  actions: ZoomAction[],
  options: {
    full: Crop;
    layout: Layout;
    magnification: number;
    transitionMs: number;
    earliestMs: number;
    latestMs: number;
    /** the page scrolled between these two times */
    scrollsBetween(from: number, to: number): boolean;
    /** when the page next scrolls after this time (Infinity: never) */
    nextScroll(after: number): number;
    /** when the page last scrolled before this time (-Infinity: never) */
    lastScroll(before: number): number;
  },
): Keyframe[] {
  const { full, transitionMs: trans } = options;
  const target = (a: ZoomAction & { magnification?: number }) => zoomRect(a, options.layout, a.magnification ?? options.magnification);
  // Group actions whose zooms would overlap or nearly touch, unless the page scrolls between them (no pan then).
  const groups: ZoomAction[][] = [];
  for (const action of actions) {
    const group = groups.at(-1);
    const previousEnd = group ? group.at(-1)!.until + HOLD_MS + trans : -Infinity;
    const nextStart = action.t - LEAD_MS - trans;
    if (group && nextStart - previousEnd < MERGE_GAP_MS && !options.scrollsBetween(group.at(-1)!.until, action.t)) group.push(action);
    else groups.push([action]);
  }
  const keyframes: Keyframe[] = [{ t: 0, rect: full }];
  for (const group of groups) {
    const first = group[0]!;
    const last = group.at(-1)!;
    // Not while the page is still scrolling to it: a zoom moving over a moving page reads as a lurch.
    // A shot's slow push-in (inMs) starts where the page comes to rest and takes its time; else the zoom is complete
    // a little before the action.
    const slow = first.inMs !== undefined && first.inMs > trans ? first.inMs : 0;
    let inStart = Math.max(first.t - LEAD_MS - (slow || trans), options.earliestMs, keyframes.at(-1)!.t, options.lastScroll(first.t));
    let inEnd = slow ? inStart + slow : Math.max(first.t - LEAD_MS, inStart + trans / 2);
    // Back on the whole window before the page scrolls: a scroll seen magnified moves its first, gentlest steps
    // (one device pixel) by more than the eye takes for a start; at rest they stay small.
    const outEnd = Math.min(last.until + HOLD_MS + trans, options.latestMs, options.nextScroll(last.until));
    const outStart = Math.min(last.until + HOLD_MS, outEnd - trans / 2);
    if (outStart <= inEnd) continue; // no room to show this zoom without a jump
    inStart = Math.min(inStart, inEnd);
    inEnd = Math.min(inEnd, outStart);
    const frames: Keyframe[] = [
      { t: inStart, rect: full },
      { t: inEnd, rect: target(first) },
    ];
    for (const action of group.slice(1)) {
      const panEnd = Math.min(Math.max(action.t - LEAD_MS, frames.at(-1)!.t), outStart);
      const panStart = Math.max(frames.at(-1)!.t, panEnd - trans);
      const rect = target(action);
      if (sameRect(rect, frames.at(-1)!.rect)) continue;
      frames.push({ t: panStart, rect: frames.at(-1)!.rect }, { t: panEnd, rect });
    }
    frames.push({ t: Math.max(outStart, frames.at(-1)!.t), rect: frames.at(-1)!.rect }, { t: Math.max(outEnd, frames.at(-1)!.t), rect: full });
    keyframes.push(...frames);
  }
  return keyframes;
}

/** The view at full zoom on an action: the point near the middle, kept inside the window when possible. */
function zoomRect(action: { x: number; y: number }, layout: Layout, magnification: number): Crop {
  const { width: W, height: H } = layout.output;
  const width = W / magnification;
  const height = H / magnification;
  const cx = clampCentre(action.x, width, layout.window.x, layout.window.width, W);
  // An aspect variant's crop is often taller than the window: then it keeps the whole window in view, as near the
  // middle as the action allows, rather than following the action up or down into the background.
  const cy = layout.frame && height > layout.window.height
    ? Math.min(Math.max(layout.window.y + layout.window.height / 2, height / 2), H - height / 2)
    : clampCentre(action.y, height, layout.window.y, layout.window.height, H);
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

function clampCentre(value: number, size: number, start: number, length: number, frame: number): number {
  const [min, max] = length >= size ? [start + size / 2, start + length - size / 2] : [size / 2, frame - size / 2];
  return Math.min(Math.max(value, min), max);
}

/** grid steps at each end of a move (as the recorder's scrolls): three frames of the smallest step */
const RAMP_STEPS = 3;

/**
 * The crop of every frame: still between keyframes, and each move from one keyframe's rect to the next planned on
 * the crop grid. The parameter that changes most (x, y or width) walks its grid (1 px; 2 for the width) along
 * moveProfile (one grid step on each of the first and last RAMP_STEPS frames, at least one every frame); the others
 * follow in proportion. A move with fewer steps than its frames is shortened and centred in its time.
 */
export function planCrops(keyframes: Keyframe[], frames: number, W: number, H: number): Crop[] {
  const crops: Crop[] = [];
  let current = toCrop(keyframes[0]?.rect ?? { x: 0, y: 0, width: W, height: H }, W, H);
  const fill = (until: number) => {
    while (crops.length < Math.min(frames, until)) crops.push(current);
  };
  for (let k = 1; k < keyframes.length; k++) {
    const a = keyframes[k - 1]!;
    const b = keyframes[k]!;
    const from = current;
    const to = toCrop(b.rect, W, H);
    if (sameCrop(from, to)) continue;
    const fa = Math.max(crops.length, Math.round((a.t * FPS) / 1000));
    const fb = Math.max(fa, Math.round((b.t * FPS) / 1000));
    const delta = { x: to.x - from.x, y: to.y - from.y, width: to.width - from.width };
    const longest = Math.max(Math.abs(delta.x), Math.abs(delta.y), Math.abs(delta.width));
    const grid = longest === Math.abs(delta.width) ? 2 : 1;
    const steps = Math.max(1, Math.min(fb - fa, Math.round(longest / grid)));
    const start = fa + Math.floor((fb - fa - steps) / 2);
    fill(start + 1);
    // Positions along the longest parameter, on its grid: exact steps of at least one grid step.
    const path = moveProfile(longest, steps, grid).map((p) => Math.round(p / grid) * grid);
    for (let i = 1; i <= steps; i++) {
      const progress = i === steps ? 1 : path[i]! / longest;
      const rect = {
        x: from.x + delta.x * progress,
        y: from.y + delta.y * progress,
        width: from.width + delta.width * progress,
        height: from.height + (to.height - from.height) * progress,
      };
      current = i === steps ? to : toCrop(rect, W, H);
      crops.push(current);
    }
    current = to;
  }
  fill(frames);
  return crops.slice(0, frames);
}

/**
 * Where a move of `distance` px stands after each of `steps` frames (0 … distance): RAMP_STEPS steps of `ramp` px at
 * each end, and between them `ramp` plus a share of the rest along smoothstep (its peak speed is 1.5× the average; a
 * sine's is 2×, a cubic's 3×). Every step is at least `ramp`.
 */
export function moveProfile(distance: number, steps: number, ramp: number): number[] {
  const n = Math.max(1, Math.floor(steps));
  const middle = n - 2 * RAMP_STEPS;
  const increments: number[] = [];
  if (middle < 2 || distance <= n * ramp) {
    for (let k = 0; k < n; k++) increments.push(distance / n);
  } else {
    const lift = distance - n * ramp;
    for (let k = 0; k < n; k++) {
      const j = k - RAMP_STEPS;
      increments.push(j < 0 || j >= middle ? ramp : ramp + lift * (smoothstep((j + 1) / middle) - smoothstep(j / middle)));
    }
  }
  const positions = [0];
  let at = 0;
  for (const step of increments) positions.push((at += step));
  positions[n] = distance;
  return positions;
}

function smoothstep(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x * x * (3 - 2 * x);
}

function sameCrop(a: Crop, b: Crop): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/**
 * Whole pixels (the filter graph crops with exact=1, so odd offsets are kept on yuv420p: chroma then sits half a
 * chroma sample off, which nobody sees), an even width, inside the frame, with the frame's aspect ratio.
 */
function toCrop(rect: Crop, W: number, H: number): Crop {
  const width = Math.min(W, Math.max(2, Math.round(rect.width / 2) * 2));
  const height = Math.min(H, Math.max(2, Math.round((width * H) / W)));
  const x = Math.min(W - width, Math.max(0, Math.round(rect.x + (rect.width - width) / 2)));
  const y = Math.min(H - height, Math.max(0, Math.round(rect.y + (rect.height - height) / 2)));
  return { x, y, width, height };
}

function sameRect(a: Crop, b: Crop): boolean {
  return Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.width - b.width) < 1;
}
