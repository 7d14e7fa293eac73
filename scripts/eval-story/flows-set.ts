import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The flows set (issue 56): real multi-page sites nobody here wrote (admin dashboards, multi-page marketing sites,
 * a small app that runs in the browser), each described by `flows/<name>.json` with three flow prompts written from
 * screenshots of its pages before any planner ran on it. A flow crosses pages, types values the prompt names, or
 * does the app's own actions; it ends on a page or state whose `heading` shows it got there.
 *
 * Like the real set, the sites are not in this repository: they live in `../real-pages-flows/<name>/` beside the
 * checkout (or wherever `SHOWREEL_FLOW_PAGES` points), each with its `SOURCE`, `LICENSE` and `READY`.
 */

export interface FlowCase {
  prompt: string;
  /** The page the flow starts on, relative to the site root, when it is not the site's `start`. */
  start?: string;
  /** The path of the page the flow ends on, relative to the site root (the video is what is scored). */
  finalUrl: string;
  /** A text readable on the final page or state that shows the flow got there. */
  heading: string;
  /** The values the prompt names, which must be seen typed on screen (never a password). */
  values: string[];
  crossesPage: boolean;
  /** The demo's length (the one-shot CLI's --duration); its default, 10 s, unless a case says otherwise. */
  duration?: '10s' | '30s';
}

export interface FlowSite {
  name: string;
  repository: string;
  commit: string;
  /** The folder (or ".") of the repository that is the site's root. */
  path: string;
  licence: string;
  kind: string[];
  batch: string;
  /** The page the flows start on, relative to the site root. */
  start: string;
  /** What was left out of the copy, and why. */
  removed: string[];
  /** Set when the site's misses were fixed by a rule written for it: it no longer measures anything. */
  retired?: string;
  cases: FlowCase[];
}

/** One case to record: its site, and where it starts and ends. */
export interface FlowRun extends FlowCase {
  site: string;
  batch: string;
  startPath: string;
  /** 1-based, the case's place in its site's manifest (`--case N`, the kept video's name) */
  number: number;
}

export const FLOW_MANIFEST_DIR = path.resolve(import.meta.dirname, 'flows');

export function flowPagesDir(): string {
  return process.env.SHOWREEL_FLOW_PAGES ?? path.resolve(import.meta.dirname, '..', '..', '..', 'real-pages-flows');
}

export function flowSites(): FlowSite[] {
  if (!existsSync(FLOW_MANIFEST_DIR)) return [];
  return readdirSync(FLOW_MANIFEST_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(FLOW_MANIFEST_DIR, file), 'utf8')) as FlowSite);
}

export function flowRuns(sites = flowSites()): FlowRun[] {
  return sites
    .filter((site) => !site.retired)
    .flatMap((site) => site.cases.map((c, i) => ({ ...c, site: site.name, batch: site.batch, startPath: c.start ?? site.start, number: i + 1 })));
}

/** Which sites are on this machine: their folder holds READY once brought in whole (README.md). */
export function presentFlowSites(sites = flowSites()): { present: FlowSite[]; missing: FlowSite[] } {
  const dir = flowPagesDir();
  const present = sites.filter((site) => existsSync(path.join(dir, site.name, 'READY')));
  return { present, missing: sites.filter((site) => !present.includes(site)) };
}
