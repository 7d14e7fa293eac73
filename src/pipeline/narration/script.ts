import { shortenAtWord } from '../plan/demo-title.js';
import type { StoryText } from '../story-text/types.js';
import { LINE_MAX_CHARS, type NarrationLine } from './types.js';

/**
 * The narration's script (issue 59): one line per story beat, in the page's own words. A beat's line is, first that
 * is whole: the model's caption (in the page's language, checked against the page), the beat's spoken line (its
 * heading uncut, with its fact: story-text/captions.ts spokenLine), the rules' caption, its title; a text the story
 * had to cut ("…") is said up to its last whole clause, never as a broken sentence. The rules add nothing of their
 * own beyond a full stop, so the voice never says what the page does not, nor a number the page does not show. An
 * edited script (`edited`) keeps the user's words for its beats (matched by title; an empty line: nothing said).
 */
export function writeNarrationScript(story: StoryText, edited: NarrationLine[] | null = null): NarrationLine[] {
  const byTitle = new Map((edited ?? []).filter((line) => line.by === 'user').map((line) => [line.beatTitle, line.text]));
  return story.beats.flatMap((beat): NarrationLine[] => {
    const user = byTitle.get(beat.title);
    if (user !== undefined) {
      const text = asSpoken(user);
      return text ? [{ beatTitle: beat.title, stepLabel: beat.stepLabel, text, by: 'user' }] : [];
    }
    const caption = beat.caption ? beat.caption.join(' ') : null;
    const candidates = [beat.captionBy === 'model' ? caption : null, beat.spoken ?? null, caption, beat.title].filter((text): text is string => !!text);
    const whole = candidates.find((text) => !cut(text)) ?? candidates.map(wholeClauses).find((text) => text !== null) ?? null;
    const text = whole ? asSpoken(whole) : '';
    return text ? [{ beatTitle: beat.title, stepLabel: beat.stepLabel, text, by: 'rules' }] : [];
  });
}

function cut(text: string): boolean {
  return /…$/u.test(text.trim());
}

/** A cut text up to its last whole clause (before a comma, colon, semicolon or dash), if three words or more remain. */
function wholeClauses(text: string): string | null {
  const body = text.trim().replace(/…$/u, '');
  const at = Math.max(body.lastIndexOf(', '), body.lastIndexOf(': '), body.lastIndexOf('; '), body.lastIndexOf(' — '), body.lastIndexOf(' – '));
  if (at <= 0) return null;
  const clause = body.slice(0, at).trim();
  return clause.split(/\s+/).length >= 3 ? clause : null;
}

/** A line as the voice reads it: one line, at most LINE_MAX_CHARS (cut at a whole clause), ending as a sentence ends. */
export function asSpoken(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  const short = one.length <= LINE_MAX_CHARS - 1 ? one : wholeClauses(shortenAtWord(one, LINE_MAX_CHARS - 1)) ?? '';
  if (!short) return '';
  // "Pricing: $9 to $49" is read as a heading and its fact; a full stop makes the voice end it as a sentence.
  return /[.!?]$/u.test(short) ? short : `${short.replace(/[,;:]+$/u, '')}.`;
}

/**
 * The user's edits as stored with the demo (`narration_script`: a JSON array of {chapter, text}), as lines the
 * script writer keeps; anything else stored there reads as no edits.
 */
export function editedLines(stored: string | null | undefined): NarrationLine[] {
  if (!stored) return [];
  let edits: unknown;
  try {
    edits = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(edits)) return [];
  return edits
    .filter((edit): edit is { chapter: string; text: string } => typeof edit?.chapter === 'string' && typeof edit?.text === 'string')
    .map((edit) => ({ beatTitle: edit.chapter, stepLabel: null, text: edit.text, by: 'user' as const }));
}
