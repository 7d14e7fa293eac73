import type { InteractionTimeline } from '../types.js';
import { FPS } from './camera.js';

/**
 * The pointer as the viewer sees it: the cursor's position at every output frame (viewport CSS pixels), on a
 * smoothed path, and the click effects running at that frame. The recorder logs the pointer at each mouse move
 * (irregular ticks, with the small jitter of a hand); sampling that at 30 fps and smoothing it over a few frames
 * gives a path that glides, while a resting cursor (as at every click) stays exactly where it is.
 */
export interface PointerFrame {
  x: number;
  y: number;
}

export interface ClickAt {
  /** viewport CSS pixels, where the click landed */
  x: number;
  y: number;
  /** 0 → 1 over the effect's life */
  progress: number;
}

export const CLICK_EFFECT_MS = 650;
const SMOOTHING_RADIUS = 2; // frames either side
/** a longer gap between two logged points is the cursor resting (moves log a point every frame or two) */
const REST_GAP_MS = 100;

export function pointerPath(timeline: InteractionTimeline, frames: number): PointerFrame[] {
  const samples = [...timeline.cursor].sort((a, b) => a.t - b.t);
  const fallback = { x: timeline.viewport.width / 2, y: timeline.viewport.height * 0.55 };
  const raw: PointerFrame[] = [];
  let j = 0;
  for (let i = 0; i < frames; i++) {
    const t = (i * 1000) / FPS;
    while (j + 1 < samples.length && samples[j + 1]!.t <= t) j++;
    const a = samples[j];
    const b = samples[j + 1];
    if (!a) raw.push(fallback);
    else if (!b || t <= a.t) raw.push({ x: a.x, y: a.y });
    else {
      // A cursor at rest logs nothing until it moves again: it stays put until a frame before the move's first
      // point, instead of drifting towards it through the whole rest (which also lets a part of the video be
      // composed before the next move is known: compose-ahead.ts).
      const from = b.t - a.t > REST_GAP_MS ? b.t - 1000 / FPS : a.t;
      if (t <= from) {
        raw.push({ x: a.x, y: a.y });
        continue;
      }
      const k = (t - from) / (b.t - from);
      raw.push({ x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k });
    }
  }
  // A small binomial kernel: smooth, and still exactly on a point the cursor rests on.
  const weights = [1, 4, 6, 4, 1];
  return raw.map((_, i) => {
    let x = 0;
    let y = 0;
    let total = 0;
    for (let k = -SMOOTHING_RADIUS; k <= SMOOTHING_RADIUS; k++) {
      const p = raw[Math.min(raw.length - 1, Math.max(0, i + k))]!;
      const w = weights[k + SMOOTHING_RADIUS]!;
      x += p.x * w;
      y += p.y * w;
      total += w;
    }
    return { x: x / total, y: y / total };
  });
}

/** The click effects alive at each frame. */
export function clickEffects(timeline: InteractionTimeline, frames: number): ClickAt[][] {
  const result: ClickAt[][] = Array.from({ length: frames }, () => []);
  for (const click of timeline.clicks) {
    const first = Math.max(0, Math.ceil((click.t * FPS) / 1000));
    for (let i = first; i < frames; i++) {
      const progress = ((i * 1000) / FPS - click.t) / CLICK_EFFECT_MS;
      if (progress > 1) break;
      result[i]!.push({ x: click.x, y: click.y, progress: Math.max(0, progress) });
    }
  }
  return result;
}
