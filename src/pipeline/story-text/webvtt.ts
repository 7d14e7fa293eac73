import type { TimedStory } from './types.js';

/**
 * The story as WebVTT (issue 36): chapters (`kind="chapters"`, one cue a chapter, its title) and captions (one cue a
 * caption, its lines). Cue text is escaped as WebVTT asks (&, <, >), so a heading like "<b>Pricing</b>" shows as
 * written, never as markup; "-->" cannot end up in a cue's text line as a timing line because of the escaping of ">".
 */
export function chaptersVtt(story: TimedStory): string {
  return vtt(story.chapters.map((chapter, i) => ({ id: `chapter-${i + 1}`, startMs: chapter.startMs, endMs: chapter.endMs, lines: [chapter.title] })));
}

export function captionsVtt(story: TimedStory): string {
  return vtt(story.captions.map((caption, i) => ({ id: `caption-${i + 1}`, startMs: caption.startMs, endMs: caption.endMs, lines: caption.lines })));
}

function vtt(cues: Array<{ id: string; startMs: number; endMs: number; lines: string[] }>): string {
  const blocks = cues.map((cue) => [cue.id, `${timestamp(cue.startMs)} --> ${timestamp(cue.endMs)}`, ...cue.lines.map(escapeCueText)].join('\n'));
  return ['WEBVTT', ...blocks].join('\n\n') + '\n';
}

export function timestamp(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const rest = total % 1000;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}.${String(rest).padStart(3, '0')}`;
}

/** One cue line: no line breaks (a blank line would end the cue), and the three characters WebVTT reads as markup escaped. */
export function escapeCueText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
