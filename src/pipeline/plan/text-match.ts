import type { OutlineSection, PageOutline, SectionKind } from '../types.js';
import { sectionsInOrder } from './outline-query.js';

/** Matching words of a prompt or a hint against the page: headings, section ids, kinds and summaries. */

const stopwords = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'how', 'in', 'into', 'is', 'it', 'its', 'me', 'my',
  'of', 'on', 'or', 'our', 'the', 'their', 'them', 'this', 'to', 'us', 'we', 'what', 'with', 'you', 'your', 'section',
  'sections', 'part', 'area', 'block', 'panel', 'page',
]);

/** Lower-case words without punctuation, stopwords or a plural s. */
export function keywords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !stopwords.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

const kindWords: Record<string, SectionKind> = {
  hero: 'hero', feature: 'features', capability: 'features', pricing: 'pricing', price: 'pricing', plan: 'pricing',
  testimonial: 'testimonials', review: 'testimonials', quote: 'testimonials', logo: 'logos', customer: 'logos',
  faq: 'faq', question: 'faq', form: 'form', signup: 'form', contact: 'form', footer: 'footer', video: 'media',
  demo: 'media',
};

export interface SectionMatch {
  section: OutlineSection;
  /** 0–1: 1 is the heading itself. */
  score: number;
  why: string;
}

function scoreSection(hint: string[], hintText: string, section: OutlineSection): SectionMatch | null {
  const heading = keywords(section.heading ?? '');
  const idWords = keywords(`${section.id} ${section.selector}`);
  const text = new Set(keywords(section.text));
  const inHeading = hint.filter((word) => heading.includes(word)).length;
  const candidates: Array<[number, string]> = [];
  // Word for word first: "What is Offline.js?" and the hero's "Offline.js" share all their keywords.
  if (section.heading && section.heading.trim().toLowerCase() === hintText) candidates.push([1.05, 'heading is the hint word for word']);
  if (heading.length > 0 && heading.join(' ') === hint.join(' ')) candidates.push([1, 'heading is the hint']);
  if (heading.length > 0 && inHeading === hint.length) candidates.push([0.9, 'heading contains the hint']);
  if (heading.length > 0 && heading.every((word) => hint.includes(word))) candidates.push([0.8, 'hint contains the heading']);
  if (hint.every((word) => idWords.includes(word))) candidates.push([0.85, 'section id matches the hint']);
  if (hint.some((word) => kindWords[word] === section.kind)) candidates.push([0.7, `section is the ${section.kind}`]);
  if (inHeading > 0) candidates.push([0.6 * (inHeading / hint.length), 'heading shares words with the hint']);
  if (hint.length > 0 && hint.every((word) => text.has(word))) candidates.push([0.55, 'section text mentions the hint']);
  if (section.heading && hintText.length > 2 && section.heading.toLowerCase().includes(hintText)) candidates.push([0.9, 'heading contains the hint']);
  const best = candidates.sort((a, b) => b[0] - a[0])[0];
  return best ? { section, score: best[0], why: best[1] } : null;
}

/** The section a hint ("Integrations", "the pricing table") names best, if any scores 0.5 or more. */
export function matchSection(outline: PageOutline, hint: string): SectionMatch | null {
  const words = keywords(hint);
  if (words.length === 0) return null;
  const hintText = hint.trim().toLowerCase();
  let best: SectionMatch | null = null;
  for (const section of sectionsInOrder(outline)) {
    const match = scoreSection(words, hintText, section);
    // Footers repeat every heading of the page in their link lists; they only win when nothing else matches.
    if (match && section.kind === 'footer') match.score -= 0.3;
    if (match && match.score >= 0.5 && (!best || match.score > best.score)) best = match;
  }
  return best;
}

const leadIn =
  /\b(?:focus(?:es|ing)?\s+on|zoom(?:\s+in)?\s+(?:on|to)|spotlight(?:s|ing)?|highlight(?:s|ing)?|show(?:s|ing)?(?:\s+off)?|feature|dwell\s+on|go\s+to|jump\s+to|scroll\s+to|stay\s+on|center\s+on|centre\s+on)\s+(?:the\s+|our\s+|my\s+|your\s+|their\s+)?/i;

/**
 * A section the prompt names: "focus on the Integrations section", "the 'Security' part", a quoted name. Returns the
 * name as written (without articles), or null.
 */
export function sectionPhrase(prompt: string): { phrase: string; explicit: boolean; quoted?: boolean } | null {
  const named = new RegExp(`${leadIn.source}["“'‘]?([^"”'’.,;:!?]{1,80}?)["”'’]?\\s+(?:section|part|area|block|panel)\\b`, 'i').exec(prompt);
  if (named?.[1]) return { phrase: tidy(named[1]), explicit: true };
  const article = /\b(?:the|our|your|their)\s+["“'‘]?([^"”'’.,;:!?]{1,60}?)["”'’]?\s+(?:section|part|area|block|panel)\b/i.exec(prompt);
  if (article?.[1]) return { phrase: tidy(article[1]), explicit: true };
  const quoted = /["“‘]([^"”’]{2,80})["”’]/.exec(prompt);
  if (quoted?.[1]) return { phrase: tidy(quoted[1]), explicit: false, quoted: true };
  const focus = new RegExp(`\\b(?:focus(?:es|ing)?\\s+on|zoom(?:\\s+in)?\\s+on|spotlight)\\s+(?:the\\s+|our\\s+|my\\s+|your\\s+)?([^.,;:!?]{2,60})`, 'i').exec(prompt);
  if (focus?.[1]) return { phrase: tidy(focus[1]), explicit: false };
  return null;
}

/**
 * The section a phrase of the prompt names. A quotation names one only where the page says it word for word: "the
 * "you are offline" notice" quotes what a notice says, and its one word "offline" took the shot to the hero's
 * "Offline.js".
 */
export function phraseSection(outline: PageOutline, found: { phrase: string; quoted?: boolean }): SectionMatch | null {
  const match = matchSection(outline, found.phrase);
  if (!match || !found.quoted) return match;
  const flat = (text: string) => text.toLowerCase().replace(/[^\p{L}\d]+/gu, ' ').trim();
  const phrase = flat(found.phrase);
  return flat(match.section.heading ?? '').includes(phrase) || flat(match.section.body ?? match.section.text).includes(phrase) ? match : null;
}

function tidy(phrase: string): string {
  return phrase.replace(/\s+/g, ' ').trim().slice(0, 120);
}

/**
 * Sections whose whole heading the prompt mentions ("show how Integrations work" names "Integrations"). Long headings
 * (marketing sentences) are skipped: a prompt rarely quotes them by accident, and matching parts of them misleads.
 */
export function headingsMentioned(outline: PageOutline, prompt: string): OutlineSection[] {
  const words = new Set(keywords(prompt));
  return sectionsInOrder(outline).filter((section) => {
    const heading = keywords(section.heading ?? '');
    return section.kind !== 'footer' && heading.length > 0 && heading.length <= 4 && heading.every((word) => words.has(word));
  });
}
