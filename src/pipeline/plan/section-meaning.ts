import type { OutlineAction, OutlineSection, PageOutline } from '../types.js';
import { manner, stop } from './lexicon.js';
import { actionsIn, centre, containsPoint, isFixed, sectionAt, sectionName, sectionsInOrder } from './outline-query.js';
import { askedPart } from './section-parts.js';
import { HEADING_FOCUS, headingFocus, pageWords, scoreClause, type PageWords } from './clause-score.js';
import { PEERS, sectionFields, type Field } from './section-fields.js';
import { clausesOf, endCue, endingParts } from './prompt-clauses.js';
import { promptWords, stem, words } from './prompt-words.js';
import { closeWordIn, MISSPELT_WEIGHT } from './word-meaning.js';

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
 * What a section is known by is section-fields.ts; how a clause meets it, clause-score.ts; here, the ranking, the cues
 * of a prompt (an ending, a place near the bottom, a neighbour) and the order of the visit.
 */

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
