import { sectionLabel, shortenAtWord } from '../plan/demo-title.js';
import type { OutlineSection } from '../types.js';
import { CAPTION_LIMITS } from './types.js';

/**
 * Offline captions (issue 36): one short line per beat in the page's own words, the section's name plus its key fact
 * where the page states one: the price range of a pricing section, a figure of any other. The rules copy, never
 * compute: a fact is a run of the page's text (a count of plans would be a number the page may not show), so every
 * number and name a caption holds appears on the page. `factsOnPage` checks that, and a caption that fails it is cut
 * back to the section's name.
 */
export function offlineCaption(section: OutlineSection, prompt: string | null = null): string[] | null {
  // Named as its chapter is (the prompt decides between a kicker and a heading as long as each other).
  const name = sectionLabel(section, prompt);
  if (!name) return null;
  const pageText = `${section.kicker ?? ''} ${section.heading ?? ''} ${section.body ?? section.text}`;
  const fact = keyFact(section);
  const full = fact ? `${name}: ${fact}` : name;
  const lines = wrapCaption(full);
  if (fact && !factsOnPage(lines.join(' '), pageText)) return wrapCaption(name);
  return lines;
}

/** The section's key fact as the page writes it: a price range for pricing, else its first figure with its word. */
export function keyFact(section: OutlineSection): string | null {
  const text = oneLine(section.body ?? section.text);
  if (section.kind === 'pricing') {
    const prices = [...text.matchAll(PRICE)].map((m) => m[0].replace(/\s+/g, ''));
    const distinct = [...new Set(prices)];
    if (distinct.length === 0) return null;
    const sorted = distinct.sort((a, b) => amount(a) - amount(b));
    return sorted.length === 1 ? sorted[0]! : `${sorted[0]} to ${sorted.at(-1)}`;
  }
  // A figure that says something by itself (a percentage, "10,000+", "4.9/5", "3x") and the word after it.
  const figure = FIGURE.exec(text);
  if (!figure) return null;
  const words = figure[0].trim().replace(/[,.;:]+$/, '').split(' ');
  while (words.length > 1 && STOP_WORDS.has(words.at(-1)!.toLowerCase())) words.pop();
  return words.join(' ');
}

/**
 * Whether every number and every name (a capitalised word that does not start the caption) in `caption` appears in
 * `pageText`: the offline rule that captions never invent a fact. Case-sensitive for names, digit-exact for numbers.
 */
export function factsOnPage(caption: string, pageText: string): boolean {
  const page = oneLine(pageText);
  const digits = page.replace(/\s+/g, '');
  for (const number of caption.match(/\d[\d.,]*/g) ?? []) {
    const bare = number.replace(/[.,]+$/, '');
    if (!digits.includes(bare)) return false;
  }
  const words = caption.split(/\s+/).slice(1);
  for (const word of words) {
    const name = word.replace(/^[^\p{L}]+|[^\p{L}\d]+$/gu, '');
    if (/^\p{Lu}/u.test(name) && !page.includes(name)) return false;
  }
  return true;
}

/** A spoken line is at most this long (issue 59): two caption lines, a few seconds of speech. */
const SPOKEN_MAX_CHARS = 84;

/**
 * What a narrator says over a section (issue 59): its heading as the page writes it, whole (the caption cuts it at
 * 40 characters), with the section's key fact where both fit in a spoken line; its kicker when the heading is too
 * long to say; else nothing. Copied, never composed: every number and name is checked to be on the page, like a
 * caption's, and the fact is dropped when it is not.
 */
export function spokenLine(section: OutlineSection): string | null {
  const heading = oneLine(section.heading ?? '');
  const kicker = oneLine(section.kicker ?? '');
  const name = heading && heading.length <= SPOKEN_MAX_CHARS ? heading : kicker && kicker.length <= SPOKEN_MAX_CHARS ? quietName(kicker) : null;
  if (!name) return null;
  const pageText = `${section.kicker ?? ''} ${section.heading ?? ''} ${section.body ?? section.text}`;
  const fact = keyFact(section);
  const full = fact ? `${name.replace(/[.:!?]+$/u, '')}: ${fact}` : name;
  if (fact && full.length <= SPOKEN_MAX_CHARS && factsOnPage(full, pageText)) return full;
  return name;
}

/** A kicker written in capitals ("PRICING") said as a word ("Pricing"). */
function quietName(text: string): string {
  return text === text.toUpperCase() && /\p{L}{2}/u.test(text) ? text.charAt(0) + text.slice(1).toLowerCase() : text;
}

/**
 * A caption's text in at most two lines of at most 42 characters, broken at a space, the second line shortened at a
 * word (with an ellipsis) when the text is longer than two lines hold.
 */
export function wrapCaption(text: string): string[] {
  const line = oneLine(text);
  const max = CAPTION_LIMITS.lineChars;
  if (line.length <= max) return [line];
  // Two lines of about equal length where the text fits in two (a price range never left alone on a line of its own).
  let best = -1;
  for (let i = line.indexOf(' '); i > 0; i = line.indexOf(' ', i + 1)) {
    if (i <= max && line.length - i - 1 <= max && (best < 0 || Math.abs(line.length - 2 * i) < Math.abs(line.length - 2 * best))) best = i;
  }
  if (best > 0) return [line.slice(0, best), line.slice(best + 1)];
  const room = line.slice(0, max + 1);
  const space = room.lastIndexOf(' ');
  const first = space > 0 ? line.slice(0, space) : line.slice(0, max);
  const rest = line.slice(first.length).trim();
  return [first, shortenAtWord(rest, max)].filter((part) => part !== '');
}

/**
 * Whether captions can be written for a page in `language` (its `<html lang>`): always by a model, which writes in
 * the page's language; by the offline rules only in English (or when the page does not say). The reason is shown in
 * the demo's detail, rather than English text over a French page.
 */
export function captionsOffReason(language: string | null, writer: 'rules' | 'model'): string | null {
  if (writer === 'model' || language === null || primaryLanguage(language) === 'en') return null;
  return `Captions are off: the page is in "${language}" and, without a model planner, captions are written in English only.`;
}

export function primaryLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** A page's `<html lang>` as stored: lower case, letters, digits and hyphens, at most 35 characters; else null. */
export function pageLanguage(lang: string | null | undefined): string | null {
  const value = (lang ?? '').trim().toLowerCase();
  return /^[a-z]{2,8}(-[a-z0-9]{1,8})*$/.test(value) && value.length <= 35 ? value : null;
}

const PRICE = /(?:[$€£¥]\s?\d[\d,]*(?:\.\d{1,2})?(?:[kKmM](?!\p{L}))?)|(?:\d[\d,]*(?:[.,]\d{1,2})?\s?(?:€|£|EUR|USD|GBP)(?!\p{L}))/gu;
const FIGURE = /\d[\d,.]*(?:%|\+|x|×|\/\d+|k\b|K\b|M\b)(?: \p{L}[\p{L}-]*){0,3}/u;
/** Words a figure's phrase does not end on ("98% of clients return" → "98% of clients"). */
const STOP_WORDS = new Set(['of', 'to', 'a', 'an', 'the', 'and', 'or', 'in', 'on', 'for', 'with', 'by', 'at', 'from']);

function amount(price: string): number {
  return Number(price.replace(/[^\d.]/g, '')) || 0;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
