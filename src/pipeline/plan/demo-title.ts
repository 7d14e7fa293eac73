import type { StoryText, TimedStory } from '../story-text/types.js';
import type { OutlineSection } from '../types.js';
import { keywords } from './text-match.js';

/** A title's length: short enough to read at a glance in a card, a tab or an unfurl. */
export const TITLE_MAX = 60;

/**
 * A generated demo's default title (issue 55): what the video shows, in the page's words: the names of the sections
 * it shows, in order (`shown`, each its kicker or heading as the chapters name it), joined as a person would ("Pricing
 * and FAQ", "Rewards, pricing and our team"), at most 60 characters. Not the prompt: it is what the owner asked for,
 * not what the viewer gets, and the title was once half of it ("Our Team — <the whole prompt>"). A video that shows
 * no section beyond its opening is called by the page's title; with no page title either, by the prompt, shortened.
 */
export function demoTitle(input: { shown: string[]; pageTitle: string | null; prompt: string | null }): string | null {
  const names: string[] = [];
  for (const raw of input.shown) {
    const name = quietCaps(oneLine(raw));
    if (name && !names.some((known) => sameWords(known) === sameWords(name))) names.push(name);
  }
  if (names.length > 0) return joinNames(names);
  const page = shortenAtWord(input.pageTitle ?? '', TITLE_MAX);
  if (page) return page;
  const prompt = input.prompt ? sentence(input.prompt) : '';
  return prompt ? shortenAtWord(prompt, TITLE_MAX) : null;
}

/**
 * The names of the sections a recording shows, in order: the story's section beats that have a chapter in the
 * recording (a beat dropped for time, or passed through in under a second, is not something the video shows).
 */
export function shownSections(story: StoryText | null, timed: TimedStory | null): string[] {
  if (!story) return [];
  const chapters = new Set((timed?.chapters ?? []).map((chapter) => chapter.title));
  return story.beats.filter((beat) => beat.kind === 'section' && (!timed || chapters.has(beat.title))).map((beat) => beat.title);
}

/**
 * "A", "A and B", "A, B and C", each name after the first starting in lower case where the page wrote it in
 * sentence case after a word that only opens it ("Our team" → "our team"); a name in its own capitals ("Our Team",
 * "FAQ", "Stripe Connect") is kept as written. Too long: each name cut at a word, then names left out from the
 * middle (the first and the last are where the video starts and ends).
 */
function joinNames(names: string[]): string {
  const join = (list: string[]) => list.map((name, i) => (i === 0 ? name : inSentence(name))).reduce((text, name, i, all) => (i === 0 ? name : `${text}${i === all.length - 1 ? ' and ' : ', '}${name}`), '');
  const full = join(names);
  if (full.length <= TITLE_MAX) return full;
  const cut = names.map((name) => shortenAtWord(name, 24));
  if (join(cut).length <= TITLE_MAX) return join(cut);
  const kept = [cut[0]!, cut.at(-1)!];
  for (const name of cut.slice(1, -1)) {
    const more = [...kept.slice(0, -1), name, kept.at(-1)!];
    if (join(more).length > TITLE_MAX) break;
    kept.splice(kept.length - 1, 0, name);
  }
  return shortenAtWord(join(kept), TITLE_MAX);
}

const OPENING_WORDS = new Set(['a', 'an', 'the', 'our', 'your', 'how', 'what', 'why', 'who', 'when', 'where', 'meet', 'about', 'all', 'more', 'some', 'every']);

function inSentence(name: string): string {
  const [first, ...rest] = name.split(' ');
  if (!first || !OPENING_WORDS.has(first.toLocaleLowerCase('en'))) return name;
  if (rest.some((word) => /^\p{Lu}/u.test(word))) return name;
  return [first.toLocaleLowerCase('en'), ...rest].join(' ');
}

function sameWords(text: string): string {
  return text.toLocaleLowerCase('en').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The section's name as a title shows it, at most 40 characters: its kicker or its heading, whichever is the shorter
 * in words. The kicker (a few words above the heading, see analyse/section-kinds.ts) names a section whose heading is
 * a slogan ("PRICING" over "Simple pricing", "Line-up" over "The voices taking the main deck this year"); a heading
 * shorter than its kicker is the name itself ("Contact" under "Get in touch", a product under its breadcrumb). Two
 * as long as each other: the one the prompt calls the section by, else the kicker (issue 59: a demo of "fill in the
 * contact form" was called "Send a message", the eyebrow over "Contact the studio").
 */
export function sectionLabel(section: OutlineSection, prompt: string | null = null): string | null {
  const kicker = oneLine(section.kicker ?? '');
  const heading = oneLine(section.heading ?? '');
  const byKicker = () => shortenAtWord(quietCaps(kicker), 40);
  const byHeading = () => (heading ? shortenAtWord(heading, 40) : null);
  if (!kicker || kicker.length > 32) return byHeading();
  if (!heading) return byKicker();
  const longer = wordCount(kicker) - wordCount(heading);
  if (longer !== 0) return longer < 0 ? byKicker() : byHeading();
  const asked = new Set(keywords(prompt ?? ''));
  const named = (text: string) => keywords(text).some((word) => asked.has(word));
  return named(heading) && !named(kicker) ? byHeading() : byKicker();
}

const wordCount = (text: string) => text.split(' ').length;

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

/** A prompt as a title: one line, its first letter capitalised, no full stop at the end. */
function sentence(text: string): string {
  const line = oneLine(text).replace(/[.。]+$/u, '');
  return line.charAt(0).toLocaleUpperCase('en') + line.slice(1);
}

/**
 * "PRICING" → "Pricing": kickers (and some headings) are set in capitals by their markup, not by their words. A short
 * word in capitals is an initialism ("FAQ", "API") and stays.
 */
function quietCaps(text: string): string {
  if (text !== text.toLocaleUpperCase('en') || !/\p{L}/u.test(text) || (!text.includes(' ') && text.length <= 3)) return text;
  const lower = text.toLocaleLowerCase('en');
  return lower.charAt(0).toLocaleUpperCase('en') + lower.slice(1);
}
