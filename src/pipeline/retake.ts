import fs from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import { extractOutline } from './analyse/outline.js';
import { paletteSamplesFile } from './encode/video-encoder.js';
import type { TakeCheck } from './compose/take-check.js';
import type { RecordResult } from './record/recorder.js';
import type { ActionScript, OutlineSection, PageOutline, RecordingLogEntry } from './types.js';

/**
 * The service checks its own take against the page as it was recorded, not only as it was analysed: a layout that
 * moved after the analysis (images that finished loading, a band a script inserted, a header that grew once
 * scrolled) puts a heading somewhere the plan never aimed at. When a take misses its bar, it is planned once more on
 * the layout measured after it and recorded again, in the same job (so at no extra charge); the better take is kept.
 */

/** The page's layout as it stands now (after a take): its outline, with the taller of the two sticky headers. */
export async function measureLayout(page: Page, planned: PageOutline): Promise<PageOutline> {
  const measured = await extractOutline(page, { dismissedOverlays: planned.dismissedOverlays });
  // A header measured at the top of the page may be shorter than the one that sticks once scrolled, and vice versa.
  return { ...measured, stickyHeaderHeight: Math.max(measured.stickyHeaderHeight, planned.stickyHeaderHeight) };
}

/**
 * The section of `measured` that is `section` of the planned outline: the same id and heading, else the one section
 * with the same heading (a part rendered again may lose the id and class names its kind was read from).
 */
function sameSection(section: OutlineSection, measured: PageOutline): OutlineSection | undefined {
  const exact = measured.sections.find((candidate) => candidate.id === section.id && candidate.heading === section.heading);
  if (exact || !section.heading) return exact;
  const named = measured.sections.filter((candidate) => candidate.heading === section.heading);
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The planned outline with each section where the page had it when the take ended (sections not found again keep
 * their planned place), so the take is scored where its headings really were while the plan's ids still hold.
 */
export function asRecorded(planned: PageOutline, measured: PageOutline): PageOutline {
  return {
    ...planned,
    stickyHeaderHeight: Math.max(planned.stickyHeaderHeight, measured.stickyHeaderHeight),
    documentHeight: measured.documentHeight,
    sections: planned.sections.map((section) => {
      const found = sameSection(section, measured);
      if (!found) return section;
      const { headingRect: _planned, ...rest } = section;
      return { ...rest, rect: found.rect, ...(found.headingRect ? { headingRect: found.headingRect } : {}) };
    }),
  };
}

/** What the score found that a new plan can use, in words for the recording log. */
export function layoutFindings(planned: PageOutline, measured: PageOutline, check: TakeCheck): string[] {
  const findings: string[] = [];
  if (measured.stickyHeaderHeight > planned.stickyHeaderHeight) {
    findings.push(`the sticky header is ${measured.stickyHeaderHeight} px (planned for ${planned.stickyHeaderHeight} px)`);
  }
  for (const target of check.targets) {
    const section = planned.sections.find((candidate) => (candidate.heading ?? candidate.kind) === target.section);
    const found = section ? sameSection(section, measured) : undefined;
    if (!section || !found) continue;
    const moved = Math.round((found.headingRect ?? found.rect).y - (section.headingRect ?? section.rect).y);
    if (Math.abs(moved) >= 8) findings.push(`"${target.section.slice(0, 60)}" moved ${moved > 0 ? 'down' : 'up'} ${Math.abs(moved)} px`);
  }
  return findings;
}

/** How well a take reads: its worst target's longest stretch against the bar (≥ 1 passes), capped by its ending. */
export function takeScore(check: TakeCheck): number {
  if (check.targets.length === 0) return Number.POSITIVE_INFINITY;
  const read = Math.min(...check.targets.map((target) => target.longestS / Math.max(0.1, check.barS)));
  // A take that ends elsewhere than asked scores below one that ends where asked, however long it read.
  return check.ending && check.ending.readableShare < 0.8 ? Math.min(read, check.ending.readableShare) : read;
}

/** Whether two compiled scripts would record the same thing: a re-plan that changes nothing is not worth a take. */
export function sameScript(a: ActionScript, b: ActionScript): boolean {
  return JSON.stringify(a.steps) === JSON.stringify(b.steps);
}

/** The recording log's entry that says a take was planned again and recorded a second time, and why. */
export function retakeEntry(index: number, findings: string[], kept: 'first' | 'second', durationMs: number): RecordingLogEntry {
  const why = findings.length > 0 ? findings.join('; ') : 'the layout as recorded';
  return {
    index,
    action: 'retake',
    target: `re-planned on ${why}; kept the ${kept} take`,
    startMs: 0,
    endMs: Math.round(durationMs),
    ok: true,
  };
}

/** Removes the take not kept: its clean capture and the small frames and colour samples written beside it. */
export async function discardTake(take: RecordResult, cleanFile: string): Promise<void> {
  await fs.rm(cleanFile, { force: true });
  if (take.smallFrames) await fs.rm(take.smallFrames, { force: true });
  if (take.smallFrames) await fs.rm(paletteSamplesFile(take.smallFrames), { force: true });
}
