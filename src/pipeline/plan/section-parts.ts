import type { OutlineSection, PageOutline, Target } from '../types.js';
import { concepts, pagePhrases, stop } from './lexicon.js';
import { conceptNamed, conceptsOfStem, promptWords, promptWordsWithPhrases, stem } from './prompt-words.js';
import { closeWordIn, fieldWords } from './word-meaning.js';

export type SectionPart = NonNullable<OutlineSection['parts']>[number];

/**
 * Issue 55: the part of a tall section a beat names ("can they sort out a car battery that keeps going flat?" →
 * the "BATTERY REPAIR" card of "Our services"; "follow where my shipment is" → "Tracking made easy"): the section
 * answers the beat, and the card inside it is what the viewer should read. A part is named when the clause's words
 * that the section's own heading does not say meet its heading word for word or as the page's misspelling, and its heading and text hold them clearly more than any other part's do. Null when
 * none is, when several headings are named (the clause asks for the section), or the section has fewer than two
 * parts (one part is the section).
 */
export function askedPart(section: OutlineSection, clause: string, prompt: string = clause): SectionPart | null {
  const parts = section.parts ?? [];
  if (parts.length < 2) return null;
  const own = new Set(textWords(`${section.heading ?? ''} ${section.kicker ?? ''}`).map(stem));
  const content = (text: string) => [...new Set(promptWordsWithPhrases(text))].filter((word) => !stop.has(word) && !GENERIC.has(word) && word.length > 2 && !own.has(stem(word)));
  const asked = content(clause);
  const phrased = phrasedConcepts(clause);
  if (asked.length === 0) return null;
  // A section whose own heading answers the clause ("Speakers" for who is presenting, "Latest Articles" for articles
  // to read) is what was asked for, whatever one card of it also says; a card is named inside a section headed by
  // something general ("We Provide Great Services", "Has a wide range of solutions").
  // Unless the clause also names one card by its heading, word for word, beyond what the section's heading answers:
  // "start with the calculator project" in "My Work" is the "Calculator" card, not the first of the projects. The
  // words must make most of that heading (a "Presenting" in "14h00 Presenting iPad" names a session, not the card
  // "who's presenting" asks for), and not be an example of what the clause asks for ("projects for names like
  // Amazon" are the projects).
  const headingConcepts = new Set([...own].flatMap((word) => conceptsOfStem(word) ?? []));
  const answeredBySection = (word: string) => own.has(stem(word)) || [...conceptsOf(word)].some((c) => headingConcepts.has(c));
  // "A deep clean compared with the basic one": two parts set side by side, so the section.
  if (COMPARES.test(prompt)) return null;
  if (promptWords(clause).some(answeredBySection)) {
    const beyond = content(clause.split(EXAMPLES)[0]!).filter((word) => !answeredBySection(word));
    const named = parts.filter((part) => namesMostOf(beyond, part));
    if (named.length === 0) return null;
    // Of posts that share words ("Node", "Express"), the one whose title holds more of the clause's is the one meant.
    if (named.length > 1) {
      const most = clearlyMost(beyond, named);
      return most && !LISTS.test(prompt) && !SPANS.test(clause) ? most : null;
    }
  }
  // A prompt that names several parts by their headings ("components, writing and layouts"; "by sea, by air or by
  // train", split into clauses) asks for the section.
  if (LISTS.test(prompt) || SPANS.test(clause)) return null;
  const ranked = parts.map((part) => ({ part, ...partScore(asked, part, phrased) })).sort((a, b) => b.score - a.score);
  // Unless this clause names one of them clearly more than any other ("her accessibility tips for developers", then
  // "the article on measuring performance with PageSpeed": a card each, in a list of posts that share words).
  const all = content(prompt);
  const clear = ranked[0] && ranked[0].heading >= IN_HEADING * 2 && ranked[0].heading - (ranked[1]?.heading ?? 0) >= IN_HEADING;
  // Nor a beat of a story told in order ("open with how I add it, then end on the download button") whose own words
  // name one card: the other beat's card is the other shot, not a list.
  const ownCard = SEQUENCE.test(prompt) && ranked.filter((entry) => entry.heading >= IN_HEADING * 0.5).length === 1;
  const phrasedInPrompt = phrasedConcepts(prompt);
  if (!clear && !ownCard && parts.filter((part) => partScore(all, part, phrasedInPrompt).heading >= IN_HEADING * 0.5).length > 1) return null;
  const [top, next] = ranked;
  // Named by its heading: words only in a card's text are too weak to take the shot off the section's heading.
  if (!top || top.heading < MIN_HEADING || (!clear && top.score < (next?.score ?? 0) * CLEAR_LEAD)) return null;
  // A heading a level down in a flat run of text ("Don't disable the prefers-reduced-motion media query" under "Best
  // Practices") is a line of the section more than a card of it: named when the clause says most of it.
  if (top.part.flat && !namesMostOf(asked, top.part)) return null;
  return top.part;
}

/** Where a clause starts giving examples of what it asks for. */
const EXAMPLES = /\b(?:like|such as|including|e\.g\.|for example|for instance)\b/i;

/** The words name the part's heading word for word: at least half of its words, or two of them. */
function namesMostOf(words: string[], part: SectionPart): boolean {
  const heading = textWords(part.heading);
  if (heading.length === 0) return false;
  const count = headingWordsNamed(words, part);
  // Or two of a long title's words ("pose estimation" of "Volarant Aimbot by yolov8 pose estimation"): one word may
  // be chance, two of the same title are not.
  return count * 2 >= heading.length || count >= 2;
}

/** How many words of the part's heading the words say; "node" says "NodeJS" (a name with its suffix). */
function headingWordsNamed(words: string[], part: SectionPart): number {
  const named = new Set(words.map(stem));
  const heading = textWords(part.heading);
  // A phrase of the page that the words say names the whole heading ("reviewers" says "Program Committee").
  if (phrasedOnPage(part.heading).some((word) => named.has(stem(word)))) return heading.length;
  return heading.filter((word) => named.has(stem(word)) || [...named].some((n) => nameWithSuffix(word, n))).length;
}

/** "nodejs" is "node", "postgresql" "postgres": a name with the suffix a technology's name often carries. */
function nameWithSuffix(word: string, name: string): boolean {
  return name.length >= 4 && word.length > name.length && word.startsWith(name) && /^(?:js|ts|db|ql)$/.test(word.slice(name.length));
}

/** The named part that holds more of the words in its heading than each other one does, if one does. */
function clearlyMost(words: string[], named: SectionPart[]): SectionPart | null {
  const counted = named.map((part) => ({ part, count: headingWordsNamed(words, part) })).sort((a, b) => b.count - a.count);
  return counted.length > 1 && counted[0]!.count > counted[1]!.count ? counted[0]!.part : null;
}

/** A list of three ("by sea, by air or by train", "keys, cloning and …"): the prompt asks what the section holds. */
const LISTS = /\b[\w'-]+(?: [\w'-]+){0,3}, (?:[\w'-]+ ){0,3}[\w'-]+,? (?:and|or) /i;

/** Beats told in order: "…, then …", "end on …", "finish with …". */
const SEQUENCE = /\b(?:then|afterwards|after that|finally|end(?:ing)? (?:on|with)|finish(?:ing)? (?:on|with)|close (?:on|with))\b/i;

/** A comparison of things, which the section shows side by side. */
const COMPARES = /\bcompar(?:e|ed|ing) (?:with|to|against)\b|\bversus\b|\bvs\.?(?=\s)|\bdifferences? between\b/i;

/** A span ("from its early days to the latest expansion"): the parts between its ends, so the section. */
const SPANS = /\bfrom\b.+\b(?:to|until|through)\b/i;

/** A word of the part's heading; of its text only. */
const IN_HEADING = 2;
const IN_TEXT = 1;
/** At least its misspelling (0.8 of a word) in its heading. */
const MIN_HEADING = 1;
/** Ahead of the next part by this factor: cards that all say "repair" name none of them. */
const CLEAR_LEAD = 1.5;

/** What the part's heading and text hold of the clause; `heading` counts what its heading alone does. */
function partScore(asked: string[], part: SectionPart, phrasedConcepts: Set<string>): { score: number; heading: number } {
  const headingWords = textWords(part.heading);
  const heading = stemsOf(headingWords);
  // What the page's phrases name ("Program Committee" is the reviewers): said, the phrase names the whole heading,
  // as its every word would (see headingWordsNamed).
  const phrased = stemsOf(phrasedOnPage(part.heading));
  const text = stemsOf(textWords(part.text));
  const field = fieldWords(headingWords);
  // A heading that is a concept's own name ("Awards", "Education"), as a résumé's side column has them: any word of
  // that concept names it ("any prizes he has won"). Not a heading of other words of it ("Help & Support" is no FAQ).
  const named = headingWords.length === 1 ? conceptNamed(headingWords[0]!) : null;
  let score = 0;
  let inHeading = 0;
  for (const word of asked) {
    // Word for word (a concept the prompt's phrases named counts as its word: "follow where my parcel is" says
    // "tracking"), or the page's misspelling of it. Not a concept's other words, nor a word of like meaning: those
    // took "the questions people usually ask" from its FAQ's heading to a "Help & Support" card beside it.
    const s = stem(word);
    let near: number;
    if (phrased.has(s)) near = Math.min(3, Math.max(1, headingWords.length));
    else if (heading.has(s) || headingWords.some((other) => nameWithSuffix(other, s))) near = 1;
    else if ((phrasedConcepts.has(word) && namedConcept(word, heading)) || (named !== null && conceptsOf(word).includes(named))) near = PHRASE_CONCEPT;
    else near = closeWordIn(word, field, false)?.weight ?? 0;
    if (near > 0) inHeading += IN_HEADING * near;
    else if (text.has(s)) score += IN_TEXT;
  }
  return { score: score + inHeading, heading: inHeading };
}

/**
 * A concept the prompt's phrases named ("how I add it to my site" is setup) is said by its own words in a heading
 * ("Install"): the phrase already chose the meaning, so its list is not a guess at a like word.
 */
function namedConcept(word: string, heading: Set<string>): boolean {
  return word in concepts && [...heading].some((other) => conceptsOfStem(other)?.includes(word));
}

/** The concepts a clause's phrases named that are none of its own words ("setup" for "how I add it to my site"). */
function phrasedConcepts(clause: string): Set<string> {
  const literal = new Set(textWords(clause));
  return new Set(promptWordsWithPhrases(clause).filter((word) => word in concepts && !literal.has(word)));
}

/** A concept's own word in the heading, a little less than the prompt's word itself. */
const PHRASE_CONCEPT = 0.9;

/**
 * Words of a question that name nothing a card is about ("which subjects does it cover, things like …"): matched
 * in a card's text they moved the shot off its section's heading onto an unrelated card.
 */
const GENERIC = new Set([
  'does', 'did', 'done', 'doing', 'have', 'has', 'had', 'can', 'could', 'will', 'would', 'should', 'get', 'got', 'make', 'made', 'any', 'some',
  'what', 'which', 'who', 'whom', 'where', 'when', 'why', 'much', 'many', 'more', 'most', 'other', 'others', 'one', 'ones', 'thing', 'things',
  'like', 'kind', 'kinds', 'sort', 'sorts', 'type', 'types', 'way', 'ways', 'subject', 'subjects', 'topic', 'topics', 'cover', 'covers', 'there',
  'here', 'they', 'them', 'he', 'she', 'his', 'her', 'also', 'just', 'only', 'all', 'every', 'each', 'able', 'really', 'actually', 'keep', 'keeps',
  'going', 'go', 'goes', 'while', 'still', 'ever', 'sure', 'tell', 'know', 'look', 'looks', 'use', 'using', 'used',
]);


/** The concepts a prompt word stands for: its own name when the prompt's phrases made it one ("tracking"), or its stem's. */
function conceptsOf(word: string): string[] {
  return [...(word in concepts ? [word] : []), ...(conceptsOfStem(stem(word)) ?? [])];
}

/** The words the page's phrases say a text stands for. */
function phrasedOnPage(text: string): string[] {
  return pagePhrases.flatMap(([pattern, said]) => (new RegExp(pattern.source, pattern.flags).test(text) ? said.split(' ') : []));
}

function stemsOf(words: string[]): Set<string> {
  return new Set(words.map(stem));
}

function textWords(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^a-z0-9]+/).filter((word) => word.length > 1 && !stop.has(word));
}

/** The part's heading as a target the cursor can rest on (its box, the part's words as its label). */
export function partTarget(part: SectionPart): Target {
  return { label: part.heading, selector: part.selector, fallbackSelectors: part.fallbackSelectors, rect: part.headingRect };
}

/**
 * Where to scroll for a part: the section's heading and the part's whole box together when they fit on the screen
 * below the sticky header; else the part's box from just below the header, or, with `keepHeading`, nowhere (null).
 */
export function scrollYForPart(outline: PageOutline, section: OutlineSection, part: SectionPart, sectionY: number, keepHeading = false): number | null {
  const band = outline.viewport.height - outline.stickyHeaderHeight;
  const partBottom = part.rect.y + Math.min(part.rect.height, band - 2 * PART_MARGIN);
  const visibleAt = (y: number) => part.headingRect.y >= y + outline.stickyHeaderHeight && partBottom <= y + outline.viewport.height - PART_MARGIN;
  if (visibleAt(sectionY)) return sectionY;
  const top = section.headingRect?.y ?? section.rect.y;
  // Both: as little below the section's top as the part needs, the heading well clear of the header (a header
  // that appears or grows once the page scrolls is not in stickyHeaderHeight: eduhome's covered a heading 68 px down).
  const headingRoom = Math.max(PART_MARGIN, outline.viewport.height * 0.125);
  if (partBottom - top + headingRoom + PART_MARGIN <= band) return Math.max(0, Math.min(top - outline.stickyHeaderHeight - headingRoom, Math.max(sectionY, partBottom + PART_MARGIN - outline.viewport.height)));
  // The last beat keeps its section's heading (what the video ends on): no part that cannot be shown with it. Unless
  // the part is a heading of its own in a flat run of text ("Program Committee" a screen under "Organization"): that
  // heading is what the beat asked for, and the section's is only the run's.
  if (keepHeading && !part.flat) return null;
  return Math.max(0, part.rect.y - outline.stickyHeaderHeight - PART_MARGIN);
}

const PART_MARGIN = 48;
