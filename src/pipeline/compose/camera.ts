import type { InteractionTimeline, Rect } from '../types.js';
import { frameOf, type Layout } from './layout.js';
import type { Style } from './style.js';
import { FPS } from './frame-rate.js';
import { zoomActions, type ZoomAction } from './shots.js';
import { planCrops, zoomKeyframes, type Crop } from './zoom-path.js';

export { FPS } from './frame-rate.js';
export type { Crop } from './zoom-path.js';
export type { ZoomAction } from './shots.js';

/**
 * The camera: for every output frame, where the window layer is (it rises and scales in during the intro, out
 * during the outro) and which part of the composed frame is shown (the automatic zoom). Everything is decided
 * here, per frame, in output pixels; the filter graph only applies it and the cursor is drawn through the same
 * transform, so the two always agree. What the zoom follows is the shot planner's (shots.ts); how the view moves
 * between shots, frame by frame, is the zoom path's (zoom-path.ts).
 */

/** The video is back on the whole window at least this long before it ends (or its outro starts). */
const OVERVIEW_TAIL_MS = 700;
const INTRO_SCALE = 0.86;
const RISE = 0.06; // of the frame's height

export interface FrameState {
  /** the window layer's rectangle this frame; equals layout.layer when still */
  layer: Rect;
  animating: boolean;
  crop: Crop;
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

  // A focused element is zoomed on only as far as it stays whole (with a margin). One that is already most of the view
  // still gets the gentle push-in that fills the frame with the page (FILL: the background and the window's title bar
  // leave the picture, nothing of the page does), centred on the page: every shot has a visible push-in, and it
  // never crops the heading or what the section shows.
  const fill = Math.min(W / layout.content.width, H / layout.content.height);
  const pageCentre = { x: layout.content.x + layout.content.width / 2, y: layout.content.y + layout.content.height / 2 };
  const framed = (a: ZoomAction): ZoomAction & { magnification: number } => {
    const at = { ...a, ...fromViewport(a) };
    if (!a.fit) return { ...at, magnification: style.zoom.intensity };
    const whole = Math.min(style.zoom.intensity, (W * 0.8) / (a.fit.width * scaleX), (H * 0.8) / (a.fit.height * scaleY));
    const push = Math.min(style.zoom.intensity, fill);
    return whole >= push ? { ...at, magnification: whole } : { ...at, ...pageCentre, magnification: push };
  };
  const actions =
    style.zoom.enabled && style.zoom.intensity > 1.001
      ? zoomActions(timeline)
          .map(framed)
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
    // The crop is scaled to the video's frame (the stage's own size but for an aspect variant: aspect.ts).
    const zoom = frameOf(layout).width / crop.width;
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

function even(value: number): number {
  return Math.round(value / 2) * 2;
}

function easeOutCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return 1 - (1 - x) ** 3;
}

function easeInCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x * x * x;
}
