import type { OutlineSection } from '../types.js';
import { manner, stop } from './lexicon.js';
import { conceptsOfStem, promptWords, stem, words } from './prompt-words.js';
import type { Field } from './section-fields.js';
import { closeWordIn } from './word-meaning.js';

/**
 * How well one clause of a prompt meets one section's fields (section-fields.ts): word by word, a word of the clause
 * in a field, a concept of the lexicon both name, the page's misspelling of it or a word of nearly its sense, each
 * weighted by the field and by how common the word is on the page. section-meaning.ts ranks the sections by it.
 */

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
export interface PageWords {
  common: Set<string>;
  says(token: string): boolean;
  /** Whether a heading of the page says this stem, as itself or by its concept. */
  headingsSay(token: string): boolean;
  /** Whether one section only (the footer aside) says this stem, as itself. */
  onlyOneSays(token: string): boolean;
}

export function pageWords(fields: Map<OutlineSection, Field[]>): PageWords {
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
export function headingFocus(clause: string, heading: Field): number {
  const own = [...heading.stems].filter((s) => s.length > 1 && !stop.has(s) && !/^\d+$/.test(s));
  if (own.length === 0) return 0;
  const tokens = new Set(promptWords(clause).filter((w) => !stop.has(w) && !manner.has(w)).map(stem));
  const named = own.filter((s) => tokens.has(s));
  return named.length / own.length;
}

/** What a heading wholly about the clause adds: enough to tell apart two that name the same word, no more. */
export const HEADING_FOCUS = 0.2;

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
export function scoreClause(clause: string, fields: Field[], page: PageWords, rare = false): { score: number; why: string } {
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
