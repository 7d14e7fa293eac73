import { concepts } from './lexicon.js';
import { wordVectors } from './word-vectors.js';

/**
 * A word of the prompt and a word of the page that are not the same word but say the same thing: the page's own
 * misspelling of it ("rewrads"), or a word of nearly the same meaning by the word vectors ("staff" and
 * "employees"). Weaker evidence than the word itself or a concept of the lexicon (section-meaning.ts): each counts at
 * a discount, so a literal match, where there is one, still wins.
 */

/** The words of one field of a section, as the comparisons below need them. */
export interface MeaningField {
  /** Its distinct content words, lower case. */
  words: string[];
  /** Each word's row in the word vectors (-1: unknown), in the order of `words`. */
  rows: number[];
  /** What each prompt word found here, once worked out (a page is scored against every clause). */
  memo: Map<string, CloseWord | null>;
}

export interface CloseWord {
  word: string;
  how: 'misspelt' | 'similar';
  /** What the match is worth, as a share of the field's weight. */
  weight: number;
}

/** A misspelling of the word is nearly the word (a concept of the lexicon counts 0.85). */
export const MISSPELT_WEIGHT = 0.8;

/**
 * Word vectors: below this cosine, two words are only related ("sale" and "discount" 0.55, "policy" and "agenda",
 * "easy" and "fast" 0.69); from it, nearly the same ("staff" and "employees" 0.73, "investment" and "portfolio"
 * 0.74). Measured on the eval sets: from 0.6 or 0.65, related words won clauses from the right part.
 */
export const SIMILAR_FROM = 0.7;
/** What a word at SIMILAR_FROM is worth, and one of cosine 1: always below a concept of the lexicon. */
const SIMILAR_WEIGHT_LOW = 0.5;
const SIMILAR_WEIGHT_HIGH = 0.8;
/**
 * Words nearer than this to the most frequent words on average say too little to be matched by meaning: any two of
 * "what", "which", "own", "already" are close, and "which" is no "case"; nor is "push" "ready" (0.53). Words that
 * name things are further ("staff" 0.46, "investment" 0.42); "team" (0.51), "form" (0.54) are left to the lexicon.
 */
const GENERIC_FROM = 0.5;

export function fieldWords(words: string[]): MeaningField {
  const distinct = [...new Set(words.filter((word) => /^[a-z]{3,}$/.test(word)))];
  const vectors = wordVectors();
  return { words: distinct, rows: distinct.map((word) => vectors?.row(word) ?? -1), memo: new Map() };
}

/**
 * The field's word closest to a prompt word, by spelling or, when `bySense`, by meaning, when one is close enough.
 */
export function closeWordIn(word: string, field: MeaningField, bySense: boolean): CloseWord | null {
  const key = bySense ? word : `${word}\u0000spelling`;
  if (field.memo.has(key)) return field.memo.get(key)!;
  const found = misspeltIn(word, field) ?? (bySense ? similarIn(word, field) : null);
  field.memo.set(key, found);
  return found;
}

const lexiconWords = new Set(Object.values(concepts).flat());

/**
 * A word of the dictionary: the word vectors' (the most frequent words of English), or the lexicon's when there
 * are no vectors. Two different dictionary words a letter apart are two words ("prices" and "prizes"), not a
 * misspelling.
 */
function known(word: string): boolean {
  const vectors = wordVectors();
  const inDictionary = (w: string) => (vectors ? vectors.row(w) >= 0 : lexiconWords.has(w));
  // A plural the 50,000 most frequent words leave out is as much a word as its singular: "swatches" (of "Color
  // Swatches") was read as the page's misspelling of the prompt's "switches".
  return inDictionary(word) || singularsOf(word).some(inDictionary);
}

function singularsOf(word: string): string[] {
  if (word.endsWith('ies')) return [`${word.slice(0, -3)}y`];
  if (/(?:s|x|z|ch|sh)es$/.test(word)) return [word.slice(0, -2)];
  if (word.endsWith('s') && !word.endsWith('ss')) return [word.slice(0, -1)];
  return [];
}

/**
 * The page's misspelling of a prompt word of five letters or more, or the prompt's of the page's: the same first
 * letter, and a Damerau-Levenshtein distance of 1 (up to seven letters) or 2 (longer), where at most one of the two
 * is a dictionary word.
 */
function misspeltIn(word: string, field: MeaningField): CloseWord | null {
  if (word.length < 5) return null;
  const allowed = word.length <= 7 ? 1 : 2;
  const wordKnown = known(word);
  for (const candidate of field.words) {
    if (candidate[0] !== word[0] || Math.abs(candidate.length - word.length) > allowed || candidate.length < 5) continue;
    if (wordKnown && known(candidate)) continue;
    if (editDistance(word, candidate, allowed) <= allowed) return { word: candidate, how: 'misspelt', weight: MISSPELT_WEIGHT };
  }
  return null;
}

function similarIn(word: string, field: MeaningField): CloseWord | null {
  const vectors = wordVectors();
  const row = vectors?.row(word) ?? -1;
  if (!vectors || row < 0 || vectors.genericness(row) >= GENERIC_FROM) return null;
  let best: CloseWord | null = null;
  let bestCosine = SIMILAR_FROM;
  field.rows.forEach((other, i) => {
    if (other < 0 || other === row || vectors.genericness(other) >= GENERIC_FROM) return;
    const cosine = vectors.cosine(row, other);
    if (cosine < bestCosine) return;
    bestCosine = cosine;
    const weight = SIMILAR_WEIGHT_LOW + ((SIMILAR_WEIGHT_HIGH - SIMILAR_WEIGHT_LOW) * (cosine - SIMILAR_FROM)) / (1 - SIMILAR_FROM);
    best = { word: field.words[i]!, how: 'similar', weight };
  });
  return best;
}

/** Damerau-Levenshtein distance (optimal string alignment), or more than `limit` as soon as it is sure to be. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** Both words of a joined name are this common or more (row in the vectors, most frequent first): "block", "quotes". */
const COMPOUND_PART_WITHIN = 30_000;
const COMPOUND_PART_MIN = 4;

/**
 * A word the vectors do not know that is two common words joined ("blockquotes", "textarea", "dropdowns"): its two
 * words, the longer last part first tried. A heading of a component showcase names its parts this way, and a prompt
 * says them apart ("quoted passages"). A known word is never split ("platform" is no "form").
 */
export function compoundParts(word: string): string[] {
  const vectors = wordVectors();
  const lower = word.toLowerCase();
  if (!vectors || !/^[a-z]{8,}$/.test(lower) || vectors.row(lower) >= 0) return [];
  const common = (part: string) => {
    const row = vectors.row(part);
    return row >= 0 && row < COMPOUND_PART_WITHIN;
  };
  for (let cut = COMPOUND_PART_MIN; cut <= lower.length - COMPOUND_PART_MIN; cut++) {
    const head = lower.slice(0, cut);
    const tail = lower.slice(cut);
    if (common(head) && common(tail)) return [head, tail];
  }
  return [];
}
