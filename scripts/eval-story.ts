/**
 * `npm run eval:story`: does the video show what the prompt asks for, whole and long enough to read? Two sets, each
 * reported apart: the fixtures written here (scripts/eval-story/cases.ts) and the real set, public landing pages
 * nobody here wrote with prompts written before the planner saw them (scripts/eval-story/real-set.ts). For every
 * case it plans a 10 s demo of the page and measures how long the expected section's heading is wholly on screen
 * (see score.ts). Each case is recorded in Chromium (record-case.ts) and scored from the timeline the recorder
 * reported; `--paper` scores the compiled script without recording (seconds instead of minutes).
 *
 * Prints each case, the pass rates at ≥ 1 s and ≥ 3 s per set, the "every beat" figure (beats.ts: a two-part prompt's
 * first heading ≥ 2.5 s too), each blind batch and the two-part prompts apart, the failures, and a per-case diff against the last
 * run of the same set and mode (kept in scripts/eval-story/last-run/, committed, so a diff also spans sessions).
 * `--set fixtures|real` runs one set; `--site NAME` one page; `--batch NAME` one blind batch of the real set (neither
 * is saved as the last run); `--json` prints the results as one JSON object;
 * `--no-save` leaves the last run as it was (a look at one page should not become the baseline); `EVAL_TRACE=1` prints
 * each case's scroll, heading position and camera crop every 0.2 s (why a case reads short). Issue 55: each set's
 * count of cases the planner warns about (a beat it found nowhere on the page); `--warnings` prints them.
 * Issue 56: `--set flows` runs the flows set instead (eval-story/flows-run.ts: real multi-page sites, each case
 * recorded with the one-shot CLI and scored from the finished video by OCR); `--case N` runs each site's Nth case
 * only, `--keep-videos DIR` keeps the videos.
 * `--set real --video` measures the real set as it is measured from outside (eval-story/video-run.ts): each case made
 * by the one-shot CLI at 1080p and read from its finished video by OCR.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../src/pipeline/browser/launch.js';
import { startFixtureServer, type FixtureServer } from '../test/helpers/fixture-server.js';
import { storyCases, type StoryCase } from './eval-story/cases.js';
import { presentRealPages, realCases, realPages, realPagesDir } from './eval-story/real-set.js';
import { recordCase } from './eval-story/record-case.js';
import { beatDiffLines, beatLines, figuresOf } from './eval-story/beats.js';
import { planWarnings } from '../src/pipeline/plan/not-found.js';
import { analyseSite, planCase, recordedScrollCurve, scoreCase, scoreTimeline, type AnalysedSite } from './eval-story/score.js';
import { type Direction, directionSummary } from './eval-story/direction.js';
import { runFlowsSet } from './eval-story/flows-run.js';
import { runRealVideos } from './eval-story/video-run.js';

const json = process.argv.includes('--json');
const paper = process.argv.includes('--paper');
const save = !process.argv.includes('--no-save');
const argValue = (name: string) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const onlySite = argValue('--site');
const onlySet = argValue('--set');
const onlyBatch = argValue('--batch');
const showWarnings = process.argv.includes('--warnings');
const mode = paper ? 'paper' : 'recorded';

if (onlySet === 'flows') {
  if (paper) {
    console.error('The flows set is scored from finished videos only: --paper does not apply to it.');
    process.exit(2);
  }
  const caseNumber = argValue('--case');
  const keepVideos = argValue('--keep-videos');
  process.exit(await runFlowsSet({
    json, save, ...(onlySite ? { site: onlySite } : {}), ...(onlyBatch ? { batch: onlyBatch } : {}),
    ...(caseNumber ? { caseNumber: Number(caseNumber) } : {}), ...(keepVideos ? { keepVideos } : {}),
  }));
}

if (process.argv.includes('--video')) {
  if (paper || onlySet !== 'real') {
    console.error('--video measures the real set from finished videos: use it with --set real, without --paper.');
    process.exit(2);
  }
  const keepVideos = argValue('--keep-videos');
  process.exit(await runRealVideos({ json, save, ...(onlySite ? { site: onlySite } : {}), ...(onlyBatch ? { batch: onlyBatch } : {}), ...(keepVideos ? { keepVideos } : {}) }));
}

interface Result extends StoryCase {
  template: string;
  hint: string | null;
  readableS: number;
  longestS: number;
  endsOnOverview: boolean;
  underHeaderS: number;
  croppedS: number;
  /** a two-part case's first beat: its heading's longest readable stretch (beats.ts) */
  firstLongestS?: number;
  /** null when the case was not recorded */
  direction: Direction | null;
  /** What the demo would say was not found (issue 55); every case's target is on its page, so each one is false. */
  warnings: string[];
}

type SetName = 'fixtures' | 'real';

const { present, missing } = presentRealPages();
if (missing.length > 0 && onlySet !== 'fixtures' && !json) {
  console.error(`The real set: ${missing.length} of ${realPages().length} pages are not on this machine (looked in ${realPagesDir()}): ${missing.map((p) => p.name).join(', ')}. See scripts/eval-story/README.md.`);
}
const sets: Record<SetName, StoryCase[]> = {
  fixtures: onlySet === 'real' ? [] : storyCases,
  real: onlySet === 'fixtures' ? [] : realCases(present),
};
for (const name of Object.keys(sets) as SetName[]) if (onlySite) sets[name] = sets[name].filter((c) => c.site === onlySite);
// A blind batch alone (its "before" figure, say): like one site, it does not become the set's last run.
for (const name of Object.keys(sets) as SetName[]) if (onlyBatch) sets[name] = sets[name].filter((c) => c.batch === onlyBatch);
if (sets.fixtures.length + sets.real.length === 0) {
  console.error(`No story cases${onlySite ? ` for the site ${JSON.stringify(onlySite)}` : ''}${onlyBatch ? ` in the batch ${JSON.stringify(onlyBatch)}` : ''}${onlySet ? ` in the set ${onlySet}` : ''}.`);
  process.exit(2);
}

const fixtureServer = await startFixtureServer();
const realServer = await startFixtureServer({ root: realPagesDir() });
const browser = await launchBrowser({ allowPrivate: true }); // the pages are on loopback
const output: Record<string, unknown> = {};
try {
  for (const name of Object.keys(sets) as SetName[]) {
    const cases = sets[name];
    if (cases.length === 0) continue;
    const results = await runSet(browser, name === 'real' ? realServer : fixtureServer, cases);
    const previous = readLastRun(name);
    if (json) output[name] = { cases: results.length, at1s: rate(results, 1), at3s: rate(results, 3), everyBeat: figuresOf(results).everyBeat / results.length, results };
    else report(name, results, previous);
    if (save && !onlySite && !onlyBatch) writeLastRun(name, results);
  }
  if (json) console.log(JSON.stringify(output));
} finally {
  await browser.close();
  await fixtureServer.close();
  await realServer.close();
}

async function runSet(browser: Browser, server: FixtureServer, cases: StoryCase[]): Promise<Result[]> {
  const sites = new Map<string, AnalysedSite>();
  for (const site of new Set(cases.map((c) => c.site))) {
    const wanted = cases.filter((c) => c.site === site && c.real).flatMap((c) => [
      { key: c.expect, text: c.heading, tag: c.tag },
      ...(c.firstExpect && c.firstHeading ? [{ key: c.firstExpect, text: c.firstHeading }] : []),
    ]);
    sites.set(site, await analyseSite(browser, server.url(site), wanted));
  }
  const results: Result[] = [];
  const firstLongest = new Map<StoryCase, number>();
  for (const c of cases) {
    const site = sites.get(c.site)!;
    let score;
    if (paper) score = scoreCase(site, c.prompt, c.expect);
    else {
      const { plan, script } = planCase(site, c.prompt);
      // A page that once fails to load in time (a busy machine) is tried again; a case that cannot be recorded is a
      // miss that says why, not the end of a half-hour run.
      const timeline = await recordCase(browser, site.url, script).catch(() => recordCase(browser, site.url, script)).catch((error: unknown) => {
        process.stderr.write(`\n${c.site} "${c.prompt}": not recorded (${error instanceof Error ? error.message : String(error)}), counted as 0 s\n`);
        return null;
      });
      if (!timeline) {
        results.push({ ...c, template: plan.templateId, hint: plan.sectionHint, readableS: 0, longestS: 0, endsOnOverview: false, underHeaderS: 0, croppedS: 0, direction: null, warnings: planWarnings(plan), ...(c.firstExpect ? { firstLongestS: 0 } : {}) });
        continue;
      }
      score = scoreTimeline(site, plan, timeline, recordedScrollCurve(timeline), c.expect);
      if (c.firstExpect) firstLongest.set(c, scoreTimeline(site, plan, timeline, recordedScrollCurve(timeline), c.firstExpect).longestS);
    }
    if (paper && c.firstExpect) firstLongest.set(c, scoreCase(site, c.prompt, c.firstExpect).longestS);
    if (!json) process.stderr.write(site.headings[c.expect] && (!c.firstExpect || site.headings[c.firstExpect]) ? '.' : '?');
    results.push({ ...c, template: score.plan.templateId, hint: score.plan.sectionHint, readableS: score.readableS, longestS: score.longestS, endsOnOverview: score.endsOnOverview, underHeaderS: score.underHeaderS, croppedS: score.croppedS, direction: score.direction, warnings: planWarnings(score.plan), ...(firstLongest.has(c) ? { firstLongestS: firstLongest.get(c) } : {}) });
  }
  if (!json) process.stderr.write('\n');
  return results;
}

function rate(results: Result[], seconds: number): number {
  return results.filter((r) => r.longestS >= seconds).length / Math.max(1, results.length);
}

function caseKey(r: { site: string; prompt: string }): string {
  return `${r.site}\u0000${r.prompt}`;
}

function report(name: SetName, results: Result[], previous: Result[] | null): void {
  console.log(`\n== ${name === 'real' ? 'The real set (public pages, prompts written blind)' : 'The fixtures written here'} ==`);
  for (const r of results) {
    const mark = r.longestS >= 3 ? 'ok  ' : r.longestS >= 1 ? 'weak' : 'FAIL';
    console.log(`${mark} ${r.longestS.toFixed(1).padStart(4)} s  ${r.site.padEnd(18)} ${JSON.stringify(r.prompt)} → "${r.heading.slice(0, 50)}" via ${r.template}${r.hint ? ` ("${r.hint.slice(0, 50)}")` : ''}${r.endsOnOverview ? '' : ' [ends zoomed]'}`);
  }
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const at1 = results.filter((r) => r.longestS >= 1).length;
  const at3 = results.filter((r) => r.longestS >= 3).length;
  console.log(`\n${name}: ${results.length} cases (${mode}), longest readable stretch: ${at1}/${results.length} (${pct(rate(results, 1))}) ≥ 1 s, ${at3}/${results.length} (${pct(rate(results, 3))}) ≥ 3 s`);
  const underHeader = results.filter((r) => r.underHeaderS > 0.2);
  const cropped = results.filter((r) => r.croppedS > 0.2);
  console.log(`Camera: ${underHeader.length} case(s) rest with the heading under the sticky header, ${cropped.length} cut it with the zoom${[...underHeader, ...cropped].length > 0 ? `: ${[...new Set([...underHeader, ...cropped])].map((r) => `${r.site} "${r.prompt.slice(0, 40)}…" (${r.underHeaderS.toFixed(1)} s under, ${r.croppedS.toFixed(1)} s cut)`).join('; ')}` : ''}`);
  for (const line of beatLines(results)) console.log(line);
  console.log(directionSummary(results.flatMap((r) => (r.direction ? [r.direction] : []))));
  const warned = results.filter((r) => r.warnings.length > 0);
  console.log(`Warnings (a beat not found; every case's target is on its page): ${warned.length}/${results.length} case(s), ${warned.reduce((n, r) => n + r.warnings.length, 0)} warning(s)${warned.length > 0 && !showWarnings ? ' (--warnings lists them)' : ''}`);
  if (showWarnings) for (const r of warned) console.log(`  ${r.site} ${JSON.stringify(r.prompt)}: ${r.warnings.join(' | ')}`);
  const missingHeadings = results.filter((r) => r.real && r.readableS === 0 && r.longestS === 0);
  if (missingHeadings.length > 0) console.log(`(${missingHeadings.length} read 0 s: never readable, or their heading was not found on the page)`);
  if (previous) {
    const before = new Map(previous.map((r) => [caseKey(r), r]));
    const changed = results.filter((r) => {
      const old = before.get(caseKey(r));
      return !old || Math.abs(old.longestS - r.longestS) >= 0.5 || (old.longestS >= 3) !== (r.longestS >= 3);
    });
    console.log(`Against the last ${mode} run: ${changed.length} case(s) changed by ≥ 0.5 s or across 3 s`);
    for (const r of changed) {
      const old = before.get(caseKey(r));
      const arrow = !old ? 'new' : `${old.longestS.toFixed(1)} → ${r.longestS.toFixed(1)} s${(old.longestS >= 3) !== (r.longestS >= 3) ? (r.longestS >= 3 ? '  FIXED' : '  BROKEN') : ''}`;
      console.log(`  ${arrow.padEnd(22)} ${r.site} ${JSON.stringify(r.prompt)}`);
    }
    for (const line of beatDiffLines(results, previous, caseKey)) console.log(line);
  }
}

function lastRunFile(name: SetName): string {
  return path.resolve(import.meta.dirname, 'eval-story', 'last-run', `${name}-${mode}.json`);
}

function readLastRun(name: SetName): Result[] | null {
  const file = lastRunFile(name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { results: Result[] }).results : null;
}

function writeLastRun(name: SetName, results: Result[]): void {
  const file = lastRunFile(name);
  mkdirSync(path.dirname(file), { recursive: true });
  const slim = results.map((r) => ({
    site: r.site, prompt: r.prompt, heading: r.heading, template: r.template, hint: r.hint,
    readableS: Math.round(r.readableS * 10) / 10, longestS: Math.round(r.longestS * 10) / 10, endsOnOverview: r.endsOnOverview,
    underHeaderS: Math.round(r.underHeaderS * 10) / 10, croppedS: Math.round(r.croppedS * 10) / 10,
    ...(r.twoPart ? { twoPart: true } : {}), ...(r.batch ? { batch: r.batch } : {}),
    ...(r.firstLongestS !== undefined ? { firstHeading: r.firstHeading, firstLongestS: Math.round(r.firstLongestS * 10) / 10 } : {}),
  }));
  writeFileSync(file, `${JSON.stringify({ mode, at1s: rate(results, 1), at3s: rate(results, 3), everyBeat: figuresOf(results).everyBeat / Math.max(1, results.length), results: slim }, null, 1)}\n`);
}
