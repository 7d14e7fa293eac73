import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { StoryCase } from './cases.js';

/**
 * The real set: public landing pages nobody here wrote, each described by `real/<name>.json` (its repository,
 * the commit it was taken at, its licence, and three prompts written before the planner ever saw the page).
 *
 * The pages themselves are not in this repository: what the search tool's `fetch` brings in is kept out of commits
 * (the workplace's rule), so they live beside the checkout, in `../real-pages/<name>/index.html`, or wherever
 * `SHOWREEL_REAL_PAGES` points. Each page's folder holds its `SOURCE` and `LICENSE`. See README.md here for how to
 * bring the set back on a new machine.
 */

export interface RealPage {
  name: string;
  repository: string;
  commit: string;
  path: string;
  licence: string;
  kind: string[];
  removed?: string[];
  /** Set when the page's misses were fixed by a rule written for it: it no longer measures anything. */
  retired?: string;
  /** A batch of pages whose prompts were committed before the planner or the eval saw them, reported apart. */
  batch?: string;
  /** `firstHeading`: a two-part case's first beat's heading, so that every beat is scored (beats.ts). */
  cases: Array<{ prompt: string; heading: string; tag?: string; twoPart?: boolean; firstHeading?: string }>;
}

export const REAL_MANIFEST_DIR = path.resolve(import.meta.dirname, 'real');

export function realPagesDir(): string {
  return process.env.SHOWREEL_REAL_PAGES ?? path.resolve(import.meta.dirname, '..', '..', '..', 'real-pages');
}

export function realPages(): RealPage[] {
  if (!existsSync(REAL_MANIFEST_DIR)) return [];
  return readdirSync(REAL_MANIFEST_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(REAL_MANIFEST_DIR, file), 'utf8')) as RealPage);
}

/** A heading's text as the eval compares it: case and spacing do not matter (CSS may upper-case it). */
export function headingKey(text: string): string {
  return `text:${text.replace(/\s+/g, ' ').trim().toLowerCase()}`;
}

/** The real set's cases, as story cases whose expected section is found by its heading's text. */
export function realCases(pages = realPages()): StoryCase[] {
  return pages
    .filter((page) => !page.retired)
    .flatMap((page) =>
      page.cases.map((c) => ({
        site: page.name, prompt: c.prompt, expect: headingKey(c.heading), heading: c.heading, real: true as const, tag: c.tag,
        ...(c.twoPart ? { twoPart: true } : {}),
        ...(c.firstHeading ? { firstHeading: c.firstHeading, firstExpect: `first:${headingKey(c.firstHeading)}` } : {}),
        ...(page.batch ? { batch: page.batch } : {}),
      })),
    );
}

/** Which pages of the manifest are present on this machine. */
export function presentRealPages(pages = realPages()): { present: RealPage[]; missing: RealPage[] } {
  const dir = realPagesDir();
  const present = pages.filter((page) => existsSync(path.join(dir, page.name, 'index.html')));
  return { present, missing: pages.filter((page) => !present.includes(page)) };
}
