import type { OutlineSection } from '../types.js';

/**
 * A generated demo's default title (issue 35): what it shows and what was asked, "Pricing — Show our pricing plans".
 * The page's <title> alone named two demos of one page alike. The section is named by its kicker (the short label
 * above a heading, "PRICING") when it has one, else by its heading; the prompt follows, both shortened at a word.
 * Without a prompt the page's title is all there is.
 */
export function demoTitle(input: { prompt: string | null; section: OutlineSection | null; pageTitle: string | null }): string | null {
  const prompt = input.prompt ? sentence(input.prompt) : '';
  if (!prompt) return input.pageTitle ? shortenAtWord(input.pageTitle, 120) || null : null;
  const name = input.section ? sectionLabel(input.section) : null;
  const asked = shortenAtWord(prompt, 72);
  return name ? `${name} — ${asked}` : asked;
}

/** The section's name as a title shows it: its kicker, else its heading, at most 40 characters. */
export function sectionLabel(section: OutlineSection): string | null {
  const kicker = oneLine(section.kicker ?? '');
  if (kicker && kicker.length <= 32) return shortenAtWord(quietCaps(kicker), 40);
  const heading = oneLine(section.heading ?? '');
  return heading ? shortenAtWord(heading, 40) : null;
}

/**
 * `text` on one line, at most `max` characters: cut at the last space that fits, never inside a word, trailing
 * punctuation dropped, and an ellipsis says so. A single word longer than `max` is the one case cut inside it.
 */
export function shortenAtWord(text: string, max: number): string {
  const line = oneLine(text);
  if (line.length <= max) return line;
  const room = line.slice(0, max); // one character is the ellipsis: the space found below is at most max - 1
  const space = room.lastIndexOf(' ');
  const cut = space > 0 ? room.slice(0, space) : room.slice(0, max - 1);
  return `${cut.replace(/[\s,;:.\-–—(]+$/u, '')}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A prompt as a title's half: one line, its first letter capitalised, no full stop at the end. */
function sentence(text: string): string {
  const line = oneLine(text).replace(/[.。]+$/u, '');
  return line.charAt(0).toLocaleUpperCase('en') + line.slice(1);
}

/** "PRICING" → "Pricing": kickers are often set in capitals by their markup, not by their words. */
function quietCaps(text: string): string {
  if (text !== text.toLocaleUpperCase('en') || !/\p{L}/u.test(text)) return text;
  const lower = text.toLocaleLowerCase('en');
  return lower.charAt(0).toLocaleUpperCase('en') + lower.slice(1);
}
