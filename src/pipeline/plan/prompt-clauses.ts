/**
 * A prompt cut into the clauses that each ask for one thing ("the team and how to get in touch, then end on the
 * sign-up" → three), keeping together what one clause says with commas or "and" (a list of examples, an ending's
 * "and their prices", "which towns and counties will they…"). section-meaning.ts scores each clause against the page.
 */

export const endCue = /\b(?:end(?:s|ing)?|finish(?:es|ing)?|clos(?:e|es|ing)|wrap(?:s|ped|ping)? up|land(?:s|ing)?|conclude|stop)\s+(?:on|with|at|by|where)\b|\blast(?:ly)?\b|\bfinally\b/i;

/** An ending cue and the rest of its clause, up to a sentence's end, a comma or a "then". */
const endingRun = new RegExp(`(?:${endCue.source})(?:(?!\\bthen\\b)[^.;!?,])*`, 'gi');
/** An "and" kept inside its clause while the prompt is split (a word character on each side: no word boundary). */
const ENDING_AND = '_and_';

/**
 * An ending clause's parts: what it ends on first, then what its "and" adds ("end on the spa treatments | and their
 * prices", "end on where to find more examples | and community help"). Any other clause is one part.
 */
export function endingParts(clause: string): string[] {
  const cue = endCue.exec(clause);
  if (!cue) return [clause];
  const from = cue.index + cue[0].length;
  const [first, ...rest] = clause.slice(from).split(/\band\b/i);
  return [clause.slice(0, from) + first, ...rest].filter((part) => part.trim().length > 0);
}


/** Clauses: "the team and how to get in touch, then end on the sign-up" → three. */
export function clausesOf(prompt: string): string[] {
  return prompt
    // "Walk through how a shoot runs, step by step, from…": how to show it, set off by commas, is not a subject of
    // its own (alone, "step" would go looking for a process section elsewhere).
    .replace(/,\s*(step[- ]by[- ]step|one by one|bit by bit|in (?:some )?detail|in order|from start to finish)\s*(?=[,.;!?]|$)/gi, ' $1')
    // "If something goes wrong while my code runs, how do I catch the error?", "If I buy the small plan, can I move up
    // later?": a condition that opens a question says when it is asked; what is asked is the question after it, and the
    // condition is no beat of its own (it showed an "If and Unless" part, or the prices before the answer).
    .replace(/(^|[.;!?]\s*)(?:if|when|whenever|once)\b[^,.;!?]*,(?=\s*(?:how|what|where|which|who|why|can|could|do|does|is|are|will|would|should)\b)/gi, '$1')
    // "How do I add or remove slides, or tear the slider down, from my own code?": a question's alternatives after ", or"
    // and where it is done from ("from my own code") are one question, not beats of their own (alone, "add or remove"
    // went to the events that report an adding, and "from my own code" was a beat with nothing to show first).
    .replace(/[^.;!?]*\?/g, (question: string) => question.replace(/,\s*(?=or\b)/gi, ' '))
    .replace(/,\s*(?=(?:from|in|with|through) (?:my|our|your|their|the) (?:own )?(?:code|script|javascript|program)\b)/gi, ' ')
    // "Which pizzas are the bestsellers, and what do they cost?": what the things just named cost is more of the same
    // question, not a beat of its own (alone, "what do they cost" went to the part whose text said "what").
    .replace(/,?\s*(?:and\s+)?(?=(?:what|how much) (?:do|does|did|are|is|will) (?:they|it|these|those|each|each one) (?:cost|charge|go for)\b|how much (?:are|is) (?:they|it|these|those|each)\b)/gi, ' ')
    // "the carousel (budgeting, round-ups, bill alerts)": what is in brackets elaborates its clause.
    .replace(/\(([^()]*)\)/g, (_, inside: string) => ` ${inside.replace(/[,;&]|\band\b/g, ' ')} `)
    // So does a list after a colon or "like", "such as", "including" ("loans: student, mortgage, payday", "specialties
    // like dentistry and cardiology"): its items are what the clause is about, not subjects of their own. Up to the
    // sentence's end or a "then".
    .replace(/,?\s*(:(?!\s*(?:how|what|where|which|who|when|why|can|could|do|does|is|are)\b)|\b(?:like|such as|including|e\.g\.|for example|for instance|especially)(?!\w))((?:(?!\bthen\b)[^.;!?])*)/gi,
      (whole: string, lead: string, list: string, at: number, text: string) => ` ${examplesLead(lead, text.slice(0, at + whole.indexOf(lead)))}${list.replace(/,|&|\band\b|\bor\b/gi, ' ')}`)
    // Names listed before the noun they name ("the Free, Starter and Pro plans", "the S, M and L sizes") are one
    // subject, not three: the commas are the list's.
    .replace(/\b([A-Z][\w$£€-]*(?:,\s*[A-Z][\w$£€-]*)+,?\s+(?:and|or|&)\s+[A-Z][\w$£€-]*)(?=\s+(?!(?:then|and|or|to|on|in|at|for|with|from|first|last|before|after|as|is|are|was|were|that|which|who|where|when)\b)[a-z]{3,}\b)/g, (list: string) => list.replace(/\s*(?:,|&|\band\b|\bor\b)\s*/g, ' ').replace(/\s+/g, ' '))
    // "End on where to find more examples and community help", "finish on the prizes and certificates he has won":
    // what follows an ending's "and" is more of what to end on, not a beat of its own shown before it.
    .replace(endingRun, (run: string) => run.replace(/\band\b/gi, ENDING_AND))
    // "Your news and special offers by email": two kinds of mail that come one way, the newsletter; not the blog's news
    // and then a way to write.
    .replace(/\b(news|updates?|offers?|deals?|tips|promotions?)\s+(?:and|&)\s+(?=(?:[\w'’]+ ){0,2}(?:news|updates?|offers?|deals?|tips|promotions?)\b[\w'’ ]{0,30}? (?:by|via|over|in|to) (?:e-?mail|(?:my|your|our|the) inbox)\b)/gi, `$1 ${ENDING_AND} `)
    // "Which towns and counties will they come out to?", "What clients and buildings have they done signage for?": two
    // nouns one question asks about, not two clauses ("which towns" alone asked for nothing).
    .replace(/(^|[.;!?,]\s*|\bthen\s+)((?:which|what) [\w'’-]+) and (?!(?:how|what|where|when|which|who|why|then)\b)([\w'’-]+ (?:do|does|did|have|has|had|will|would|can|could|are|is|were|was)\b)/gi, `$1$2 ${ENDING_AND} $3`)
    // A full stop ends a sentence only before a space: "gyarar.admin", "dana@example.com", "Node.js" are one word.
    .split(/\.(?=\s|$)|[;!?]|,|\band then\b|\bthen\b|\band\b|\bfollowed by\b|\bplus\b|&/i)
    .map((clause) => clause.replaceAll(ENDING_AND, 'and').trim())
    .filter((clause) => clause.length > 1);
}


/**
 * The word that opens a list of examples, kept so the clause still says where its examples start. A "like" there is
 * "such as" ("pieces like pop-ups, tooltips"): a preposition, not the verb a heading says ("Do you like what you
 * see?" took the shot from the part the examples name). The verb ("I'd like", "what it looks like") stays.
 */
function examplesLead(lead: string, before: string): string {
  if (!/^like$/i.test(lead) || /\b(?:i|we|you|they|would|[’']d|looks?|looked|looking|sounds?|seems?|feels?)\s*$/i.test(before)) return lead;
  return 'such as';
}
