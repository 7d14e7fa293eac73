import type { InteractionTimeline, Rect } from '../types.js';
import { STEP_ROUNDING_MS } from '../timeline-steps.js';
import { CAPTION_LIMITS, type Caption, type Chapter, type StoryBeat, type StoryText, type TimedStory } from './types.js';

/** A chapter shorter than this is merged into its neighbour: a marker a second apart helps nobody. */
const MIN_CHAPTER_MS = 1000;
/** A scroll is "mostly done" when what is left of it is at most this share of the viewport's height. */
const SCROLL_LEFT_SHARE = 1 / 3;
/** The heading is readable while its top is in the view below the navigation and above this share of its height. */
const READ_BAND_SHARE = 0.8;
/** ...and while the page moves at most this share of the viewport's height a second (a reader follows a slow glide). */
const READ_SPEED_SHARE = 0.6;

/**
 * Times the story's beats by the recording (issue 36), not by the plan's intent. A beat starts when its section is
 * readable in the recording (issue 55): the scroll that brings it in is mostly done, gliding slowly enough to read,
 * and the top of what the recorder framed (the section's heading) is in the view, below the page's sticky
 * navigation; not when the travel toward it begins. The travel belongs to the chapter being left. Chapters run from one beat's start to the next's (the last to
 * the end of the video); a beat the recording never reached (a step dropped for time) has no chapter. A chapter under
 * 1 s is a pass-through: the chapter before runs on over it (the opening, at 0 s, gives way to the next instead).
 * Each caption shows from its chapter's start until the page sets off for the next beat (or the chapter ends), 1–7 s:
 * longer is cut at 7 s, shorter is left out.
 */
export function timeStory(story: StoryText, timeline: InteractionTimeline): TimedStory {
  const durationMs = Math.round(timeline.durationMs);
  // Each beat's start, and when the page set off from it for the next (its caption is not shown over the travel).
  const starts: Array<{ beat: StoryBeat; startMs: number; leaveMs?: number }> = [];
  for (const beat of story.beats) {
    const at = beatStart(beat, timeline, story.stickyHeaderHeight ?? 0);
    if (at === null || at.startMs >= durationMs) continue;
    const previous = starts.at(-1);
    if (previous && at.startMs < previous.startMs) continue;
    if (previous && previous.leaveMs === undefined && at.travelMs > previous.startMs) previous.leaveMs = at.travelMs;
    if (previous && at.startMs - previous.startMs < MIN_CHAPTER_MS) {
      starts.pop();
      // The opening gives way from 0 s, so the video has a chapter from its first frame; any other short chapter
      // leaves its time to the one before it, and this beat keeps its own, readable, start.
      starts.push({ beat, startMs: starts.length === 0 ? previous.startMs : at.startMs });
      continue;
    }
    starts.push({ beat, startMs: at.startMs });
  }
  const chapters: Chapter[] = starts.map((entry, i) => ({
    title: entry.beat.title,
    startMs: entry.startMs,
    endMs: i + 1 < starts.length ? starts[i + 1]!.startMs : durationMs,
  }));
  const captions: Caption[] = [];
  starts.forEach((entry, i) => {
    if (!entry.beat.caption || story.captionsOff) return;
    const chapter = chapters[i]!;
    const endMs = Math.min(chapter.endMs, entry.leaveMs ?? chapter.endMs, chapter.startMs + CAPTION_LIMITS.maxMs);
    if (endMs - chapter.startMs < CAPTION_LIMITS.minMs) return;
    captions.push({ startMs: chapter.startMs, endMs, lines: entry.beat.caption, ...(entry.beat.captionBy ? { by: entry.beat.captionBy } : {}), avoid: focusedBox(timeline, chapter) });
  });
  return { language: story.language, chapters, captions, captionsOff: story.captionsOff };
}

/**
 * When a beat's section is readable in the recording: the opening from 0; any other from the first moment, within
 * the travel that leads to its step (the scrolls and moves recorded just before it), after which the page stays where
 * it rests for the beat (at most a third of a screen from it, gliding at most 0.6 screens a second) with the top of
 * the framed box in the view. The box is the recorder's focus rect during the beat's step, in viewport coordinates
 * where the page rests; its top, or the navigation's foot when the section starts above the view, is where the
 * heading is. Also when that travel set off (`travelMs`). Null: the step was not recorded.
 */
export function beatStart(beat: StoryBeat, timeline: InteractionTimeline, stickyHeaderHeight: number): { startMs: number; travelMs: number } | null {
  if (beat.stepLabel === null) return { startMs: 0, travelMs: 0 };
  const steps = [...timeline.steps].sort((a, b) => a.startMs - b.startMs);
  let index = steps.findIndex((step) => step.label === beat.stepLabel);
  if (index < 0) return null;
  const named = steps[index]!;
  while (index > 0 && (steps[index - 1]!.kind === 'scroll' || steps[index - 1]!.kind === 'move')) index--;
  const travelMs = steps[index]!.startMs;
  const focus = timeline.focus.find((entry) => entry.t >= named.startMs - STEP_ROUNDING_MS && entry.t <= named.endMs) ?? null;
  // Where the page rests for the beat: when the recorder framed it (after any scroll of the step's own), else at the
  // step's end (a target not found is scrolled to within its step, and framed by no focus rect).
  const restMs = focus?.t ?? named.endMs;
  const scrolls = [...timeline.scrolls].sort((a, b) => a.t - b.t);
  const restY = scrollAt(scrolls, restMs);
  const height = timeline.viewport.height;
  const headingTop = focus ? Math.max(focus.rect.y, stickyHeaderHeight) : stickyHeaderHeight;
  const readable = (y: number) => {
    const left = restY - y;
    if (left === 0) return true;
    // Where the heading is while the page still has `left` to go: further down the view when scrolling down to it.
    const top = headingTop + left;
    return Math.abs(left) <= height * SCROLL_LEFT_SHARE && top >= stickyHeaderHeight - 4 && top <= height * READ_BAND_SHARE;
  };
  // Back from the rest, over the scroll samples of the travel, while the page was readable at each and moving slowly
  // on to the next (the speed of the glide from one sample to the next).
  const during = scrolls.filter((sample) => sample.t > travelMs && sample.t <= restMs);
  const slow = (i: number) => {
    const here = during[i]!;
    const next = during[i + 1] ?? { t: restMs, y: restY };
    return next.t <= here.t || (Math.abs(next.y - here.y) * 1000) / (next.t - here.t) <= height * READ_SPEED_SHARE;
  };
  const at = (startMs: number) => ({ startMs, travelMs: Math.round(travelMs) });
  let startMs = Math.round(restMs);
  for (let i = during.length - 1; i >= 0; i--) {
    if (!readable(during[i]!.y) || !slow(i)) return at(startMs);
    startMs = Math.round(during[i]!.t);
  }
  const first = during[0];
  const atSetOff = scrollAt(scrolls, travelMs);
  const settled = !first || (Math.abs(first.y - atSetOff) * 1000) / Math.max(1, first.t - travelMs) <= height * READ_SPEED_SHARE;
  return at(readable(atSetOff) && settled ? Math.round(travelMs) : startMs);
}

/** The scroll position at `t`: the last sample at or before it (the page holds still between samples). */
function scrollAt(scrolls: Array<{ t: number; y: number }>, t: number): number {
  let y = scrolls[0]?.y ?? 0;
  for (const sample of scrolls) {
    if (sample.t > t) break;
    y = sample.y;
  }
  return y;
}

/** The box the recorder framed during the chapter (the first focus point in it), or null when it framed none. */
function focusedBox(timeline: InteractionTimeline, chapter: Chapter): Rect | null {
  const focus = timeline.focus.find((entry) => entry.t >= chapter.startMs - STEP_ROUNDING_MS && entry.t < chapter.endMs);
  return focus ? { ...focus.rect } : null;
}
