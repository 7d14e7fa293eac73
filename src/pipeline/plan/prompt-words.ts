import { concepts, promptPhrases } from './lexicon.js';

/**
 * A prompt's and a page's words as the planner compares them: lower-cased, without possessors, with the lexicon's
 * phrases read as the concepts they name (promptWords), and stemmed alike on both sides (stem).
 */

/** Words whose "'s" is "is" or "us", not a possessive ("let's", "what's", "it's"). */
const contractedBeforeS = new Set(['let', 'it', 'that', 'what', 'who', 'here', 'there', 'where', 'how', 'he', 'she', 'when', 'why', 'this']);

/**
 * "The hotel's history", "the team's favourite features", "our customers' reviews": the possessor is whose it is,
 * the word after it is what is asked for. On a hotel's page "hotel" names the whole site (and its menu's "Find us"
 * reads as where the hotel is), so the possessor is left out of the clause's words.
 */
function withoutPossessors(text: string): string {
  return text
    .replace(/\b([a-z]+)['’]s\b(?=\s+[a-z])/g, (match, word: string) => (contractedBeforeS.has(word) ? match : ' '))
    .replace(/\b[a-z]+s['’](?=\s+[a-z])/g, ' ')
    // One space between words again, as the phrases below expect.
    .replace(/\s+/g, ' ');
}

export function promptWords(clause: string): string[] {
  let text = withoutPossessors(clause.toLowerCase());
  for (const [pattern, concept] of promptPhrases) {
    text = typeof concept === 'string' ? text.replace(pattern, ` ${concept} `) : text.replace(pattern, (match, ...groups: string[]) => ` ${concept(match, ...groups)} `);
  }
  return words(text);
}

/**
 * The prompt's words with the concepts its phrases name beside the words that named them ("companies they work with"
 * is "client company" and still "work"): what a card's own heading may say word for word. Phrases that only frame
 * the request ("make a short video of") are dropped as in promptWords.
 */
export function promptWordsWithPhrases(clause: string): string[] {
  let text = withoutPossessors(clause.toLowerCase());
  for (const [pattern, concept] of promptPhrases) {
    text = text.replace(pattern, (match, ...groups: unknown[]) => {
      const named = typeof concept === 'string' ? concept : concept(match, ...(groups as string[]));
      return named.trim() === '' ? ' ' : ` ${match} ${named} `;
    });
  }
  return words(text);
}

/** A light suffix stemmer, applied alike to the prompt, the page and the lexicon. */
/**
 * British and American spellings of one word meet ("Show me the colour swatches" and a page's "Text Color"): the
 * common words that differ by "-our", "-ise", "-re" or a doubled "l", written the American way. A list, not a rule:
 * "your", "promise" and "acre" are no such words.
 */
const SPELLINGS: Array<[RegExp, string]> = [
  [/^(colo|favo|behavio|hono|flavo|labo|neighbo|humo|rumo|vapo|savo|endeavo|armo|harbo|parlo)ur/, '$1r'],
  [/^(customi|personali|organi|optimi|prioriti|visuali|categori|authori|recogni|summari|minimi|maximi|standardi|synchroni|initiali|normali|locali|utili|memori|apologi|emphasi|speciali|finali)s(?=e|ing|ed|ation|er)/, '$1z'],
  [/^(analy|paraly|cataly)s(?=e$|ed$|es$|ing$)/, '$1z'],
  [/^(cent|theat|met|lit|fib|calib)re(s|d)?$/, '$1er$2'],
  [/^(catalog|dialog|analog)ue/, '$1'],
  [/^licenc/, 'licens'],
  [/^programme/, 'program'],
  [/^grey/, 'gray'],
  [/^(travel|cancel|label|model|fuel|signal)l(?=ed|ing|er)/, '$1'],
];

export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  for (const [british, american] of SPELLINGS) w = w.replace(british, american);
  for (const [suffix, replacement] of [['ies', 'y'], ['ing', ''], ['ed', ''], ['es', ''], ['s', ''], ['ly', '']] as const) {
    // "-es" only after a sibilant ("boxes", "touches"): "rates" is "rate", which must not meet "rating" as "rat".
    if (suffix === 'es' && !/(?:s|x|z|ch|sh)es$/.test(w)) continue;
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && !(suffix === 's' && w.endsWith('ss'))) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  // A silent "e" goes too, so the word meets its own "-ed" and "-ing" ("quote" and "quoted", "style" and "styling");
  // not in a short word ("rate" must not meet "rating").
  if (w.length >= 5 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/sign[\s-]?up/g, 'signup')
    .replace(/f\.?a\.?q/g, 'faq')
    // "line-up", "check-in": the joined word as well as its parts.
    .replace(/\b([a-z]+)-([a-z]+)\b/g, '$1 $2 $1$2')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

/** The lexicon's concepts by stem, built on first use. */
let conceptsByStem: Map<string, string[]> | null = null;

/** The lexicon's concepts a stem belongs to ("invoic" → pricing). */
/** The concept a word is the very name of ("Awards" of awards, "Education"), if any. */
export function conceptNamed(word: string): string | null {
  const s = stem(word.toLowerCase());
  return Object.keys(concepts).find((key) => stem(key) === s) ?? null;
}

export function conceptsOfStem(token: string): string[] | undefined {
  if (!conceptsByStem) {
    conceptsByStem = new Map();
    for (const [concept, list] of Object.entries(concepts)) {
      for (const entry of list) conceptsByStem.set(stem(entry), [...(conceptsByStem.get(stem(entry)) ?? []), concept]);
    }
  }
  return conceptsByStem.get(token);
}
