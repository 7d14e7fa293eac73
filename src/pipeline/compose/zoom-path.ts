import type { Layout } from './layout.js';
import { FPS } from './frame-rate.js';
import { moveProfile, REFERENCE_WIDTH } from './move-profile.js';
import type { ZoomAction } from './shots.js';

/**
 * The zoom path: from the shots' actions to the crop of every output frame. Each is zoomed in on with a lead-in (the
 * zoom is complete a little before the action), held after it, and eased out; actions close in time share one
 * zoom, and the view pans from one to the next instead of pumping out and in — but never across a scroll: a pan
 * while the page scrolls under it can cancel the scroll out for a frame (a still picture in the middle of motion).
 *
 * Every move is planned frame by frame (planCrops): the crop changes on every frame of a move, and its first and last
 * steps move the picture by a fraction of a pixel (move-profile.ts), so a move starts and ends gently instead of
 * jumping to or from a still picture. Whole-pixel steps were not gentle enough: at 720p and 1.6× the smallest one
 * moves the picture 1.6 px, which changes a dense page by more than smoothness.py's 2 grey levels, and the camera at
 * rest beside it then counted as a picture stuck while the view moved.
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
    // The zoom out takes its whole transition when the shot has been held long enough by then (a form typed into
    // until near the end): a hurried one (half of it) jumps in its middle, and on a plain page its first, sub-pixel
    // steps then look still beside that jump (smoothness.py's window). A short shot keeps its hold and hurries.
    const gentle = outEnd - trans;
    const outStart = gentle >= Math.max(first.t, inEnd) + HOLD_MS ? Math.min(last.until + HOLD_MS, gentle) : Math.min(last.until + HOLD_MS, outEnd - trans / 2);
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

/**
 * A frame whose step is at least this many pixels (of a 720p frame) is drawn on the whole-pixel crop nearest it (the
 * plain crop and scale; the sub-pixel crop costs about ten times as much a frame): from there on a move's rounding is
 * a fraction of its step. So only the end steps and the first one after them are sub-pixel (about 4 frames a move's
 * end).
 */
const SNAP_STEP_PX = 3; // of REFERENCE_WIDTH

/**
 * The crop of every frame: still between keyframes (whole pixels, an even width), and each move from one keyframe's
 * rect to the next spread over all its frames along moveProfile (move-profile.ts), measured in pixels of a 720p
 * frame: the crop changes on every frame of a move, its first and last steps are sub-pixel, and a frame of a move
 * may have a fractional crop (drawn by the sub-pixel crop, subpixel-crop.ts).
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
    const steps = Math.max(1, fb - fa);
    fill(fa + 1);
    const path = moveProfile(outputTravel(from, to, REFERENCE_WIDTH), steps);
    const rectAt = (i: number) => lerpCrop(from, to, progressAt(from, to, REFERENCE_WIDTH, path[i]!));
    for (let i = 1; i <= steps; i++) {
      let next: Crop = i === steps ? to : rectAt(i);
      if (i < steps && path[i]! - path[i - 1]! >= SNAP_STEP_PX) {
        // Snapped only when the whole-pixel crop stays between this frame's neighbours: the move never steps back.
        const snapped = toCrop(next, W, H);
        if (between(snapped, current, rectAt(i + 1))) next = snapped;
      }
      current = next;
      crops.push(current);
    }
    current = to;
  }
  fill(frames);
  return crops.slice(0, frames);
}

/**
 * How far a move from one crop to another carries the picture, in pixels of a frame `width` wide: the distance the
 * crop's edge that travels most covers, each bit of it seen at the zoom of the moment (a zoom's steps look bigger as
 * the view closes in).
 */
export function outputTravel(from: Crop, to: Crop, width: number): number {
  const edge = edgeTravel(from, to);
  const dw = to.width - from.width;
  return Math.abs(dw) < 1e-9 ? (edge * width) / from.width : (edge * width * Math.log(to.width / from.width)) / dw;
}

/** The share of the move (0 … 1, linear in the crop's edges) done once the picture has travelled `s` (outputTravel). */
function progressAt(from: Crop, to: Crop, width: number, s: number): number {
  const edge = edgeTravel(from, to);
  const dw = to.width - from.width;
  if (edge === 0) return 1;
  const p = Math.abs(dw) < 1e-9 ? (s * from.width) / (edge * width) : (from.width * (Math.exp((s * dw) / (edge * width)) - 1)) / dw;
  return Math.min(1, Math.max(0, p));
}

function edgeTravel(from: Crop, to: Crop): number {
  const edges = [to.x - from.x, to.x + to.width - from.x - from.width, to.y - from.y, to.y + to.height - from.y - from.height];
  return Math.max(...edges.map(Math.abs));
}

function lerpCrop(from: Crop, to: Crop, p: number): Crop {
  return {
    x: from.x + (to.x - from.x) * p,
    y: from.y + (to.y - from.y) * p,
    width: from.width + (to.width - from.width) * p,
    height: from.height + (to.height - from.height) * p,
  };
}

function between(crop: Crop, a: Crop, b: Crop): boolean {
  const within = (v: number, p: number, q: number) => v >= Math.min(p, q) && v <= Math.max(p, q) && (v !== p || p === q);
  return within(crop.x, a.x, b.x) && within(crop.y, a.y, b.y) && within(crop.width, a.width, b.width) && within(crop.height, a.height, b.height);
}

/** A crop on whole pixels: the plain crop draws it; any other needs the sub-pixel one (filter-graph.ts). */
export function isWholeCrop(crop: Crop): boolean {
  return Number.isInteger(crop.x) && Number.isInteger(crop.y) && Number.isInteger(crop.width) && Number.isInteger(crop.height);
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
