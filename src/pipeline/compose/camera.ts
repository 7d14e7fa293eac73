import type { InteractionTimeline, Rect } from '../types.js';
import type { Layout } from './layout.js';
import type { Style } from './style.js';

/**
 * The camera: for every output frame, where the window layer is (it rises and scales in during the intro, out
 * during the outro) and which part of the composed frame is shown (the automatic zoom). Everything is decided
 * here, per frame, in output pixels; the filter graph only applies it and the cursor is drawn through the same
 * transform, so the two always agree.
 *
 * Zoom: clicks, typing and hovered targets in the timeline are actions. Each is zoomed in on with a lead-in (the
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

export const FPS = 30;
const LEAD_MS = 150;
const HOLD_MS = 900;
/** An action's zoom lasts at most this long past its arrival (then HOLD_MS and the way out): ~2 s per action. */
const MAX_ACTION_MS = 800;
/** The video is back on the whole window at least this long before it ends (or its outro starts). */
const OVERVIEW_TAIL_MS = 700;
/** actions whose zooms would come closer than this share one zoom */
const MERGE_GAP_MS = 500;
const INTRO_SCALE = 0.86;
const RISE = 0.06; // of the frame's height

export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FrameState {
  /** the window layer's rectangle this frame; equals layout.layer when still */
  layer: Rect;
  animating: boolean;
  crop: Crop;
}

export interface ZoomAction {
  t: number;
  until: number;
  /** composed-frame pixels */
  x: number;
  y: number;
  kind: 'click' | 'type' | 'hover' | 'focus';
  /** the focused element's size (viewport px), for a zoom that keeps it whole */
  fit?: { width: number; height: number };
}

export interface Camera {
  frames: number;
  introFrames: number;
  outroFrames: number;
  actions: ZoomAction[];
  at(frame: number): FrameState;
  /** a point of the composed frame (before zoom) → output pixels this frame */
  project(frame: number, point: { x: number; y: number }): { x: number; y: number; scale: number };
  /** a viewport (CSS pixel) point → the composed frame, before any animation or zoom */
  fromViewport(point: { x: number; y: number }): { x: number; y: number };
}

interface Keyframe {
  t: number;
  rect: Crop;
}

export function createCamera(layout: Layout, timeline: InteractionTimeline, style: Style, durationMs: number): Camera {
  const frames = Math.max(1, Math.round((durationMs * FPS) / 1000));
  const { width: W, height: H } = layout.output;
  const full: Crop = { x: 0, y: 0, width: W, height: H };
  let introFrames = style.windowAnimation.intro ? Math.round((style.windowAnimation.introDurationMs * FPS) / 1000) : 0;
  let outroFrames = style.windowAnimation.outro ? Math.round((style.windowAnimation.outroDurationMs * FPS) / 1000) : 0;
  if (introFrames + outroFrames > frames * 0.6) {
    const shrink = (frames * 0.6) / (introFrames + outroFrames);
    introFrames = Math.floor(introFrames * shrink);
    outroFrames = Math.floor(outroFrames * shrink);
  }
  const introMs = (introFrames * 1000) / FPS;
  const outroStartMs = ((frames - outroFrames) * 1000) / FPS;

  const scaleX = layout.content.width / timeline.viewport.width;
  const scaleY = layout.content.height / timeline.viewport.height;
  const fromViewport = (p: { x: number; y: number }) => ({ x: layout.content.x + p.x * scaleX, y: layout.content.y + p.y * scaleY });

  // A focused element is zoomed on only as far as it stays whole (with a margin), and not at all when it is
  // already most of the view.
  const magnificationFor = (a: ZoomAction) =>
    a.fit ? Math.min(style.zoom.intensity, (W * 0.8) / (a.fit.width * scaleX), (H * 0.8) / (a.fit.height * scaleY)) : style.zoom.intensity;
  const actions =
    style.zoom.enabled && style.zoom.intensity > 1.001
      ? zoomActions(timeline)
          .map((a) => ({ ...a, ...fromViewport(a), magnification: magnificationFor(a) }))
          .filter((a) => a.magnification >= 1.15)
      : [];
  const keyframes = zoomKeyframes(actions, {
    full,
    layout,
    magnification: style.zoom.intensity,
    transitionMs: style.zoom.transitionMs,
    earliestMs: introMs,
    latestMs: Math.max(introMs, Math.min(outroFrames > 0 ? outroStartMs : (frames * 1000) / FPS, (frames * 1000) / FPS - OVERVIEW_TAIL_MS)),
    scrollsBetween: (from, to) => timeline.scrolls.some((s) => s.t > from && s.t < to),
    lastScroll: (before) => timeline.scrolls.findLast((s) => s.t <= before)?.t ?? -Infinity,
    nextScroll: (after) => timeline.scrolls.find((s) => s.t > after)?.t ?? Infinity,
  });
  const crops = planCrops(keyframes, frames, W, H);

  const cache = new Map<number, FrameState>();
  const at = (frame: number): FrameState => {
    const i = Math.min(frames - 1, Math.max(0, Math.round(frame)));
    let state = cache.get(i);
    if (state) return state;
    const t = (i * 1000) / FPS;
    const { layer, animating } = layerAt(layout, i, t, { introFrames, introMs, outroFrames, outroStartMs, outroMs: (outroFrames * 1000) / FPS });
    const crop = crops[i]!;
    state = { layer, animating, crop };
    cache.set(i, state);
    return state;
  };

  const project = (frame: number, point: { x: number; y: number }) => {
    const { layer, crop } = at(frame);
    const k = layer.width / layout.layer.width;
    const x = (point.x - layout.layer.x) * k + layer.x;
    const y = (point.y - layout.layer.y) * k + layer.y;
    const zoom = W / crop.width;
    return { x: (x - crop.x) * zoom, y: (y - crop.y) * zoom, scale: k * zoom };
  };

  return { frames, introFrames, outroFrames, actions, at, project, fromViewport };
}

function layerAt(
  layout: Layout,
  frame: number,
  t: number,
  anim: { introFrames: number; introMs: number; outroFrames: number; outroStartMs: number; outroMs: number },
): { layer: Rect; animating: boolean } {
  let progress = 1; // 1: the window at rest
  let direction = 0; // the rise: from below on the way in, down and away on the way out
  if (frame < anim.introFrames) {
    progress = easeOutCubic(t / anim.introMs);
    direction = 1;
  } else if (anim.outroFrames > 0 && t >= anim.outroStartMs) {
    progress = 1 - easeInCubic((t - anim.outroStartMs + 1000 / FPS) / anim.outroMs);
    direction = 1;
  }
  if (direction === 0) return { layer: layout.layer, animating: false };
  const scale = INTRO_SCALE + (1 - INTRO_SCALE) * progress;
  const { layer } = layout;
  const width = even(layer.width * scale);
  const height = even(layer.height * scale);
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2 + (1 - progress) * RISE * layout.output.height;
  return { layer: { x: even(cx - width / 2), y: even(cy - height / 2), width, height }, animating: true };
}

/** The actions the camera follows, in viewport coordinates, in time order. */
export function zoomActions(timeline: InteractionTimeline): ZoomAction[] {
  const actions: ZoomAction[] = [];
  // The step under way at t; at a boundary the one starting then (a focus is reported as its step begins).
  const stepAt = (t: number) => timeline.steps.findLast((s) => t >= s.startMs && t <= s.endMs) ?? null;
  // The sections the plan framed: each is a shot, and the zooms inside it become one (asShots).
  const sectionFocus = focusedSections(timeline, stepAt);
  for (const click of timeline.clicks) actions.push({ t: click.t, until: click.t, x: click.x, y: click.y, kind: 'click' });
  // Typing: runs of keystrokes, centred on the field being typed into.
  let run: { t: number; until: number } | null = null;
  const flush = () => {
    if (!run) return;
    const field = [...timeline.focus].reverse().find((f) => f.t <= run!.t);
    const click = [...timeline.clicks].reverse().find((c) => c.t <= run!.t);
    const point = field ? { x: field.rect.x + field.rect.width / 2, y: field.rect.y + field.rect.height / 2 } : click ?? null;
    if (point) actions.push({ t: run.t, until: Math.min(run.until, run.t + MAX_ACTION_MS * 2), x: point.x, y: point.y, kind: 'type' });
    run = null;
  };
  for (const key of timeline.keystrokes) {
    if (run && key.t - run.until < 800) run.until = key.t;
    else {
      flush();
      run = { t: key.t, until: key.t };
    }
  }
  flush();
  // Hovers (the target the cursor rests on) and focused sections (the cursor moves to the section's focal
  // element, then the plan dwells there; zoomed only as far as the element stays whole).
  for (const focus of timeline.focus) {
    const step = stepAt(focus.t);
    if (!step) continue;
    const next = timeline.steps.find((s) => s.index === step.index + 1);
    const hover = step.kind === 'hover';
    const dwell = step.kind === 'move' && next?.kind === 'wait' ? next : null;
    if (!hover && !dwell) continue;
    const arrive = timeline.cursor.filter((c) => c.t >= focus.t && c.t <= step.endMs).at(-1)?.t ?? focus.t;
    const until = Math.min(Math.max(arrive, (dwell ?? step).endMs - 300), arrive + MAX_ACTION_MS);
    const centre = { x: focus.rect.x + focus.rect.width / 2, y: focus.rect.y + focus.rect.height / 2 };
    // A hover too is zoomed only as far as its element stays whole: a heading's box spans its section's width, and
    // a zoom at full intensity on its middle cut the words at its start off (seen on a sponsors heading).
    const fit = { width: focus.rect.width, height: focus.rect.height };
    if (hover) actions.push({ t: arrive, until, ...centre, kind: 'hover', fit });
    else actions.push({ t: arrive, until, ...centre, kind: 'focus', fit });
  }
  // A click that is part of typing (clicking into the field) is not a zoom of its own.
  const zooms = actions
    .filter((a) => a.kind !== 'click' || !actions.some((b) => b.kind === 'type' && b.t >= a.t && b.t - a.t < 1500))
    .sort((a, b) => a.t - b.t);
  return asShots(zooms, sectionFocus, timeline);
}

/**
 * One zoom per shot. A shot is the time the plan spends on a focused section, from the moment it frames it until
 * the page next scrolls. The hovers, clicks and typing inside it do not each zoom in and out (in, out, in, out
 * within six seconds, cropping the heading and the outer cards): they become one zoom whose view keeps the
 * section's framed part (its heading and key content) and every action whole, and so magnifies only as far as
 * all of them fit. A section that fills most of the view (a pricing table's row of plans) is not zoomed at all.
 */
function asShots(actions: ZoomAction[], focused: Array<{ t: number; rect: Rect }>, timeline: InteractionTimeline): ZoomAction[] {
  const shots = focused.map((focus) => ({
    from: focus.t,
    to: timeline.scrolls.find((s) => s.t > focus.t)?.t ?? Infinity,
    rect: focus.rect,
  }));
  const out: ZoomAction[] = [];
  const taken = new Set<ZoomAction>();
  for (const shot of shots) {
    const inside = actions.filter((a) => !taken.has(a) && a.t >= shot.from && a.t < shot.to);
    if (inside.length === 0) continue;
    for (const a of inside) taken.add(a);
    const box = { left: shot.rect.x, top: shot.rect.y, right: shot.rect.x + shot.rect.width, bottom: shot.rect.y + shot.rect.height };
    for (const a of inside) {
      const half = { x: (a.fit?.width ?? 0) / 2 + 48, y: (a.fit?.height ?? 0) / 2 + 24 };
      box.left = Math.min(box.left, a.x - half.x);
      box.right = Math.max(box.right, a.x + half.x);
      box.top = Math.min(box.top, a.y - half.y);
      box.bottom = Math.max(box.bottom, a.y + half.y);
    }
    const width = box.right - box.left;
    const height = box.bottom - box.top;
    const kind = inside.some((a) => a.kind === 'type') ? 'type' : inside.some((a) => a.kind === 'click') ? 'click' : inside[0]!.kind;
    out.push({
      t: inside[0]!.t,
      until: Math.max(...inside.map((a) => a.until)),
      x: box.left + width / 2,
      y: box.top + height / 2,
      kind,
      fit: { width, height },
    });
  }
  return [...out, ...actions.filter((a) => !taken.has(a))].sort((a, b) => a.t - b.t);
}

/** Sections the plan focused on (a move followed by a dwell): when, and the part of the view framed (its heading on). */
function focusedSections(
  timeline: InteractionTimeline,
  stepAt: (t: number) => InteractionTimeline['steps'][number] | null,
): Array<{ t: number; rect: Rect }> {
  return timeline.focus.flatMap((focus) => {
    const step = stepAt(focus.t);
    const next = step ? timeline.steps.find((s) => s.index === step.index + 1) : undefined;
    if (step?.kind !== 'move' || next?.kind !== 'wait') return [];
    return [{ t: focus.t, rect: focus.rect }];
  });
}

function zoomKeyframes(
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
    let inStart = Math.max(first.t - LEAD_MS - trans, options.earliestMs, keyframes.at(-1)!.t, options.lastScroll(first.t));
    let inEnd = Math.max(first.t - LEAD_MS, inStart + trans / 2);
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
  const cy = clampCentre(action.y, height, layout.window.y, layout.window.height, H);
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
function planCrops(keyframes: Keyframe[], frames: number, W: number, H: number): Crop[] {
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

function even(value: number): number {
  return Math.round(value / 2) * 2;
}

export function easeInOutCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x < 0.5 ? 4 * x * x * x : 1 - (-2 * x + 2) ** 3 / 2;
}

function easeOutCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return 1 - (1 - x) ** 3;
}

function easeInCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x * x * x;
}
