/**
 * `npm run bench:meaning`: what the section meaning's word vectors cost. Prints the time to load the table (in a
 * fresh process, as a worker's first plan pays it), the memory it holds, and the time to match a prompt to a long
 * page: 24 parts, each with 1,500 characters of text drawn from the table's own words (the most the outline keeps),
 * scored with the vectors and without them (SHOWREEL_WORD_VECTORS=off).
 */
import { execFileSync } from 'node:child_process';
import { promptSubjects } from '../src/pipeline/plan/section-meaning.js';
import type { OutlineSection, PageOutline } from '../src/pipeline/types.js';

if (process.argv[2] === '--load') {
  const { wordVectors } = await import('../src/pipeline/plan/word-vectors.js');
  const before = process.memoryUsage();
  const started = performance.now();
  const vectors = wordVectors();
  const ms = performance.now() - started;
  const after = process.memoryUsage();
  console.log(JSON.stringify({ words: vectors?.size ?? 0, ms, rssMB: (after.rss - before.rss) / 1e6, heapMB: (after.heapUsed - before.heapUsed + after.arrayBuffers - before.arrayBuffers) / 1e6 }));
  process.exit(0);
}

const load = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--load'], { encoding: 'utf8' })) as { words: number; ms: number; rssMB: number; heapMB: number };
console.log(`load: ${load.words} words in ${load.ms.toFixed(0)} ms; memory +${load.rssMB.toFixed(0)} MB resident (+${load.heapMB.toFixed(0)} MB heap and buffers)`);

const { wordVectors } = await import('../src/pipeline/plan/word-vectors.js');
const table = wordVectors();
// A page's words: words of the table's first 20,000 (everyday words, most of them known to the vectors, so each costs
// its cosines), in a fixed pseudo-random order: the same page every run.
let seed = 7;
const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
const vocabulary = table ? Array.from({ length: 20_000 }, (_, row) => table.word(row)) : ['pricing', 'team', 'customers', 'reviews', 'rewards'];
const words = (n: number) => Array.from({ length: n }, () => vocabulary[next() % vocabulary.length]!);
const sections: OutlineSection[] = Array.from({ length: 24 }, (_, i) => {
  const heading = words(4).join(' ');
  const body = words(400).join(' ').slice(0, 1500);
  return { id: `part-${i}`, kind: i === 0 ? 'hero' : 'content', heading, text: body.slice(0, 200), body, label: heading, selector: `#part-${i}`, fallbackSelectors: [], rect: { x: 0, y: i * 700, width: 1440, height: 700 } };
});
const outline: PageOutline = {
  url: 'http://localhost/bench/', title: 'Bench', description: null, viewport: { width: 1440, height: 810 }, documentHeight: 24 * 700,
  stickyHeaderHeight: 0, navigation: [], sections, actions: [], forms: [], media: [], dismissedOverlays: [],
};
const prompts = [
  'Show the products the staff recommends, then end on the sign-up form for the beta',
  'A sale with its countdown, then how to follow an investment on a phone',
  'Introduce the physicians and what a first visit costs',
];
const rounds = 20;
const started = performance.now();
for (let i = 0; i < rounds; i++) for (const prompt of prompts) promptSubjects(prompt, structuredClone(outline));
const perPage = (performance.now() - started) / (rounds * prompts.length);
console.log(`per page (24 parts × 1,500 characters, a ${prompts.length}-clause-ish prompt): ${perPage.toFixed(1)} ms with the vectors${table ? '' : ' (none: the table is missing or off)'}`);
