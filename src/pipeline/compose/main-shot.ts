import type { InteractionTimeline, MainShot } from '../types.js';
import { FPS } from './frame-rate.js';

/**
 * When the thumbnail is taken (issue 35): in the middle of the main shot, the time the video rests on the section it
 * is about, from the moment the cursor has reached it (the end of the plan's focus move, which the recorder's
 * timeline names by the plan step's label) until the page next scrolls or the video ends. The default time, a tenth
 * in, showed the hero of every demo of a page, so two demos of one page had the same picture.
 * Null when the timeline has no such step (a plan without a main section, a script recorded before issue 35).
 */
export function mainShotMs(timeline: InteractionTimeline, shot: MainShot | null | undefined): number | null {
  if (!shot) return null;
  const move = timeline.steps.find((step) => step.kind === 'move' && step.label === shot.stepLabel);
  if (!move) return null;
  const from = move.endMs;
  const nextScroll = timeline.scrolls.find((scroll) => scroll.t > from)?.t ?? Infinity;
  const to = Math.min(nextScroll, timeline.durationMs);
  if (!(to > from)) return Math.max(0, Math.min(from, timeline.durationMs));
  return Math.round(from + (to - from) / 2);
}

/** A frame time moved off the intro and outro, whose window is still rising in or falling away; null stays null. */
export function restingMs(atMs: number | null | undefined, camera: { frames: number; introFrames: number; outroFrames: number }): number | null {
  if (atMs === null || atMs === undefined) return null;
  const first = camera.introFrames;
  const last = Math.max(first, camera.frames - camera.outroFrames - 1);
  return (Math.min(last, Math.max(first, Math.round((atMs * FPS) / 1000))) * 1000) / FPS;
}
