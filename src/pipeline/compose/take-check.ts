import type { Presentation } from '../../demos/presentation.js';
import { OUTPUT_SIZES } from '../encode/video-encoder.js';
import type { DemoPlan, InteractionTimeline, PageOutline, Rect, RecordingLogEntry, Resolution } from '../types.js';
import { createCamera, FPS, type Camera } from './camera.js';
import { captureSizeFor } from './compose.js';
import { computeLayout } from './layout.js';
import { resolveStyle } from './style.js';

/**
 * The service checks its own take, the way the story evaluation reads a video: for each section the plan framed,
 * how long its heading stayed wholly on the page's screen (below the sticky header) and inside the camera's view, in
 * its longest unbroken stretch. A take passes when every target is readable for its share of the video: 3 s, or
 * less when several targets share a short video (each gets at least 40% of the video divided among them).
 */

export interface TakeTarget {
  section: string;
  longestS: number;
}

export interface TakeCheck {
  targets: TakeTarget[];
  /** the bar each target had to reach, in seconds */
  barS: number;
  passed: boolean;
}

export function checkTake(input: {
  outline: PageOutline;
  plan: DemoPlan;
  timeline: InteractionTimeline;
  presentation: Presentation | null;
  resolution: Resolution;
}): TakeCheck {
  const { outline, plan, timeline } = input;
  const ids = [...new Set(plan.steps.flatMap((step) => (step.action === 'focus' ? [step.sectionId] : [])))];
  const sections = ids.flatMap((id) => outline.sections.filter((section) => section.id === id && section.kind !== 'hero'));
  const durationS = timeline.durationMs / 1000;
  const barS = Math.min(3, (0.4 * durationS) / Math.max(1, sections.length));
  if (sections.length === 0) return { targets: [], barS, passed: true };
  const style = resolveStyle(input.presentation);
  const output = OUTPUT_SIZES[input.resolution];
  const capture = captureSizeFor(input.presentation, input.resolution, timeline.viewport);
  const camera = createCamera(computeLayout(output, capture, style), timeline, style, timeline.durationMs);
  const scrollAt = recordedScrollCurve(timeline);
  const targets = sections.map((section) => {
    const heading: Rect = section.headingRect ?? { ...section.rect, height: Math.min(section.rect.height, 80) };
    let run = 0;
    let longest = 0;
    for (let frame = 0; frame < camera.frames; frame++) {
      run = isReadable(heading, scrollAt((frame * 1000) / FPS), outline, camera, frame, output) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return { section: section.heading ?? section.kind, longestS: Math.round((longest / FPS) * 10) / 10 };
  });
  return { targets, barS, passed: targets.every((target) => target.longestS >= barS) };
}

/** The check as the last entry of the recording log: what was read, for how long, against which bar. */
export function takeCheckEntry(check: TakeCheck, index: number, durationMs: number): RecordingLogEntry {
  const read = check.targets.map((target) => `"${target.section.slice(0, 60)}" ${target.longestS.toFixed(1)} s`).join(', ');
  return {
    index,
    action: 'check',
    target: read ? `readable: ${read} (bar ${check.barS.toFixed(1)} s)` : 'no framed section to check',
    startMs: 0,
    endMs: Math.round(durationMs),
    ok: check.passed,
    ...(check.passed ? {} : { error: 'A framed section was not readable for its share of the video.' }),
  };
}

/**
 * Whether a heading (document coordinates) is readable in this output frame: wholly on the page's screen below the
 * sticky header at this scroll position, and wholly inside the camera's (zoomed or not) view.
 */
export function isReadable(heading: Rect, scrollY: number, outline: PageOutline, camera: Camera, frame: number, output: { width: number; height: number }): boolean {
  const top = heading.y - scrollY;
  if (top < outline.stickyHeaderHeight - 1 || top + heading.height > outline.viewport.height + 1) return false;
  const a = camera.project(frame, camera.fromViewport({ x: heading.x, y: top }));
  const b = camera.project(frame, camera.fromViewport({ x: heading.x + heading.width, y: top + heading.height }));
  return a.x >= -1 && a.y >= -1 && b.x <= output.width + 1 && b.y <= output.height + 1;
}

/** The page's scroll position through a recorded timeline (the recorder adds a sample whenever it changes). */
export function recordedScrollCurve(timeline: InteractionTimeline): (t: number) => number {
  const samples = [...timeline.scrolls].sort((a, b) => a.t - b.t);
  return (t) => {
    let y = 0;
    for (const sample of samples) {
      if (sample.t > t) break;
      y = sample.y;
    }
    return y;
  };
}
