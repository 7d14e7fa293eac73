import type { LinkedPage, OutlineAction, OutlineSection, PageOutline } from '../types.js';
import { exitLinks, type FlowExit, heldHere, placesInOrder, remainderFrom, unansweredHere } from './flow-exit.js';
import { beatsOf } from './not-found.js';
import { stop } from './lexicon.js';
import { conceptsOfStem, promptWords, stem } from './prompt-words.js';
import { promptSubjects } from './section-meaning.js';

/**
 * Issue 56: the page behind a menu link that answers a beat this page does not. "Who started this place? Tell me the
 * story of the cafe" on a café's home page whose menu says Home, About, Products, Store: no link says "story", the
 * About page's "About Our Cafe" does. The parts of the linked pages (linked-pages.ts) compete with this page's own
 * sections in one outline, scored by the same meaning as a one-page demo's beats; the beat goes to another page only
 * when one of that page's parts wins over them, surely.
 */
/**
 * Where a prompt leaves the page when no link names what it asks for, but the page behind one holds it. Asked after
 * the page's own forms and app actions (plan-leg.ts): a prompt that types into this page stays here. The beats before
 * it that this page answers are shown here first; a question just before it that this page has no answer for goes
 * along to be asked there.
 */
export function answerElsewhere(prompt: string, outline: PageOutline, sameSite: (url: string) => boolean, linked: LinkedPage[]): FlowExit | null {
  if (linked.length === 0) return null;
  prompt = placesInOrder(prompt);
  const links = exitLinks(outline, sameSite);
  if (links.length === 0) return null;
  const beats = beatsOf(prompt);
  for (const [index, beat] of beats.entries()) {
    // "…, the striped ones too" speaks of the beat before, and "…, the design and the price" lists what it shows; a
    // contact form this page holds answers "send him a message".
    if ((index > 0 && (REFERS_BACK.test(beat.text) || LIST_ITEM.test(beat.text))) || heldHere(beat.text, outline)) continue;
    const answer = linkedAnswer(beat.text, outline, linked);
    const link = answer ? linkTo(answer.page, links) : null;
    if (!link) continue;
    // A flow never comes back: a later beat this page answers ("…, then end on how to reach them by email") says the
    // prompt is about this page, and the beat before it is one of its parts that went unrecognised. Not a later beat
    // that only asks more of the same thing ("I keep seeing the term controlled vocabulary. Where is it explained?",
    // "I want to 3D print a stand… Any advice on printing it?"): it goes along, to be asked there.
    if (beats.slice(index + 1).some((later) => !asksMoreOfIt(later.text, beat.text) && !unansweredHere(later.text, outline))) continue;
    let at = index;
    while (at > 0 && unansweredHere(beats[at - 1]!.text, outline)) at--;
    const before = beats.slice(0, at).map((b) => b.text).join(', then ');
    return { before, after: remainderFrom(prompt, beats[at]!.text), link, purpose: 'page' };
  }
  return null;
}

const REFERS_BACK = /\b(?:ones?|them|those|these|too|also|as well)\b/i;

/**
 * A beat that speaks of an earlier one by a pronoun and asks one word more at most ("Where is it explained?"), or
 * says again a word of it ("…print a stand. Any advice on printing it?"); not "how to reach them by email".
 */
function asksMoreOfIt(beat: string, earlier: string): boolean {
  if (!/\b(?:it|they|them)\b/i.test(beat)) return false;
  const asked = askedWords(beat);
  const before = new Set(askedWords(earlier));
  return asked.length <= 1 || asked.some((word) => before.has(word));
}

/** A bare item of a list the beat before began: "the price", "its colours". */
const LIST_ITEM = /^\s*(?:and\s+)?(?:the|its|their|his|her|our|your)(?:\s+[\p{L}\d'’-]+){1,2}\s*[.!?]?\s*$/iu;

export interface LinkedAnswer {
  page: LinkedPage;
  /** the heading of the part that answers the beat there */
  heading: string;
}

/** How sure the part on the other page must be: a single shared common word does not send a demo away. */
const SURE_THERE = 0.7;
/** "…, like the desk and the laptop", "such as …", "for example …": to the end of the beat. */
const EXAMPLES = /[,;]?\s*\b(?:like|such as|for example|for instance|e\.g\.)\s+.*$/i;
/** A part of another page this sure, and this much surer than any part here, answers the beat whatever its heading says. */
const FAR_SURER = 0.95;
const FAR_MARGIN = 0.2;
/** How many of the beat's words a heading there must say to name its thing in full (a product's "White Modern Chair"). */
const NAMED_IN_FULL = 3;
/** Where the linked pages' parts are put in the joined outline: below this page, each in a place of its own. */
const PART_HEIGHT = 1_000;

export function linkedAnswer(beat: string, outline: PageOutline, linked: LinkedPage[]): LinkedAnswer | null {
  if (linked.length === 0) return null;
  const here = promptSubjects(beat, outline);
  const hereBest = Math.max(0, ...[...here.subjects, ...(here.endsOn ? [here.endsOn] : [])].map((subject) => subject.confidence));
  if (here.endsOnAction) return null;
  const owner = new Map<OutlineSection, { page: LinkedPage; heading: string; minor: boolean }>();
  const sections: OutlineSection[] = [...outline.sections];
  let y = outline.documentHeight;
  for (const { page, part } of distinctParts(outline, linked)) {
    {
      const section: OutlineSection = {
        id: `linked-${owner.size}`,
        kind: part.footer ? 'footer' : 'content',
        heading: part.heading,
        // The link that leads there names the page, as a menu names a section of its own page.
        kicker: page.label,
        text: part.text.slice(0, 200),
        body: part.text,
        label: part.heading,
        selector: '',
        fallbackSelectors: [],
        rect: { x: 0, y, width: outline.viewport.width, height: PART_HEIGHT },
      };
      y += PART_HEIGHT;
      owner.set(section, { page, heading: part.heading, minor: part.minor === true });
      sections.push(section);
    }
  }
  const joined: PageOutline = { ...outline, sections, documentHeight: y };
  const there = promptSubjects(beat, joined);
  const winner = [...there.subjects, ...(there.endsOn ? [there.endsOn] : [])].sort((a, b) => b.confidence - a.confidence)[0];
  const full = namedInFull(beat, outline, [...owner.values()]);
  if (full) return { page: full.page, heading: full.heading };
  const found = winner ? owner.get(winner.section) : undefined;
  if (!winner || !found) return null;
  // One item of a list the beat gives ("…with the filter for women, men, bags and shoes": "men") is no reason to leave:
  // a blog post elsewhere headed "Men's Gifts" does not answer a shop's catalogue.
  const clauses = new Set([...there.subjects, ...(there.endsOn ? [there.endsOn] : [])].map((subject) => subject.clause));
  if (clauses.size > 1 && promptWords(winner.clause).filter((word) => !stop.has(word)).length < 2) return null;
  // A part of another page must win, surely, read with this page's parts in one outline ("the paragraph with the Get
  // Started button" on a page whose menu links a kit's "Buttons" page is this page's, where that part wins by 0.64).
  // The examples a beat gives ("…, like the desk and the laptop") illustrate what it asks for, they are not it: the
  // laptop's own page elsewhere does not answer "which goods draw the most attention" (tf-classimax).
  const asked = askedWords(beat);
  if (winner.confidence < SURE_THERE) return null;
  if (hereBest === 0) return { page: found.page, heading: found.heading };
  const headingsHere = new Set(outline.sections.flatMap((section) => wordsOf(titleOf(section))));
  // Or the part there answers far better than anything here, and no heading here names what the beat asks for: "where
  // can I download my old invoices, like the one from March 2022?" is a wallet page's "Billing history" (an h6 whose
  // rows are the invoices, 0.97), not the dashboard's "Balances over time" (0.76). A docs home whose "Browser Support"
  // names "which web browsers does it work in?" keeps it, however sure a showcase card elsewhere reads.
  const namedHere = asked.some((word) => headingsHere.has(word));
  if (!namedHere && winner.confidence >= FAR_SURER && winner.confidence - hereBest >= FAR_MARGIN) return { page: found.page, heading: found.heading };
  // A card or a grid item's small heading (an h5, an h6) wins only where no heading here names what the beat asks: a
  // showcase card that says "a productive web framework" is no answer to "which web browsers does it work in?" on a
  // docs home whose "Browser Support" says it. A dashboard whose every title is an h6 ("Invoices" on its billing page)
  // is not kept home by a money card that only means what the beat asks.
  if (found.minor && namedHere) return null;
  // Where something here answers too, the other page's part must also name in its heading a word of the beat that no
  // heading here says: "is there a discount if I book every week?" is the pricing page's "Do you offer recurring
  // service discounts?", not the home page's quote form that only means pricing; "do you clean offices?" the services
  // page's "Commercial & Office Cleaning", not a home page whose every heading says "clean". A blog post elsewhere that
  // names the design and the price is no reason to leave a landing page whose features say them.
  // A concept the beat's own phrases named ("how many" is stats) is said by its words ("Total Number Of Transactions").
  const saidThere = new Set(namesIn(found.heading));
  const namedHereToo = new Set(outline.sections.flatMap((section) => namesIn(titleOf(section))));
  return asked.some((word) => saidThere.has(word) && !namedHereToo.has(word)) ? { page: found.page, heading: found.heading } : null;
}

/**
 * A thing named in full on another page, of which every heading here says only a part ("how much is the white modern
 * chair": its own page's "White Modern Chair", the home page's card "Modern Chair"): the part there that says the most
 * of the beat's words, three at least, when no heading here says them all. A product page's own name may be a small
 * heading (an h6), a card's of one word or two still leads nowhere ("a productive web framework" for "web browsers").
 */
function namedInFull(beat: string, outline: PageOutline, parts: Array<{ page: LinkedPage; heading: string }>) {
  const asked = new Set(askedWords(beat));
  const said = (heading: string) => [...new Set(wordsOf(heading))].filter((word) => asked.has(word));
  const best = parts.map((part) => ({ part, words: said(part.heading) })).sort((a, b) => b.words.length - a.words.length)[0];
  if (!best || best.words.length < NAMED_IN_FULL) return null;
  const here = outline.sections.some((section) => best.words.every((word) => wordsOf(titleOf(section)).includes(word)));
  return here ? null : best.part;
}

/** The words a beat asks for, stemmed, without the examples it gives. */
const askedWords = (beat: string) => promptWords(beat.replace(EXAMPLES, ' ')).filter((word) => !stop.has(word)).map(stem).filter((word) => !stop.has(word) && word.length > 2);

/** A text's words, stemmed as the prompt's are. */
const wordsOf = (text: string) => (text.toLocaleLowerCase('en').match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);

/** What names a part here: its heading and the eyebrow over it. */
const titleOf = (section: OutlineSection) => `${section.heading ?? ''} ${section.kicker ?? ''}`;

/** A heading's words and the lexicon's concepts they belong to. */
const namesIn = (text: string) => wordsOf(text).flatMap((word) => [word, ...(conceptsOfStem(word) ?? []).map(stem)]);

const flat = (text: string) => text.toLocaleLowerCase('en').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * The linked pages' parts, each once. A part every page repeats (the site's name over each page, a shared "About Our
 * Cafe" block) belongs to none of them: one this page shows too is dropped, and one several linked pages show is
 * kept on the page whose link names it ("About" for "About Our Cafe"), else on the first.
 */
function distinctParts(outline: PageOutline, linked: LinkedPage[]): Array<{ page: LinkedPage; part: LinkedPage['parts'][number] }> {
  const hereHeadings = new Set(outline.sections.map((section) => flat(section.heading ?? '')).filter(Boolean));
  const byHeading = new Map<string, Array<{ page: LinkedPage; part: LinkedPage['parts'][number] }>>();
  for (const page of linked) {
    for (const part of page.parts) {
      const key = flat(part.heading);
      if (!key || hereHeadings.has(key)) continue;
      const same = byHeading.get(key) ?? [];
      if (!same.some((entry) => entry.page === page)) same.push({ page, part });
      byHeading.set(key, same);
    }
  }
  return [...byHeading.entries()].map(([key, same]) => {
    const words = new Set(key.split(' '));
    return same.find(({ page }) => flat(page.label).split(' ').every((word) => word && words.has(word))) ?? same[0]!;
  });
}

/** The link that leads to a linked page: the one it was read from. */
function linkTo(page: LinkedPage, links: OutlineAction[]): OutlineAction | null {
  return links.find((link) => link.href === page.href) ?? null;
}
