import type { Page } from 'puppeteer-core';
import type { DemoJobRecord } from '../demos/queries.js';
import { analysePage, type PageAnalysis } from './analyse/index.js';
import { assertRecordablePage } from './analyse/recordable-page.js';
import { describeChanges, fingerprintOf, flowFingerprintOf, hashSectionFrames, keepPlan, type DemoFingerprint, type FlowPage } from './fingerprint/index.js';
import { durationMsFor } from './plan/heuristic-planner.js';
import type { Planner } from './plan/planner.js';
import type { DemoPlan, PageOutline } from './types.js';

/**
 * Whether a job compares the page with the version shown before recording (issue 37): scheduled and deploy-webhook
 * refreshes do, unless asked with `?force=true`. A manual refresh (of a demo or of a project) always re-records: a
 * person asked for a new recording.
 */
export function checksForChanges(job: Pick<DemoJobRecord, 'kind' | 'triggered_by' | 'force'>): boolean {
  return job.kind === 'refresh' && (job.triggered_by === 'schedule' || job.triggered_by === 'webhook') && !job.force;
}

export interface PageCheck {
  analysis: PageAnalysis;
  /** dHash of each section's resting frame, by section id */
  hashes: Map<string, string>;
  /** What changed since the version shown; null when that version has no fingerprint to compare with. */
  changes: string[] | null;
}

/** The analysis pass (no recording): the outline, a frame of each section, and what changed against `previous`. */
export async function checkPage(page: Page, previous: DemoFingerprint | null): Promise<PageCheck> {
  const analysis = await analysePage(page);
  // After the analysis: a page that moves itself elsewhere has done so by now.
  await assertRecordablePage(page);
  const hashes = await hashSectionFrames(page, analysis.outline);
  return { analysis, hashes, changes: previous ? describeChanges(previous, analysis.outline, hashes) : null };
}

/**
 * Issue 56: what changed on the later pages of a flow, each opened by its address (the way the flow reached it, a
 * link, is a plain GET) and compared with its print; each change is named by its page. A page that no longer opens
 * is a change too.
 */
export async function checkLaterPages(page: Page, previous: DemoFingerprint, open: (url: string) => Promise<unknown>): Promise<string[]> {
  const changes: string[] = [];
  for (const print of previous.pages ?? []) {
    const name = pageName(print.url);
    try {
      await open(print.url);
      await assertRecordablePage(page);
    } catch {
      changes.push(`${name}: the page no longer opens`);
      continue;
    }
    const { outline } = await analysePage(page);
    changes.push(...describeChanges({ version: 1, ...print }, outline, new Map()).map((change) => `${name}: ${change}`));
  }
  return changes;
}

/** "/login.html" → "The login.html page"; "#/active" → "The #/active page". */
function pageName(url: string): string {
  try {
    const parsed = new URL(url);
    const last = `${parsed.pathname.split('/').filter(Boolean).at(-1) ?? '/'}${parsed.hash}`;
    return `The ${last} page`;
  } catch {
    return 'A later page';
  }
}

/**
 * The fingerprint to store with the version a job recorded, as JSON. A flow's (issue 56) is made page by page, each
 * with its own leg's plan.
 */
export function fingerprintToStore(outline: PageOutline | null, plan: DemoPlan | null, hashes: Map<string, string>, flowPages: FlowPage[] = []): string | null {
  if (flowPages.length > 1) return JSON.stringify(flowFingerprintOf(flowPages, hashes));
  return outline && plan ? JSON.stringify(fingerprintOf(outline, plan, hashes)) : null;
}

export function parseFingerprint(text: string | null): DemoFingerprint | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as DemoFingerprint;
    return value?.version === 1 && Array.isArray(value.shots) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The planner for a refresh whose page changed (issue 37): one that answers with the stored plan, kept where the page
 * still has what it shows (kept-plan.ts), so only what moved or went is planned again. The planner itself when the
 * stored plan cannot be kept (nothing usable left, a fingerprint from before section ids, another template or
 * length asked).
 */
export function plannerForChangedPage(planner: Planner, stored: DemoPlan | null, previous: DemoFingerprint, outline: PageOutline, templateId: string): Planner {
  if (!stored || !Array.isArray(stored.steps) || (templateId !== 'auto' && templateId !== stored.templateId)) return planner;
  const kept = keepPlan(stored, previous, outline);
  if (!kept) return planner;
  return {
    kind: planner.kind,
    // A demo whose length was changed since is planned again for the new length.
    plan: async (input) => (kept.durationMs === durationMsFor(input.durationTarget) ? kept : planner.plan(input)),
    nextStep: (input) => planner.nextStep(input),
    planNextStep: (input) => planner.planNextStep(input),
  };
}
