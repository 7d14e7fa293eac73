import type { OutlineAction, OutlineSection, PageOutline } from '../types.js';
import { kindConcepts, manner, pagePhrases, stop, widgetWords } from './lexicon.js';
import { actionsIn, centre, containsPoint, isFixed, sectionAt, sectionName, sectionsInOrder } from './outline-query.js';
import { askedPart } from './section-parts.js';
import { clausesOf, endCue, endingParts } from './prompt-clauses.js';
import { conceptNamed, conceptsOfStem, promptWords, stem, words } from './prompt-words.js';
import { closeWordIn, compoundParts, fieldWords, MISSPELT_WEIGHT, type MeaningField } from './word-meaning.js';

/**
 * What a prompt asks to see, by meaning rather than by keyword: each clause of the prompt ("the team", "how to get
 * in touch", "end on the sign-up") is matched against every section's heading, id and classes, the navigation
 * links that point at it, its kind and its text. Words are stemmed, and a lexicon of the vocabularies people use for
 * the usual parts of a landing page (lexicon.ts) lets "how much it costs" find "Plans" and "people behind it" find
 * "Our team".
 *
 * The lexicon is a prior, not the only evidence: the page's own misspelling of a prompt word, and a word of nearly the
 * same sense by pre-trained word vectors (word-meaning.ts), count too, at a discount, word by word and never averaged
 * over a clause (docs/decisions.md, "Lexicon, not word vectors, measured" and "Word vectors beside the lexicon").
 */


interface Field extends MeaningField {
  weight: number;
  what: string;
  stems: Set<string>;
  concepts: Set<string>;
}

function field(rawText: string, weight: number, what: string, extraConcepts: string[] = []): Field {
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
function sectionFields(outline: PageOutline, section: OutlineSection): Field[] {
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

export interface Subject {
  section: OutlineSection;
  /** 0–1, from how strongly the clause matches and how clearly it beats the next-best section. */
  confidence: number;
  why: string;
  /** The clause of the prompt that asked for it. */
  clause: string;
}

export interface PromptSubjects {
  /** In the order to visit: the prompt's order, with an "end on X" subject last. */
  subjects: Subject[];
  endsOn: Subject | null;
  /**
   * The button of a header that stays on screen which the ending clause names word for word ("end on how to book
   * a stay" → "Book your stay"): the demo ends on it, wherever the page is, rather than on a section.
   */
  endsOnAction?: OutlineAction;
  /**
   * Issue 55: the clauses, as written, that no section answered surely enough, each with the sections that share any
   * word or concept with it (not-found.ts says which of them the demo reports as not found).
   */
  unanswered: Array<{ clause: string; touches: OutlineSection[] }>;
}

/**
 * A part after an ending's "and" that speaks of the first ("and their prices", "and what each of them does"): a detail of
 * the place it ends on, not a second thing to end on. It counts half, so that a part answering only the detail (the
 * rooms' prices) does not take the ending from the one that answers its head (the spa treatments); a part that names
 * something of its own ("and community help", "and privacy policy") counts in full.
 */
const refersBack = /^\s*(?:(?:what|how|where|when|which|who) )?(?:its|their|his|her|each|every|them|they|it)\b/i;
const ENDING_MORE_WEIGHT = 0.5;

/** Where on the page a clause places its section: the last one before the footer. */
const bottomCue = /\b(?:at|near|towards?) the (?:very )?bottom(?: of the page)?\b|\b(?:at|near|towards?) the (?:very )?end of the page\b|\b(?:just |right )?(?:above|before) the footer\b|\b(?:near|by|next to|close to|around|towards?) the footer\b|\bbottom of the page\b/i;
/**
 * Where a clause places its section by a neighbour: "the one just before the services grid", "the band right after
 * the pricing", "the strip below the hero". "Before" and "after" are times as often as places ("the team after the
 * pricing"), so they place only with a word that makes them a place ("just", "right", "the one"); "above" and
 * "below" always do. Group 1 or 3 is the side, 2 or 4 the neighbour's own words. The footer is the bottom cue's.
 */
const neighbourCue =
  /\b(?:(?:the )?(?:last |first |next )?one |just |right |immediately |directly )(before|above|after|below|beneath|under) (?:the |a |an )?(.+)$|\b(above|below|beneath) (?:the |a |an )?(.+)$/i;
/** The least the neighbour's best match must score to place by it (one word of it in a section's text: 0.45). */
const NEIGHBOUR_FLOOR = 0.45;

/** What that position is worth: as much as a word of the clause in its heading. */
const BOTTOM_BONUS = 0.6;
/** A place "just above the footer" is not the footer. */
const aboveFooter = /\b(?:above|before) the footer\b/i;

/** The least an ending clause's best section must score to end on it (a subject needs 0.65). */
const ENDING_FLOOR = 0.35;

/** How nearly a part not yet shown must answer a later beat, against one an earlier beat took, to be given it. */
const SHARED_BEAT_SHARE = 0.8;

/** The least a subject found by a word only its section uses must score (one such word in its text: 0.45). */
const LITERAL_FLOOR = 0.45;
/** A clause that asks for a form as such, and what a section that is one gains by it. */
const FORM_NAMED = /\bforms?\b/i;
const FORM_NAMED_WEIGHT = 0.5;

/**
 * Whether a content word of the clause (four letters or more, not a stop word) stands, as itself, in this section's
 * words and in no other section's but the footer's: a literal, distinctive match, which a lexicon concept that
 * points elsewhere must not outweigh. The page's own misspelling of the word ("rewrads") is the word too, at the
 * discount a misspelling counts for: the share of LITERAL_FLOOR that such a match needs, or 0 when there is none.
 */
function onlyThisSectionSays(clause: string, section: OutlineSection, fields: Map<OutlineSection, Field[]>): number {
  const spoken = [...new Set(promptWords(clause).filter((w) => !stop.has(w) && !manner.has(w)))].filter((w) => stem(w).length >= 4 && !stop.has(stem(w)));
  const has = (s: OutlineSection, word: string) => fields.get(s)!.some((f) => f.stems.has(stem(word)));
  const misspelt = (s: OutlineSection, word: string) => fields.get(s)!.some((f) => closeWordIn(word, f, false)?.how === 'misspelt');
  const others = [...fields.keys()].filter((other) => other !== section && other.kind !== 'footer');
  if (spoken.some((word) => has(section, word) && !others.some((other) => has(other, word)))) return 1;
  const onlyMisspelt = spoken.some((word) => !has(section, word) && misspelt(section, word) && !others.some((other) => has(other, word) || misspelt(other, word)));
  return onlyMisspelt ? MISSPELT_WEIGHT : 0;
}

/**
 * The examples a prompt gives of what it means ("legal trouble, like a divorce or a property dispute", "specialties
 * such as dentistry"): the content words of a list after "like", "such as", "including", up to the sentence's end or
 * a "then". A part whose own words hold one of them is what the clause is about, more surely than one that shares a
 * general word with it.
 */
function exampleStems(prompt: string): Set<string> {
  const found = new Set<string>();
  // Not the verb ("I'd like a clip of…", "we would like to see…"), nor a likeness ("what a table looks like").
  // A list after a colon gives examples as well ("the helpers for plain objects: keys, cloning").
  // Not a question after a colon ("I'd like to help: how do I send my changes?"): that is what is asked, not examples.
  for (const match of prompt.matchAll(/(?:\b(?:(?<!\b(?:i|we|you|they|would|[’']d|looks?|looked|looking|sounds?|seems?|feels?) )like|such as|including|e\.g\.|for example|for instance)\s+|:(?!\s*(?:how|what|where|which|who|when|why|can|could|do|does|is|are)\b)\s*)((?:(?!\bthen\b)[^.;!?:])*)/gi)) {
    for (const word of promptWords(match[1]!)) if (word.length >= 4 && !stop.has(word) && !manner.has(word)) found.add(stem(word));
  }
  return found;
}

/** What each example of the prompt that a part's own words hold adds to its score (at most two count). */
const EXAMPLE_WEIGHT = 0.55;

/** What a name the clause writes with a capital adds to the one part whose heading says it. */
const PROPER_NAME_WEIGHT = 0.55;

/** The words a clause writes with a capital, not its first word nor "I": names ("Wally", "TopbarPlus", "PayPal"). */
function properNames(clause: string): string[] {
  return [...clause.trim().matchAll(/(?<=\s)\p{Lu}[\p{L}\d]*\p{Ll}[\p{L}\d]*/gu)].map((match) => match[0].toLocaleLowerCase('en'));
}

/** What a button the clause names by its label adds to the section that holds it (as a word of its heading). */
const BUTTON_NAMED_WEIGHT = 0.6;

/**
 * The label a clause names a button by: quoted ("the 'find out more' button") or capitalised ("the Get Started button",
 * "the red Activate button"); null when it names none.
 */
function namedButton(clause: string): string | null {
  const match = /['"‘“]([^'"’”]{2,40})['"’”]\s+buttons?\b|(?<![.!?]\s*)\b((?:[A-Z][\w'’-]*)(?:\s+[A-Z][\w'’-]*){0,3})\s+buttons?\b/.exec(clause);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** Whether a button's label is the one named, case and spacing aside. */
function sameLabel(label: string, named: string): boolean {
  const flat = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return flat(label) === flat(named);
}

/** What each further source naming a section adds to its best one. */
const CORROBORATION = 0.1;

/**
 * The words most of a page's sections use: the page's own subject ("app" on an app's page, "kit" on a UI kit's).
 * They say what the whole page is about, not which part: a clause's match on one counts half.
 */
function commonWords(fields: Map<OutlineSection, Field[]>): Set<string> {
  const body = [...fields.entries()].filter(([section]) => section.kind !== 'footer');
  const counts = new Map<string, number>();
  for (const [, sectionFields] of body) {
    const stems = new Set(sectionFields.flatMap((f) => [...f.stems]));
    for (const s of stems) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const needed = Math.max(4, Math.ceil(body.length * 0.5));
  const common = new Set([...counts].filter(([, n]) => n >= needed).map(([s]) => s));
  for (const word of heroName(body)) common.add(word);
  return common;
}

/**
 * The name the hero gives the place ("VINCENT PIZZA."): a pizzeria's page says "pizza" of its menu, its story and its
 * reviews alike, so a clause's "pizzas" says which page, not which part. Only a name (two content words at most), not a
 * slogan ("Twelve rooms by the harbour").
 */
function heroName(body: Array<[OutlineSection, Field[]]>): string[] {
  const heading = body.find(([section]) => section.kind === 'hero')?.[1][0];
  const words = heading ? [...heading.stems].filter((word) => word.length > 2 && !stop.has(word) && !/^\d+$/.test(word)) : [];
  return words.length <= 2 ? words : [];
}

/** What a match on one of the page's common words is worth against a match on a word of one part. */
const COMMON_WORD_WEIGHT = 0.5;

/**
 * How a word of the clause meets a field, by the surest evidence there is: the word itself (its stem), a concept of
 * the lexicon both name, the page's misspelling of it, or a word of nearly the same meaning by the word vectors. The
 * last only for a word the page never says, neither as itself nor by its concept: where the words meet, they decide
 * ("policy" is in the FAQ's text; that the agenda is a near neighbour of it in the news is no reason to go there).
 */
function meet(token: string, spoken: string[], f: Field, page: PageWords): { here: number; why: string } {
  // The reason quotes the prompt's own word ("quoted"), not its stem ("quot").
  const said = spoken[0] ?? token;
  if (f.stems.has(token)) return { here: f.weight, why: `"${said}" in its ${f.what}` };
  // The one who does it: "selling the most" is the "Top Sellers", "who is speaking" the "Speakers".
  if (token.length >= 4 && f.stems.has(`${token}er`)) return { here: f.weight * CONCEPT_WEIGHT, why: `"${said}" as "${token}er" in its ${f.what}` };
  for (const concept of conceptsOfStem(token) ?? []) {
    if (f.concepts.has(concept)) return { here: f.weight * CONCEPT_WEIGHT, why: `"${said}" means ${concept}, as its ${f.what} says` };
  }
  // A heading is also met by sense when the word is only in the page's running text: "real websites built with it" is
  // the "Sites using Concrete" list, though a paragraph above says "websites". Not a word of the lexicon, whose
  // meaning its concept says ("download" is no "users").
  const bySense = !page.says(token) || (f.what === 'heading' && !conceptsOfStem(token) !== undefined && !page.headingsSay(token));
  let best = { here: 0, why: '' };
  for (const word of spoken) {
    const close = closeWordIn(word, f, bySense);
    if (close && f.weight * close.weight > best.here) {
      best = { here: f.weight * close.weight, why: close.how === 'misspelt' ? `"${word}", misspelt "${close.word}", in its ${f.what}` : `"${word}" ≈ "${close.word}" in its ${f.what}` };
    }
  }
  return best;
}

/**
 * What the page says as a whole: the words most of its sections use, whether it says a word anywhere at all, and
 * the words only one of its sections says.
 */
interface PageWords {
  common: Set<string>;
  says(token: string): boolean;
  /** Whether a heading of the page says this stem, as itself or by its concept. */
  headingsSay(token: string): boolean;
  /** Whether one section only (the footer aside) says this stem, as itself. */
  onlyOneSays(token: string): boolean;
}

function pageWords(fields: Map<OutlineSection, Field[]>): PageWords {
  const stems = new Set<string>();
  const named = new Set<string>();
  const headingStems = new Set<string>();
  const headingConcepts = new Set<string>();
  for (const list of fields.values()) {
    for (const f of list) {
      for (const s of f.stems) stems.add(s);
      for (const c of f.concepts) named.add(c);
      if (f.what !== 'heading') continue;
      for (const s of f.stems) headingStems.add(s);
      for (const c of f.concepts) headingConcepts.add(c);
    }
  }
  const sayers = new Map<string, number>();
  for (const [section, list] of fields) {
    if (section.kind === 'footer') continue;
    for (const s of new Set(list.flatMap((f) => [...f.stems]))) sayers.set(s, (sayers.get(s) ?? 0) + 1);
  }
  return {
    common: commonWords(fields),
    says: (token) => stems.has(token) || (conceptsOfStem(token) ?? []).some((concept) => named.has(concept)),
    headingsSay: (token) => headingStems.has(token) || (conceptsOfStem(token) ?? []).some((concept) => headingConcepts.has(concept)),
    onlyOneSays: (token) => sayers.get(token) === 1,
  };
}

/**
 * How much of a heading the clause names: the share of its content words that are words of the clause (word for
 * word: a concept the heading shares with the clause is counted by the match itself, and "Meet the guides" would be
 * half about getting in touch, by the meeting that "meet" stands for too). Of two headings that both name "objects", "Object Functions" is about them and "Collection
 * Functions (Arrays or Objects)" mentions them among others; an API reference's headings are lists of names as often
 * as titles.
 */
function headingFocus(clause: string, heading: Field): number {
  const own = [...heading.stems].filter((s) => s.length > 1 && !stop.has(s) && !/^\d+$/.test(s));
  if (own.length === 0) return 0;
  const tokens = new Set(promptWords(clause).filter((w) => !stop.has(w) && !manner.has(w)).map(stem));
  const named = own.filter((s) => tokens.has(s));
  return named.length / own.length;
}

/** What a heading wholly about the clause adds: enough to tell apart two that name the same word, no more. */
const HEADING_FOCUS = 0.2;

/**
 * Words that frame a question ("What can the team do…?"): one heading's "We've got what you need!" holding the same
 * word is no sign it is the part asked for.
 */
const questionWords = new Set(['what', 'who', 'why', 'when', 'whom', 'whose']);

/** What a word only one section says adds to its match (a tie-breaker, not a reason). */
const RARE_WORD_BONUS = 0.1;
/** The fields that name a section (heading 1, menu link and eyebrow 0.9, id and classes 0.8), not its text or buttons. */
const NAMING_WEIGHT = 0.8;

/** A concept of the lexicon both name is nearly as good as the word itself. */
const CONCEPT_WEIGHT = 0.85;

/** `rare`: whether a word only this section says counts a little more (not for a hero or a footer, which repeat the page's own name). */
function scoreClause(clause: string, fields: Field[], page: PageWords, rare = false): { score: number; why: string } {
  // "ending on" is as much the video's own words as "end on": stop words are checked after stemming too.
  const spokenOf = new Map<string, string[]>();
  for (const word of promptWords(clause)) {
    if (stop.has(word) || manner.has(word)) continue;
    const token = stem(word);
    if (stop.has(token)) continue;
    spokenOf.set(token, [...new Set([...(spokenOf.get(token) ?? []), word])]);
  }
  const tokens = [...new Set(promptWords(clause).filter((w) => !stop.has(w)).map(stem))].filter((w) => !stop.has(w));
  let score = 0;
  let best = { value: 0, why: '' };
  for (const token of tokens) {
    let value = 0;
    let why = '';
    let evidence = 0;
    let named = false;
    for (const f of fields) {
      const { here, why: hereWhy } = meet(token, spokenOf.get(token) ?? [], f, page);
      evidence += here;
      if (here > value) {
        value = here;
        why = hereWhy;
      }
      if (f.stems.has(token) && f.weight >= NAMING_WEIGHT) named = true;
    }
    // Corroboration: a section that its id, menu, eyebrow and text all name so is surer than one whose slogan of a
    // heading happens to hold a word of the concept ("Built for the people who…" is not the speakers).
    value += CORROBORATION * (evidence - value);
    if (page.common.has(token)) value *= COMMON_WORD_WEIGHT;
    // A word of the clause that this section alone says, as itself (not by a concept: "story" met a closing band's
    // "Start building" by the history its "start" stands for), in what names it (its heading, id,
    // menu link or eyebrow), tells it from the others a little more surely than one many say: of "Single Item" and
    // "Fractional Slides", "one slide at a time" (single slide) means the first, though each heading holds one of its
    // words, since "slide" stands all over a carousel library's page. A word of its text alone gains nothing: that would
    // lift a stray word over the floor a subject must reach.
    else if (rare && named && !questionWords.has(token) && page.onlyOneSays(token)) value *= 1 + RARE_WORD_BONUS;
    score += value;
    if (value > best.value) best = { value, why };
  }
  // Two words of the clause that the page writes as one ("the oil fields" and "Oilfield civil installation", "web
  // site" and "Website"): met word for word only, never by sense.
  const said = promptWords(clause);
  for (let i = 0; i + 1 < said.length; i++) {
    const [a, b] = [said[i]!, said[i + 1]!];
    if (a.length < 2 || b.length < 3 || stop.has(a) || stop.has(b)) continue;
    const joined = stem(`${a}${b}`);
    // Only where the part does not say the two words apart as well ("conic gradient" and "conic-gradient()" are met by
    // their words already).
    if (tokens.includes(joined) || fields.some((f) => f.stems.has(stem(a)) || f.stems.has(stem(b)))) continue;
    const value = Math.max(0, ...fields.filter((f) => f.stems.has(joined)).map((f) => f.weight));
    if (value === 0) continue;
    score += value;
    if (value > best.value) best = { value, why: `"${a} ${b}" as "${joined}" in its words` };
  }
  return { score, why: best.why };
}

/** The field of a section's peers' headings (a row of equals, a footer's columns). */
const PEERS = 'heading of a row of equals';

/** What a footer's columns are for, rather than repeat: when a place is open, where it is, how to call it. */
const FOOTER_CONTENT = ['hour', 'location', 'phone', 'address', 'email'];

/**
 * Whether a footer's heading, or one of its columns' headings, says what footers are for and the clause asks for. A
 * footer whose column titles are no headings (a `<p>` "Contact Us" over the address, phone and email) says it in its
 * text.
 */
function footerHolds(fields: Field[], clauseStems: Set<string>): boolean {
  const headings = fields.filter((field) => (field.what === 'heading' || field.what === PEERS) && field.stems.size > 0);
  const saying = headings.length > 0 ? headings : fields.filter((field) => field.what === 'text');
  return FOOTER_CONTENT.map(stem).some((word) => clauseStems.has(word) && saying.some((field) => field.stems.has(word)));
}

/** Whether a section is a form or holds one. */
function holdsForm(outline: PageOutline, section: OutlineSection): boolean {
  if (section.kind === 'form' || section.widgets?.includes('form')) return true;
  return outline.forms.some((form) => containsPoint(section.rect, centre(form.rect)));
}

/**
 * Two clauses answered by one section are one beat, unless the later names a card of it the earlier did not ("her
 * accessibility tips, then the article on PageSpeed": two posts of one list, a shot each).
 */
function sameBeat(earlier: Subject, later: Subject, prompt: string): boolean {
  if (earlier.section !== later.section) return false;
  const part = askedPart(later.section, later.clause, prompt);
  return part === null || part === askedPart(earlier.section, earlier.clause, prompt);
}

/** The sections a prompt asks for, in the order to show them; empty when it names none with some confidence. */
/** For the eval's explainers only (scripts/eval-story/flow-explain.ts): each clause's ranking of the sections, as scored. */
export const meaningTrace: { on?: (clause: string, ranked: Array<{ section: OutlineSection; score: number; why: string }>) => void } = {};

export function promptSubjects(prompt: string, outline: PageOutline): PromptSubjects {
  const sections = sectionsInOrder(outline);
  const fields = new Map(sections.map((section) => [section, sectionFields(outline, section)]));
  const page = pageWords(fields);
  const examples = exampleStems(prompt);
  const subjects: Subject[] = [];
  let endsOn: Subject | null = null;
  let endsOnAction: OutlineAction | undefined;
  const unanswered: PromptSubjects['unanswered'] = [];
  for (const rawClause of clausesOf(prompt)) {
    // "At the very bottom", "just above the footer": where the section is, which its words may not say.
    const atBottom = bottomCue.test(rawClause);
    const clause = atBottom ? rawClause.replace(bottomCue, ' ') : rawClause;
    const lastBody = sections.filter((section) => section.kind !== 'footer').at(-1);
    const placed = atBottom ? null : neighbourOf(clause, sections, fields, page);
    if (placed) {
      if (endCue.test(clause)) endsOn = placed;
      else if (!subjects.some((s) => sameBeat(s, placed, prompt))) subjects.push(placed);
      continue;
    }
    const clauseStems = new Set(promptWords(clause).map(stem));
    const buttonLabel = namedButton(clause);
    const [head, ...more] = endingParts(clause);
    // The names the clause writes with a capital, each kept for the one part (the footer aside) whose heading says it.
    const namedHere = new Map<OutlineSection, string>();
    for (const name of properNames(rawClause)) {
      const saying = sections.filter((section) => section.kind !== 'footer' && fields.get(section)![0]!.stems.has(stem(name)));
      if (saying.length === 1 && !namedHere.has(saying[0]!)) namedHere.set(saying[0]!, name);
    }
    const ranked = sections
      .map((section) => {
        const rare = section.kind !== 'hero' && section.kind !== 'footer';
        let { score, why } = scoreClause(head!, fields.get(section)!, page, rare);
        for (const part of more) score += (refersBack.test(part) ? ENDING_MORE_WEIGHT : 1) * scoreClause(part, fields.get(section)!, page, rare).score;
        score += HEADING_FOCUS * headingFocus(clause, fields.get(section)![0]!);
        const named = [...examples].filter((example) => clauseStems.has(example) && fields.get(section)!.some((f) => f.stems.has(example)));
        if (named.length > 0 && section.kind !== 'footer') {
          score += EXAMPLE_WEIGHT * Math.min(2, named.length);
          const example = promptWords(clause).find((word) => stem(word) === named[0]) ?? named[0];
          why = `"${example}", an example the prompt gives, in its words`;
        }
        // "With the Wally package manager", "deploy it to Vercel": a name the prompt writes with a capital, which only this
        // part's heading says, is what the clause is about, more surely than the general words its text shares.
        const name = namedHere.get(section);
        if (name && section.kind !== 'footer') {
          score += PROPER_NAME_WEIGHT;
          why = why ? `${why}, and "${name}" in its heading` : `"${name}" in its heading`;
        }
        // "The paragraph with the Get Started button", "next to the red Activate button": a button the clause names by its
        // own label, which this section's own button bears, says where it is as surely as a word of its heading.
        const button = buttonLabel ? actionsIn(outline, section).find((action) => sameLabel(action.label, buttonLabel)) : undefined;
        if (button) {
          score += BUTTON_NAMED_WEIGHT;
          why = why ? `${why}, and its "${button.label}" button` : `its "${button.label}" button`;
        }
        // Footers and heroes repeat every name on the page (link columns, a summary headline): weaker evidence.
        // Not a footer's own column that is what footers hold (the opening hours, the address beside them): a
        // restaurant's "Open Hours" is found there and nowhere else.
        const footerOwn = section.kind === 'footer' && footerHolds(fields.get(section)!, clauseStems);
        const discount = section.kind === 'footer' && !footerOwn ? 0.4 : section.kind === 'hero' && !/\b(hero|headline|top|banner|fold)\b/i.test(clause) ? 0.6 : 1;
        if (atBottom && section === lastBody) return { section, score: score * discount + BOTTOM_BONUS, why: why ? `${why}, and it is the last before the footer` : 'the last section before the footer' };
        // "The newsletter sign-up at the very bottom": a footer whose own heading answers the clause is the bottom of
        // the page, as much as the last part above it ("Subscribe" over a footer's links), unless the clause places it
        // above the footer.
        if (atBottom && section.kind === 'footer' && !aboveFooter.test(rawClause) && /\bheading\b/.test(why)) return { section, score: score + BOTTOM_BONUS, why: `${why}, at the very bottom` };
        return { section, score: score * discount, why };
      })
      .map((r, _, all) => {
        // "Finish at the form where I can send her a message": of a contact block and the form beside it, the form;
        // only where it is the one form among the parts that answer (a donation box's form is as much "the form").
        // An ending only: "the sign-up form demo" in the middle of a CSS kit's page is its demo, not a form beside it.
        if (r.score <= 0 || r.section.kind !== 'form' || !FORM_NAMED.test(clause) || !endCue.test(clause)) return r;
        const withForms = all.filter((other) => other.score > 0 && holdsForm(outline, other.section));
        return withForms.length === 1 ? { ...r, score: r.score + FORM_NAMED_WEIGHT, why: `${r.why}, and it is the form` } : r;
      })
      .sort((a, b) => b.score - a.score);
    meaningTrace.on?.(clause, ranked.map((r) => ({ section: r.section, score: r.score, why: r.why })));
    const ending = endCue.test(clause);
    const action = ending ? headerActionNamed(clause, outline) : null;
    if (action) {
      endsOnAction = action;
      continue;
    }
    // A video that ends on the hero went back up to where it began: only when the clause asks for the top.
    const backToTop = /\b(hero|top|headline|first screen|start)\b/i.test(clause);
    const candidates = ending && !backToTop ? ranked.filter((r) => r.section.kind !== 'hero') : ranked;
    // "Show A, then end on B": the ending asks for something else than the beats before it. When the part that
    // answers it best is one an earlier beat already took and another answers it nearly as well (two grids of the same
    // cards, "Newest Items" and "Explore Product"), it ends on the other one rather than merging with the earlier beat.
    // Only an ending: a clause in the middle ("…by train or car, map included") often elaborates the one before.
    const taken = (r: (typeof ranked)[number]) => subjects.some((s) => s.section === r.section);
    if (ending && candidates.length > 1 && taken(candidates[0]!) && !taken(candidates[1]!) && candidates[1]!.score >= candidates[0]!.score * SHARED_BEAT_SHARE) {
      candidates.splice(0, 2, candidates[1]!, candidates[0]!);
    }
    const [top, next] = candidates;
    // An ending is a hard constraint ("finish on the closing banner"): the video ends on the section that answers
    // the clause best, even when no section answers it as surely as a subject must. A word of the clause that only
    // one section's own words hold ("Chrome", "dentistry", "mortgage") is as good a reason as a concept.
    const distinctive = top ? onlyThisSectionSays(clause, top.section, fields) : 0;
    const floor = ending ? ENDING_FLOOR : distinctive > 0 ? LITERAL_FLOOR * distinctive : 0.65;
    if (!top || top.score < floor) {
      unanswered.push({ clause: rawClause, touches: ranked.filter((r) => r.score > 0).map((r) => r.section) });
      continue;
    }
    const margin = top.score - (next?.score ?? 0);
    const confidence = Math.min(0.97, 0.3 + 0.3 * Math.min(1, top.score / 1.5) + 0.4 * Math.min(1, margin / 0.8));
    const subject: Subject = { section: top.section, confidence: Math.round(confidence * 100) / 100, why: top.why, clause };
    if (ending) endsOn = subject;
    else if (!subjects.some((s) => sameBeat(s, subject, prompt))) subjects.push(subject);
  }
  const action = endsOnAction ? { endsOnAction } : {};
  if (endsOn) {
    const last = endsOn;
    return { subjects: [...subjects.filter((s) => !sameBeat(s, last, prompt)), last], endsOn: last, ...action, unanswered };
  }
  return { subjects, endsOn: null, ...action, unanswered };
}

/**
 * The section a clause places beside another ("the last one before the services grid"): the neighbour is found by its
 * own words, then the section on the asked side of it. Null when the clause has no such place, the neighbour is not
 * found surely enough, or there is nothing on that side but the footer.
 */
function neighbourOf(clause: string, sections: OutlineSection[], fields: Map<OutlineSection, Field[]>, page: PageWords): Subject | null {
  const cue = neighbourCue.exec(clause);
  if (!cue) return null;
  const side = (cue[1] ?? cue[3])!.toLowerCase();
  const named = (cue[2] ?? cue[4])!;
  const [best, next] = sections
    .map((section) => ({ section, score: scoreClause(named, fields.get(section)!, page).score }))
    .sort((a, b) => b.score - a.score);
  if (!best || best.score < NEIGHBOUR_FLOOR || best.score === next?.score || best.section.kind === 'footer') return null;
  const index = sections.indexOf(best.section) + (side === 'before' || side === 'above' ? -1 : 1);
  const section = sections[index];
  if (!section || section.kind === 'footer') return null;
  const where = side === 'before' || side === 'above' ? 'just above' : 'just below';
  return { section, confidence: 0.8, why: `${where} "${sectionName(best.section)}", as the prompt places it`, clause };
}

/** Words a button's label needs no match for ("Book your stay", "Start your free trial now"). */
const labelFiller = new Set(['a', 'an', 'the', 'your', 'our', 'my', 'you', 'us', 'to', 'for', 'of', 'and', 'now', 'today', 'here']);

/**
 * A call to action in a header that stays on screen (so ending on it needs no scroll back up) whose label's words,
 * at least two, all appear in the ending clause; unless a section's heading holds them all too, as a closing band's
 * "Start your free trial today" does, which is then the better ending.
 */
function headerActionNamed(clause: string, outline: PageOutline): OutlineAction | null {
  const clauseStems = new Set(words(clause).map(stem));
  const labelStems = (text: string) => words(text).filter((word) => !labelFiller.has(word)).map(stem);
  for (const action of outline.actions) {
    if (action.kind !== 'cta' || !isFixed(outline, action.rect)) continue;
    const needed = labelStems(action.label);
    if (needed.length < 2 || !needed.every((word) => clauseStems.has(word))) continue;
    const inHeading = outline.sections.some((section) => {
      const heading = new Set(labelStems(section.heading ?? ''));
      return needed.every((word) => heading.has(word));
    });
    // A closing band down the page that offers the same action ("Have a project…?" over its own "Start a project")
    // is the invitation the clause means, with its words around it; the hero's copy of it would mean going back up.
    const offeredBelow = outline.actions.some((other) => {
      if (other === action || isFixed(outline, other.rect)) return false;
      const section = sectionAt(outline, other.rect);
      if (!section || section.kind === 'hero' || section.kind === 'footer') return false;
      const label = new Set(labelStems(other.label));
      return needed.every((word) => label.has(word));
    });
    if (!inHeading && !offeredBelow) return action;
  }
  return null;
}

/** One line for `autoSelection.signals`. */
export function describeSubject(subject: Subject): string {
  return `"${subject.clause.slice(0, 60)}" → "${sectionName(subject.section)}" (${subject.why}; confidence ${subject.confidence})`;
}
