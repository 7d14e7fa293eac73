import type { InteractionTimeline } from '../types.js';
import { CAPTION_LIMITS, type Caption, type Chapter, type StoryBeat, type StoryText, type TimedStory } from './types.js';

/** A chapter shorter than this is merged into the next one: a marker a second apart helps nobody. */
const MIN_CHAPTER_MS = 1000;

/**
 * Times the story's beats by the recording (issue 36), not by the plan's intent: a beat starts where the recorder
 * started the steps that bring its section in (the scroll to it, the move onto it), as the timeline records them.
 * Chapters run from one beat's start to the next's (the last to the end of the video); a beat the recording never
 * reached (a step dropped for time) has no chapter. Each caption shows from the moment its section is reached (the
 * beat's own step) until its chapter ends, 1–7 s: longer is cut at 7 s, shorter is left out.
 */
export function timeStory(story: StoryText, timeline: InteractionTimeline): TimedStory {
  const durationMs = Math.round(timeline.durationMs);
  const starts: Array<{ beat: StoryBeat; startMs: number; shownMs: number }> = [];
  for (const beat of story.beats) {
    const at = beatStart(beat, timeline);
    if (!at || at.startMs >= durationMs) continue;
    const previous = starts.at(-1);
    if (previous && at.startMs < previous.startMs) continue;
    // Too close to the previous chapter: this beat takes its place, keeping its start (the opening gives way).
    if (previous && at.startMs - previous.startMs < MIN_CHAPTER_MS) starts.pop();
    starts.push({ beat, startMs: previous && at.startMs - previous.startMs < MIN_CHAPTER_MS ? previous.startMs : at.startMs, shownMs: at.shownMs });
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
    const startMs = Math.max(chapter.startMs, Math.min(entry.shownMs, chapter.endMs));
    const endMs = Math.min(chapter.endMs, startMs + CAPTION_LIMITS.maxMs);
    if (endMs - startMs < CAPTION_LIMITS.minMs) return;
    captions.push({ startMs, endMs, lines: entry.beat.caption, ...(entry.beat.captionBy ? { by: entry.beat.captionBy } : {}), avoid: focusedBox(timeline, chapter) });
  });
  return { language: story.language, chapters, captions, captionsOff: story.captionsOff };
}

/**
 * Where a beat starts in the recording: the first recorded step of its label, moved back over the scrolls and moves
 * that lead to it (a focus step is recorded as a scroll to the section, then the move named by the plan step); and
 * when it is shown (the named step's own start). The opening starts at 0.
 */
function beatStart(beat: StoryBeat, timeline: InteractionTimeline): { startMs: number; shownMs: number } | null {
  if (beat.stepLabel === null) return { startMs: 0, shownMs: 0 };
  const steps = [...timeline.steps].sort((a, b) => a.startMs - b.startMs);
  let index = steps.findIndex((step) => step.label === beat.stepLabel);
  if (index < 0) return null;
  const shownMs = Math.round(steps[index]!.startMs);
  while (index > 0 && (steps[index - 1]!.kind === 'scroll' || steps[index - 1]!.kind === 'move')) index--;
  return { startMs: Math.round(steps[index]!.startMs), shownMs };
}

/** The box the recorder framed during the chapter (the first focus point in it), or null when it framed none. */
function focusedBox(timeline: InteractionTimeline, chapter: Chapter): Caption['avoid'] {
  const focus = timeline.focus.find((entry) => entry.t >= chapter.startMs && entry.t < chapter.endMs);
  return focus ? { ...focus.rect } : null;
}
