import type { DemoPlan, NotFound, PageOutline, PlanStep, RecordingLogEntry } from '../types.js';
import { manner, stop } from './lexicon.js';
import { mainSection } from './main-section.js';
import { clip, sectionName } from './outline-query.js';
import { clausesOf } from './prompt-clauses.js';
import { promptWords, stem } from './prompt-words.js';
import { type PromptSubjects } from './section-meaning.js';

/**
 * Issue 55: a beat of the prompt that no part of the page answers is reported, not replaced silently. Which
 * unanswered clauses count (the ones that ask for something), how they are quoted, and the sentence the demo's
 * `warnings` carry.
 */

/**
 * Words of a prompt that say how to make the video or which words a request is made of, not what to show: with the
 * lexicon's stop and manner words, a clause made only of these ("walk me through it", "give a quick tour", "keep it
 * short", "in 10 seconds") asks for nothing in particular, so no part of the page can be missing for it.
 */
const direction = new Set([
  'like', 'keep', 'feel', 'feeling', 'look', 'glance', 'briefly', 'second', 'sec', 'minute', 'go', 'move', 'pan', 'zoom',
  'showcase', 'present', 'introduce', 'tell', 'explain', 'what', 'which', 'who', 'why', 'when', 'way', 'thing', 'stuff',
  'everything', 'something', 'anything', 'whole', 'entire', 'full', 'around', 'top', 'bottom', 'page', 'here', 'now', 'too',
  'very', 'really', 'more', 'most', 'much', 'bit', 'lot', 'nice', 'good', 'great', 'well', 'i', 'd', 'll', 've', 're', 's',
  // How long and in what tone: "keep it under 10 seconds", "make it feel premium and friendly".
  'under', 'less', 'than', 'long', 'length', 'pace', 'tone', 'style', 'vibe', 'mood', 'premium', 'modern', 'friendly', 'warm',
  'bold', 'fresh', 'energetic', 'exciting', 'engaging', 'simple', 'corporate', 'casual', 'upbeat', 'luxurious', 'classy',
]);

/** The stems of a clause that name what to show. */
function askedStems(clause: string): string[] {
  return promptWords(clause)
    .filter((word) => !/^\d+$/.test(word) && !stop.has(word) && !manner.has(word) && !direction.has(word))
    .map(stem)
    .filter((word) => !stop.has(word) && !manner.has(word) && !direction.has(word));
}

/** Whether a clause asks for something of the page: it has a word beyond the request's own ("show me", "then"). */
export function asksForSomething(clause: string): boolean {
  return askedStems(clause).length > 0;
}

/** The words that lead a request ("Show me", "then end on", "I'd like to see") and are not what it asks for. */
const leading = new Set([
  'and', 'then', 'also', 'next', 'after', 'that', 'finally', 'lastly', 'please', 'show', 'showing', 'shows', 'highlight',
  'highlighting', 'feature', 'featuring', 'focus', 'focusing', 'zoom', 'in', 'on', 'onto', 'scroll', 'scrolling', 'down', 'to',
  'go', 'move', 'pan', 'walk', 'walking', 'through', 'take', 'taking', 'me', 'us', 'them', 'viewers', 'give', 'let', "let's",
  'see', 'i', "i'd", 'we', "we'd", 'would', 'like', 'want', 'end', 'ending', 'ends', 'finish', 'finishing', 'close', 'closing',
  'wrap', 'up', 'land', 'landing', 'conclude', 'stop', 'open', 'opening', 'start', 'starting', 'with', 'at', 'by', 'quick',
  'look', 'glance', 'brief', 'briefly', 'a', 'an', 'need', 'make', 'video', 'clip', 'demo', 'of', 'about', 'off',
]);

/** The clause as a user would recognise it in a sentence: "Then end on the roadmap" → "the roadmap". */
export function quoteClause(clause: string): string {
  const tokens = clause.replace(/[“”"]/g, '').trim().split(/\s+/);
  let start = 0;
  while (start < tokens.length - 1 && leading.has(tokens[start]!.toLowerCase().replace(/[’]/g, "'").replace(/[^a-z']/g, ''))) start++;
  return clip(tokens.slice(start).join(' ').replace(/[,:;]+$/, ''), 60);
}

/** How a clause that starts a beat of its own begins: an article or a question of its own, or a request. */
const beatStart = /^(?:the|our|your|how|where|who|what|why|when|which|show|highlight|feature|focus|open|start|scroll|go|walk|take|give|zoom|pan|move|introduce|present|explain|display)\b/i;
/** A clause that opens a list or a description: what follows it, joined by "and" or a comma, is more of the same. */
const listOpens = /\b(?:with|where|like|such as|including|about)\b|:/i;

export interface Beat {
  /** As the prompt words it. */
  text: string;
  /** Its clauses, as the section meaning splits them (clausesOf). */
  clauses: string[];
}

/**
 * The beats of a prompt: its sentences, split at "then" and before an ending ("…and finish on the form"), then at
 * "and" or a comma where what follows is a request of its own ("the roadmap and the pricing", "the team and how to
 * reach them"). What follows a list or a description is part of it, and so is a bare word or phrase: "the logo row
 * with Adobe, eBay and Airbnb", "the form where they leave a name, email and a note", "the people and their roles",
 * "weak spots and caveats". The section meaning splits them all to score; a beat is missing when none of its clauses
 * is found.
 */
export function beatsOf(prompt: string): Beat[] {
  const beats: Beat[] = [];
  const parts = prompt.split(/[.;!?]+(?=\s|$)|\band then\b|\bthen\b|\bfollowed by\b|,?\s*\band\s+(?=(?:end|finish|close|wrap|land|conclude|stop)\w*\s+(?:on|with|at|by|up)\b)/i);
  for (const part of parts) {
    const groups: string[][] = [];
    for (const clause of clausesOf(part)) {
      const current = groups.at(-1);
      if (!current || (beatStart.test(clause) && !listOpens.test(current.at(-1)!))) groups.push([clause]);
      else current.push(clause);
    }
    for (const clauses of groups) beats.push({ text: spanOf(part, clauses), clauses });
  }
  return beats;
}

/** The words of the part from its first clause to its last, as written; the clauses joined when it was rewritten. */
function spanOf(part: string, clauses: string[]): string {
  const from = part.indexOf(clauses[0]!);
  // The last clause after the first ("…an admin signs in as x.admin": its "admin" is not the first clause's).
  const lastAt = clauses.length > 1 ? part.indexOf(clauses.at(-1)!, Math.max(0, from) + clauses[0]!.length) : from;
  if (from < 0 || lastAt < 0) return clauses.join(', ');
  return part.slice(from, lastAt + clauses.at(-1)!.length);
}

/**
 * The beats of the prompt that ask for something and that nothing on the page answers, with what the plan shows in
 * their place: nothing when some beat was found (the plan spends its time on those), else the section the fallback
 * plan is about (or none, when it frames no section: a scroll over the page).
 *
 * A beat that only shares words with a section the video shows anyway is told by that shot: "tour the practice and
 * finish on the request form" shows the practice on its way to the form.
 */
export function notFoundIn(prompt: string, meaning: PromptSubjects, plan: Pick<DemoPlan, 'steps' | 'sectionHint'>, outline: PageOutline): NotFound[] {
  const anyFound = meaning.subjects.length > 0 || meaning.endsOnAction !== undefined;
  const shown = new Set([
    ...meaning.subjects.map((subject) => subject.section.id),
    ...plan.steps.flatMap((step) => (step.action === 'focus' ? [step.sectionId] : [])),
  ]);
  const unanswered = new Map(meaning.unanswered.map((entry) => [entry.clause, entry.touches]));
  const missing = beatsOf(prompt).filter(({ clauses }) => {
    if (!clauses.every((clause) => unanswered.has(clause)) || !clauses.some(asksForSomething)) return false;
    return !(anyFound && clauses.some((clause) => unanswered.get(clause)!.some((section) => shown.has(section.id))));
  });
  if (missing.length === 0) return [];
  const instead = anyFound ? undefined : (mainSection(plan, outline)?.section ?? null);
  return missing.map((beat) => ({
    clause: quoteClause(beat.text),
    ...(instead === undefined ? {} : { shownInstead: instead ? sectionName(instead) : null }),
  }));
}

/**
 * The demo's `warnings`, one sentence per beat not found; the second half says what the video shows for it: the parts
 * that were found, or what the fallback plan showed instead (a section, or an overview when it frames none).
 */
export function planWarnings(plan: Pick<DemoPlan, 'notFound'> | null | undefined): string[] {
  return (plan?.notFound ?? []).map(({ clause, shownInstead }) => {
    const what = `Couldn’t find “${clause}” on this page`;
    if (shownInstead === undefined) return `${what}; the video shows the parts that were found.`;
    if (shownInstead === null) return `${what}; the video shows an overview of the page instead.`;
    return `${what}; showed “${shownInstead}” instead.`;
  });
}

/**
 * The plan's steps when a beat is missing and others were found: the time goes to the found beats, so a shot of a
 * section no beat asked for (a single-section plan's glance at the hero on the way) is left out; it would stand in
 * for the missing beat. Unchanged when nothing is missing, nothing was found, or no shot of a found section remains.
 */
export function onlyFoundShots(steps: PlanStep[], meaning: PromptSubjects, notFound: NotFound[]): PlanStep[] {
  if (notFound.length === 0 || meaning.subjects.length === 0) return steps;
  const found = new Set(meaning.subjects.map((subject) => subject.section.id));
  const kept = steps.filter((step) => step.action !== 'focus' || found.has(step.sectionId));
  return kept.some((step) => step.action === 'focus') ? kept : steps;
}

/** A beat not found, as an entry of the recording log (after the steps, beside the take's check): the recording ran. */
export function notFoundEntry(index: number, warning: string, durationMs: number): RecordingLogEntry {
  return { index, action: 'not-found', target: warning, startMs: 0, endMs: Math.round(durationMs), ok: true };
}
