import type { Presentation } from '../../demos/presentation.js';
import { OUTPUT_SIZES } from '../encode/video-encoder.js';
import type { DemoPlan, InteractionTimeline, OutlineSection, PageOutline, Rect, RecordingLogEntry, Resolution } from '../types.js';
import { createCamera, FPS, type Camera } from './camera.js';
import { captureSizeFor } from './compose.js';
import { computeLayout } from './layout.js';
import { resolveStyle } from './style.js';

/**
 * The service checks its own take, the way the story evaluation reads a video: for each section the plan framed,
 * how long its heading stayed wholly on the page's screen (below the sticky header) and inside the camera's view, in
 * its longest unbroken stretch. A take passes when every target is readable for its share of the video: 3 s, or
 * less when several targets share a short video (each gets at least 40% of the video divided among them), and the
 * section the plan ends on is readable through the last second.
 */

export interface TakeTarget {
  section: string;
  longestS: number;
}

/**
 * Where the video ends (issue 55): the last section the plan framed, when nothing moves away from it after, must be
 * readable over the video's last second ("…, then end on the team" ends on the team, not on its way back up).
 */
export interface TakeEnding {
  section: string;
  /** the share (0–1) of the last second in which its heading was readable */
  readableShare: number;
}

export interface TakeCheck {
  targets: TakeTarget[];
  /** null when the plan does not end on a framed section (it ends on a header's button, or frames none) */
  ending: TakeEnding | null;
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
  if (sections.length === 0) return { targets: [], ending: null, barS, passed: true };
  const style = resolveStyle(input.presentation);
  const output = OUTPUT_SIZES[input.resolution];
  const capture = captureSizeFor(input.presentation, input.resolution, timeline.viewport);
  const camera = createCamera(computeLayout(output, capture, style), timeline, style, timeline.durationMs);
  const scrollAt = recordedScrollCurve(timeline);
  const readable = (section: OutlineSection, frame: number) => {
    const heading: Rect = section.headingRect ?? { ...section.rect, height: Math.min(section.rect.height, 80) };
    return isReadable(heading, scrollAt((frame * 1000) / FPS), outline, camera, frame, output);
  };
  const targets = sections.map((section) => {
    let run = 0;
    let longest = 0;
    for (let frame = 0; frame < camera.frames; frame++) {
      run = readable(section, frame) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return { section: section.heading ?? section.kind, longestS: Math.round((longest / FPS) * 10) / 10 };
  });
  const last = endingSection(plan, sections);
  let ending: TakeEnding | null = null;
  if (last) {
    const from = Math.max(0, camera.frames - FPS);
    let shown = 0;
    for (let frame = from; frame < camera.frames; frame++) if (readable(last, frame)) shown++;
    ending = { section: last.heading ?? last.kind, readableShare: Math.round((shown / Math.max(1, camera.frames - from)) * 100) / 100 };
  }
  const endsWhereAsked = !ending || ending.readableShare >= ENDING_SHARE;
  return { targets, ending, barS, passed: endsWhereAsked && targets.every((target) => target.longestS >= barS) };
}

/** How much of the last second the ending's heading must be readable: all of it but a few frames of a settle. */
const ENDING_SHARE = 0.8;

/**
 * The section the video ends on: the last one framed, unless a later step travels away from it (a scroll, or an
 * ending on a header's button that the plan goes back up for).
 */
function endingSection(plan: DemoPlan, sections: OutlineSection[]): OutlineSection | null {
  const lastFocus = plan.steps.findLastIndex((step) => step.action === 'focus');
  if (lastFocus < 0) return null;
  const step = plan.steps[lastFocus]!;
  if (step.action !== 'focus') return null;
  if (plan.steps.slice(lastFocus + 1).some((later) => later.action === 'scroll')) return null;
  return sections.find((section) => section.id === step.sectionId) ?? null;
}

/** The check as the last entry of the recording log: what was read, for how long, against which bar. */
export function takeCheckEntry(check: TakeCheck, index: number, durationMs: number): RecordingLogEntry {
  const read = check.targets.map((target) => `"${target.section.slice(0, 60)}" ${target.longestS.toFixed(1)} s`).join(', ');
  const ending = check.ending ? `; ends on "${check.ending.section.slice(0, 60)}", readable ${Math.round(check.ending.readableShare * 100)}% of the last second` : '';
  const short = check.targets.some((target) => target.longestS < check.barS);
  const error = short ? 'A framed section was not readable for its share of the video.' : 'The video does not end on the section it was asked to end on.';
  return {
    index,
    action: 'check',
    target: read ? `readable: ${read} (bar ${check.barS.toFixed(1)} s)${ending}` : 'no framed section to check',
    startMs: 0,
    endMs: Math.round(durationMs),
    ok: check.passed,
    ...(check.passed ? {} : { error }),
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
