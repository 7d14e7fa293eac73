import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { ActionScript, ScriptStep } from '../types.js';
import { type FollowedLink, followLink } from './follow-link.js';
import { joinLegs } from './join-legs.js';
import type { RecordResult } from './recorder.js';

/**
 * Issue 56: a recording that goes where the prompt goes, page after page. Each page is a leg: recorded on its own
 * (record), ending on a `navigate` step whose click the video shows; the link is then followed off camera
 * (follow-link.ts), and the next leg is asked for on the page it opened (`nextLeg`: a fresh demo analyses that page
 * and plans it; a restyle takes its stored leg). The legs are joined into one recording (join-legs.ts) and one
 * script, whose steps after the first page carry the URL they ran on.
 */
export interface FlowOptions {
  /** records one leg's script into a clean capture */
  record(script: ActionScript, outFile: string, leg: number): Promise<RecordResult>;
  /** the next leg, planned on the page the link opened; null: the flow ends here */
  nextLeg(followed: FollowedLink, leg: number): Promise<ActionScript | null>;
  sameSite(url: string): boolean;
  /** the joined capture */
  outFile: string;
}

export interface RecordedFlow {
  recording: RecordResult;
  /** the legs' scripts joined: times from the start of the video, `url` on every step after the first page */
  script: ActionScript;
  /** the addresses of the pages, in order */
  pages: string[];
  /** each leg's own recording (its timeline timed from its own start); their capture files are gone once joined */
  legs: RecordResult[];
}

/** At most this many pages in one demo: a prompt that would go on is ended on the last. */
export const MAX_LEGS = 4;

export async function recordFlow(page: Page, first: ActionScript, options: FlowOptions): Promise<RecordedFlow> {
  const results: RecordResult[] = [];
  const scripts: ActionScript[] = [];
  const pages: string[] = [page.url()];
  let script: ActionScript | null = first;
  try {
    for (let leg = 0; script && leg < MAX_LEGS; leg++) {
      const file = legFile(options.outFile, leg);
      results.push(await options.record(script, file, leg));
      scripts.push(script);
      // A leg that leaves ends on its navigate step (endOnNavigate).
      const last = script.steps.at(-1);
      if (last?.kind !== 'navigate' || leg + 1 >= MAX_LEGS) break;
      const followed = await followLink(page, last, options.sameSite);
      pages.push(followed.url);
      script = await options.nextLeg(followed, leg + 1);
    }
    const recording = await joinLegs(results, options.outFile);
    return { recording, script: joinScripts(scripts, results, pages), pages, legs: results };
  } finally {
    if (results.length > 1) {
      await Promise.all(results.flatMap((result) => [result.encode.outFile, result.smallFrames].filter((f): f is string => !!f).map((f) => fs.rm(f, { force: true }))));
    }
  }
}

/** A stored flow's legs, each timed from its own start: split after every `navigate` step. */
export function legsOf(script: ActionScript): ActionScript[] {
  const legs: ActionScript[] = [];
  let steps: ScriptStep[] = [];
  let from = 0;
  const close = (until: number) => {
    legs.push({ ...script, url: steps[0]?.url ?? script.url, durationMs: Math.max(1, until - from), steps: steps.map((step) => ({ ...step, startMs: step.startMs - from })) });
  };
  for (const step of script.steps) {
    steps.push(step);
    if (step.kind === 'navigate') {
      const end = step.startMs + step.durationMs;
      close(end);
      from = end;
      steps = [];
    }
  }
  if (steps.length > 0 || legs.length === 0) close(script.durationMs);
  return legs;
}

/** Whether a stored script goes to more than one page. */
export function isFlow(script: ActionScript): boolean {
  return script.steps.some((step) => step.kind === 'navigate');
}

function joinScripts(scripts: ActionScript[], results: RecordResult[], pages: string[]): ActionScript {
  const first = scripts[0]!;
  const steps: ScriptStep[] = [];
  let offset = 0;
  scripts.forEach((script, leg) => {
    for (const step of script.steps) steps.push({ ...step, startMs: Math.round(step.startMs + offset), ...(leg > 0 ? { url: pages[leg]! } : {}) });
    offset += results[leg]!.durationMs;
  });
  return { ...first, durationMs: Math.round(offset), steps };
}

function legFile(outFile: string, leg: number): string {
  if (leg === 0) return outFile.replace(/(\.[^./]+)$/, '-leg0$1');
  return path.join(path.dirname(outFile), `${path.basename(outFile).replace(/\.[^./]+$/, '')}-leg${leg}.mkv`);
}

/**
 * A leg that leaves ends on its click: the time the compiler gave to a hold after it belongs to the click's step, so
 * the next page comes in right after it (nothing of this page is held while it loads).
 */
export function endOnNavigate(script: ActionScript): ActionScript {
  const at = script.steps.findLastIndex((step) => step.kind === 'navigate');
  if (at < 0) return script;
  const steps = script.steps.slice(0, at + 1);
  const navigate = steps[at]!;
  steps[at] = { ...navigate, durationMs: script.durationMs - navigate.startMs };
  return { ...script, steps };
}
