import type { OutlineSection, PageOutline } from '../types.js';
import { kindConcepts, pagePhrases, stop, widgetWords } from './lexicon.js';
import { actionsIn } from './outline-query.js';
import { conceptNamed, conceptsOfStem, stem, words } from './prompt-words.js';
import { compoundParts, fieldWords, type MeaningField } from './word-meaning.js';

/**
 * The text a section is known by (section-meaning.ts reads a prompt against it): its heading, id and classes, the menu
 * links and calls to action that lead to it, its eyebrow, subtitle, peers' headings, widgets, buttons, text and its
 * parts' headings, each a field weighted by how much it says what the section is, with the words, stems and concepts
 * of the lexicon it holds.
 */

/** The field of a section's peers' headings (a row of equals, a footer's columns). */
export const PEERS = 'heading of a row of equals';

export interface Field extends MeaningField {
  weight: number;
  what: string;
  stems: Set<string>;
  concepts: Set<string>;
}

export function field(rawText: string, weight: number, what: string, extraConcepts: string[] = []): Field {
  // On the page, a "who" after a word opens a relative clause ("Partners who support us", "for people who travel"):
  // it says nothing of a team. Only a heading that starts with it asks about people ("Who we are").
  // So with "about" after a word: a preposition ("Fun Facts About Us", "What clients say about us"), not the section
  // that tells who they are, which a heading names by starting with it ("About Us"), or by "more/all about".
  const text = rawText
    .replace(/([\p{L}\d])[\s_-]+who\b/giu, '$1')
    .replace(/([\p{L}\d]+)[\s_-]+about\b/giu, (whole, before: string) => (/^(?:more|all)$/i.test(before) ? whole : before));
  const named = pagePhrases.flatMap(([pattern, concept]) => (new RegExp(pattern.source, pattern.flags).test(text) ? [concept] : []));
  // A heading's joined name ("MultiDrag", "PageSpeed") says its parts too, as a hyphen's does; in a longer text the
  // same shape is code ("setOption(options)"), not a name.
  // So does one joined in lower case ("Blockquotes" is block quotes).
  const short = text.length <= 80;
  const joined = words(short ? text.replace(/\b([A-Z]?[a-z]{2,})([A-Z][a-z]{2,})\b/g, '$1$2 $1 $2') : text);
  // Its parts are its words, not the concepts they name alone ("Tooltips" is no "tool" of the features).
  const pageWords = short ? joined.flatMap((word) => [word, ...compoundParts(word)]) : joined;
  const stems = new Set([...pageWords, ...named].map(stem));
  const found = new Set(extraConcepts);
  if (isFigureBand(text)) found.add('stats');
  for (const s of new Set([...joined, ...named].map(stem))) for (const concept of conceptsOfStem(s) ?? []) found.add(concept);
  return { weight, what, stems, concepts: found, ...fieldWords(pageWords.filter((word) => !stop.has(word))) };
}

/** A figure as a band of numbers shows one: "8K+", "50+", "99%", "1.2M". */
const figure = /(?<![\w$£€.,])\d+(?:[.,]\d+)?\s?(?:[kKmM]\+?|\+|%)(?![\w])/g;

/**
 * Text that shows three different figures or more ("8K+ Happy Clients 22+ Instruments 50+ Years in market 99%
 * Projects completed"): the page's numbers, whatever its words call them, which is what "how many…" asks for. A
 * figure repeated on every card of a grid ("12+" bids) is one figure.
 */
function isFigureBand(text: string): boolean {
  return new Set(text.match(figure) ?? []).size >= 3;
}

/** How many menu items leading to one part make them a template's placeholders. */
const PLACEHOLDER_LINKS = 3;

/** The text a section is known by, each source weighted by how much it says what the section is. */
export function sectionFields(outline: PageOutline, section: OutlineSection): Field[] {
  const navLabels = menuLabelsFor(outline, section);
  // Calls to action that lead there ("Book a table" → #reserve) say what it is for, but more weakly than a menu: a
  // pricing card's "Request a quote" leads to the contact form, which is not where prices are.
  const elementId = /#([\w-]+)/.exec(section.selector)?.[1] ?? null;
  const ctaLabels = elementId
    ? [...new Set(outline.actions.filter((a) => (a.kind === 'cta' || a.kind === 'primary-cta') && a.href?.endsWith(`#${elementId}`)).map((a) => a.label))]
    : [];
  const kind = kindConcepts[section.kind] ?? [];
  const text = section.body ?? section.text;
  const fields = [
    // A first card's heading weighs as its peers' do, and is no heading of the page's (`headingsSay`).
    section.cardHeading ? field(section.heading ?? '', 0.8, "first card's heading") : field(section.heading ?? '', 1, 'heading'),
    field(`${section.id} ${section.selector.replace(/[#.[\]="'>:()-]/g, ' ')}`, 0.8, 'id/classes', kind),
    // A menu whose items lead three different ways to one part (a template's "About Us", "Specials" and "Book a Table"
    // all to `#about`) says little of it: its placeholder links, not the part's names, count as running text.
    field(navLabels.join(' '), navLabels.length >= PLACEHOLDER_LINKS ? 0.45 : 0.9, 'nav link'),
    field(section.kicker ?? '', 0.9, 'eyebrow'),
    field(section.subtitle ?? '', 0.9, 'subtitle'),
    field((section.peerHeadings ?? []).join(' '), 0.8, PEERS),
    field((section.widgets ?? []).map((widget) => widgetWords[widget]).join(' '), 0.8, 'widgets'),
    field(ctaLabels.join(' '), 0.6, 'call to action'),
    // Its own buttons ("Download on the App Store"): what a visitor does there.
    field(actionsIn(outline, section).map((action) => action.label).join(' '), 0.5, 'buttons'),
    field(text, 0.45, 'text'),
    // The headings of its own parts that its text, cut after 1,500 characters, no longer holds (a long docs part's
    // "Repeating classes" below its "Delay classes"): what it holds, named as a table of contents would, so more
    // surely than a word of its text. Those its text holds already count there, as any word of it.
    // So do its parts' headings that are a concept's own name ("Awards", "Education" in a résumé's side column),
    // though its text holds them: each is a place as surely as a section's heading.
    field([...new Set([...lostPartHeadings(section, text), ...namedPartHeadings(section)])].join(' '), 0.7, 'parts\' headings'),
  ];
  return fields;
}

/** The headings of a section's parts that are one word, a concept's own name. */
function namedPartHeadings(section: OutlineSection): string[] {
  return (section.parts ?? []).map((part) => part.heading).filter((heading) => {
    const own = words(heading);
    return own.length === 1 && conceptNamed(own[0]!) !== null;
  });
}

/** The headings of a section's parts that its text does not hold. */
function lostPartHeadings(section: OutlineSection, text: string): string[] {
  const flat = (words: string) => words.toLowerCase().replace(/\s+/g, ' ').trim();
  const held = flat(text);
  return (section.parts ?? []).map((part) => part.heading).filter((heading) => !held.includes(flat(heading)));
}

/** The labels of the navigation links that point at a section (`href="#its-id"`), deduplicated. */
export function menuLabelsFor(outline: PageOutline, section: OutlineSection): string[] {
  const elementId = /#([\w-]+)/.exec(section.selector)?.[1] ?? null;
  if (!elementId) return [];
  const links = outline.navigation.concat(outline.actions.filter((action) => action.kind === 'nav-link'));
  return [...new Set(links.filter((link) => link.href?.endsWith(`#${elementId}`)).map((link) => link.label))];
}
