import { wrapCaption } from '../story-text/captions.js';
import type { Caption, TimedStory } from '../story-text/types.js';
import type { NarrationLine, SpokenLine, TimedNarration } from './types.js';

/** A line starts this long after its shot is readable: the eye lands before the voice begins. */
export const LINE_LEAD_MS = 150;
/** ...and ends at least this long before the next shot begins (or the video's fade-out). */
export const LINE_GAP_MS = 100;

export interface VoicedLine extends NarrationLine {
  /** the spoken audio's length, its silences at either end trimmed */
  durationMs: number;
}

/**
 * Places each voiced line in the recording (issue 59): at its beat's shot (the chapter of its beat, timed by the
 * recording), `leadMs` after the shot is readable (the opening: once the window has risen in). A line that would
 * run into the next shot is not said (and so never cut off): the script was stretched to fit, so only a recording
 * that ran short of its plan leaves one out, and the version's narration says which and why.
 */
export function placeLines(
  lines: VoicedLine[],
  story: TimedStory,
  options: { durationMs: number; openingLeadMs: number; endMs: number },
): Pick<TimedNarration, 'lines' | 'unsaid'> {
  const spoken: SpokenLine[] = [];
  const unsaid: TimedNarration['unsaid'] = [];
  for (const line of lines) {
    const index = story.chapters.findIndex((chapter) => chapter.title === line.beatTitle);
    const shot = story.chapters[index];
    if (!shot) {
      unsaid.push({ beatTitle: line.beatTitle, text: line.text, reason: 'The recording never reached its shot.' });
      continue;
    }
    const last = index === story.chapters.length - 1;
    const shotEndMs = last ? options.durationMs : shot.endMs;
    const startMs = Math.max(shot.startMs + (index === 0 ? options.openingLeadMs : LINE_LEAD_MS), spoken.at(-1)?.endMs ?? 0);
    const endMs = startMs + line.durationMs;
    const limit = last ? options.durationMs - options.endMs : shotEndMs - LINE_GAP_MS;
    if (endMs > limit) {
      unsaid.push({ beatTitle: line.beatTitle, text: line.text, reason: `It lasts ${(line.durationMs / 1000).toFixed(1)} s and its shot left ${(Math.max(0, limit - startMs) / 1000).toFixed(1)} s.` });
      continue;
    }
    spoken.push({ beatTitle: line.beatTitle, text: line.text, startMs: Math.round(startMs), endMs: Math.round(endMs), shotStartMs: shot.startMs, shotEndMs: Math.round(shotEndMs) });
  }
  return { lines: spoken, unsaid };
}

/**
 * The captions when the video is narrated: the spoken words, shown while they are said (at least a second, never
 * into the next shot), in place of the beats' captions; where a beat's caption kept clear of a box, so does its line.
 */
export function narratedCaptions(lines: SpokenLine[], story: TimedStory): Caption[] {
  return lines.map((line) => {
    const beatCaption = story.captions.find((caption) => caption.startMs === line.shotStartMs);
    const endMs = Math.min(Math.max(line.endMs, line.startMs + 1000), line.shotEndMs);
    return { startMs: line.startMs, endMs, lines: wrapCaption(line.text), avoid: beatCaption?.avoid ?? null };
  });
}
