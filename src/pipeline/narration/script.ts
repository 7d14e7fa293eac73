import { shortenAtWord } from '../plan/demo-title.js';
import type { StoryText } from '../story-text/types.js';
import { LINE_MAX_CHARS, type NarrationLine } from './types.js';

/**
 * The narration's script (issue 59): one line per story beat, in the page's own words. A beat's line is its caption
 * (the page's name for the section and the fact it states, already checked to be on the page), else its title; the
 * rules add nothing of their own beyond a full stop, so the voice never says what the page does not, and never a
 * number the page does not show. An edited script (`edited`, by beat title) keeps the user's words for its beats.
 */
export function writeNarrationScript(story: StoryText, edited: NarrationLine[] | null = null): NarrationLine[] {
  const byTitle = new Map((edited ?? []).filter((line) => line.by === 'user').map((line) => [line.beatTitle, line.text]));
  return story.beats.flatMap((beat): NarrationLine[] => {
    const user = byTitle.get(beat.title);
    if (user !== undefined) return user.trim() === '' ? [] : [{ beatTitle: beat.title, stepLabel: beat.stepLabel, text: asSpoken(user), by: 'user' }];
    const words = beat.caption ? beat.caption.join(' ') : beat.title;
    const text = asSpoken(words);
    return text ? [{ beatTitle: beat.title, stepLabel: beat.stepLabel, text, by: 'rules' }] : [];
  });
}

/** A line as the voice reads it: one line of text, at most LINE_MAX_CHARS, ending as a sentence ends. */
export function asSpoken(text: string): string {
  const line = shortenAtWord(text.replace(/\s+/g, ' ').trim(), LINE_MAX_CHARS).replace(/…$/u, '').trim();
  if (!line) return '';
  // "Pricing: $9 to $49" is read as a heading and its fact; a full stop makes the voice end it as a sentence.
  return /[.!?…]$/u.test(line) ? line : `${line}.`;
}
