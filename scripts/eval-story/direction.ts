import type { Camera } from '../../src/pipeline/compose/camera.js';
import { FPS } from '../../src/pipeline/compose/camera.js';
import type { InteractionTimeline, Rect } from '../../src/pipeline/types.js';

/**
 * The camera's direction in a case, from the timeline and scroll curve the eval already has (the same three figures
 * `../shared/tools/direction.py` reads from a finished video's pixels): how long the video stays on the first view
 * before it travels, the longest stretch where nothing moves, and the fastest travel.
 */
export interface Direction {
  /** when the page first moves, in s; null when the prompt's target is in the first view (the opening is the shot) */
  openingS: number | null;
  /** the longest stretch, in s, where neither the page nor the camera's view moves (the cursor is not counted) */
  longestStillS: number;
  /** the fastest scroll held over 0.2 s, in screens (viewport heights) a second; a cut (a jump of half a screen or more in a frame) is not travel */
  fastestScreensPerS: number;
  /** how many travels were cuts */
  cuts: number;
}

/** Held over this long, as direction.py does. */
const WINDOW_MS = 200;

export function directionOf(timeline: InteractionTimeline, scrollAt: (t: number) => number, camera: Camera, target: Rect | undefined): Direction {
  const height = timeline.viewport.height;
  const frames = camera.frames;
  const dt = 1000 / FPS;
  // Each frame's scroll change; a cut (a jump of half a screen or more) is counted apart and not as travel.
  const raw: number[] = [];
  for (let frame = 1; frame < frames; frame++) raw.push(Math.abs(scrollAt(frame * dt) - scrollAt((frame - 1) * dt)));
  const jump = (moved: number) => moved >= height / 2;
  const moves = raw.map((moved) => (jump(moved) ? 0 : moved));
  const cuts = raw.filter(jump).length;
  // The first travel: a cut, or the page moving for 0.2 s in a row (a correction of a pixel is not one).
  const window = Math.max(1, Math.round(WINDOW_MS / dt));
  const first = raw.findIndex((moved, k) => jump(moved) || (k + window <= moves.length && moves.slice(k, k + window).every((m) => m >= 1)));
  const opening = first < 0 ? frames * dt : (first + 1) * dt;
  let fastest = 0;
  for (let k = 0; k + window <= moves.length; k++) {
    const speed = (moves.slice(k, k + window).reduce((a, b) => a + b, 0) / height) * (1000 / WINDOW_MS);
    fastest = Math.max(fastest, speed);
  }
  let longest = 0;
  let run = 0;
  for (let frame = 1; frame < frames; frame++) {
    const a = camera.at(frame - 1);
    const b = camera.at(frame);
    const still = Math.abs(scrollAt(frame * dt) - scrollAt((frame - 1) * dt)) < 0.5 && !b.animating && sameCrop(a.crop, b.crop);
    run = still ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const belowFirstView = target !== undefined && target.y + target.height > height;
  return {
    openingS: belowFirstView ? round(opening / 1000) : null,
    longestStillS: round((longest * dt) / 1000),
    fastestScreensPerS: round(fastest),
    cuts,
  };
}

/** One line over a set: the median and worst of each figure. */
export function directionSummary(directions: Direction[]): string {
  if (directions.length === 0) return 'Direction: no cases';
  const openings = directions.flatMap((d) => (d.openingS === null ? [] : [d.openingS]));
  const figure = (values: number[], unit: string) =>
    values.length === 0 ? 'n/a' : `median ${median(values).toFixed(1)}${unit}, worst ${Math.max(...values).toFixed(1)}${unit}`;
  return [
    `Direction (${directions.length} cases):`,
    `opening ${figure(openings, ' s')} (${openings.length} with the target below the first view);`,
    `longest still ${figure(directions.map((d) => d.longestStillS), ' s')};`,
    `fastest travel ${figure(directions.map((d) => d.fastestScreensPerS), ' screens/s')};`,
    `${directions.reduce((sum, d) => sum + d.cuts, 0)} cut(s)`,
  ].join(' ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function sameCrop(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
