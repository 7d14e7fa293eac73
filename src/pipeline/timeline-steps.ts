import type { InteractionTimeline } from './types.js';

/**
 * The step under way at `t`; at a boundary the one starting then. A step's times are whole milliseconds while the
 * events the recorder stamps are on the frame clock (1866.67 ms at 30 fps): the focus reported as a step begins came
 * a fraction of a millisecond *before* its rounded start, was taken for the scroll before it, and the section's shot
 * was lost, so each hover inside it zoomed on its own button at full strength and cut the heading off for seconds.
 */
export function stepUnderWay(timeline: InteractionTimeline, t: number): InteractionTimeline['steps'][number] | null {
  return timeline.steps.findLast((s) => t >= s.startMs - STEP_ROUNDING_MS && t <= s.endMs) ?? null;
}

/** How far a step's rounded start may lie after the event that began it. */
export const STEP_ROUNDING_MS = 1;
