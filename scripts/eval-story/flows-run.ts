import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFixtureServer } from '../../test/helpers/fixture-server.js';
import { recordFlow } from './flows-record.js';
import { caseLine, diffLines, identity, scoreFlow, summaryLines, unrecorded, type FlowResult } from './flows-score.js';
import { flowPagesDir, flowRuns, flowSites, presentFlowSites, type FlowRun } from './flows-set.js';
import { readTexts } from './ocr-video.js';

/**
 * `npm run eval:story -- --set flows`: records every flow case with the one-shot CLI (flows-record.ts), reads the
 * finished video by OCR (ocr-video.ts) and judges it (flows-score.ts). The sites are served from
 * ../real-pages-flows (SHOWREEL_FLOW_PAGES) on 127.0.0.1. The last full run is kept in
 * last-run/flows-recorded.json (committed), and each run is diffed against it case by case.
 */

export interface FlowsOptions {
  site?: string;
  batch?: string;
  /** 1-based: only this case of each site */
  caseNumber?: number;
  json: boolean;
  save: boolean;
  /** keep each case's video here (for contact sheets), instead of a temp folder */
  keepVideos?: string;
}

const LAST_RUN = path.resolve(import.meta.dirname, 'last-run', 'flows-recorded.json');

export async function runFlowsSet(options: FlowsOptions): Promise<number> {
  const { present, missing } = presentFlowSites();
  if (missing.length > 0 && !options.json) {
    console.error(`The flows set: ${missing.length} of ${flowSites().length} sites are not on this machine (looked in ${flowPagesDir()}): ${missing.map((s) => s.name).join(', ')}. See scripts/eval-story/README.md.`);
  }
  let runs = flowRuns(present);
  if (options.site) runs = runs.filter((r) => r.site === options.site);
  if (options.batch) runs = runs.filter((r) => r.batch === options.batch);
  if (options.caseNumber) runs = runs.filter((r) => r.number === options.caseNumber);
  if (runs.length === 0) {
    console.error('No flow cases to run.');
    return 2;
  }
  const partial = Boolean(options.site || options.batch || options.caseNumber);

  const server = await startFixtureServer({ root: flowPagesDir() });
  const videos = options.keepVideos ? path.resolve(options.keepVideos) : await mkdtemp(path.join(os.tmpdir(), 'eval-flows-'));
  mkdirSync(videos, { recursive: true });
  const results: FlowResult[] = [];
  try {
    // Recorded one at a time (a recording wants the machine to itself); each video is read by OCR while the next
    // case records, one reading behind at most.
    const reading: Array<Promise<void>> = [];
    for (const [index, run] of runs.entries()) {
      const recorded = await recordCase(run, `${server.origin}/${run.site}/${run.startPath}`, path.join(videos, `${run.site}-${run.number}.mp4`));
      reading.push(
        scoreCase(run, recorded).then((result) => {
          results[index] = result;
          if (!options.json) console.error(`[${index + 1}/${runs.length}] ${caseLine(result)}`);
        }),
      );
      if (reading.length >= 2) await reading.shift();
    }
    await Promise.all(reading);
  } finally {
    await server.close();
    if (!options.keepVideos) await rm(videos, { recursive: true, force: true });
  }

  const previous = existsSync(LAST_RUN) ? (JSON.parse(readFileSync(LAST_RUN, 'utf8')) as { results: FlowResult[] }).results : null;
  if (options.json) console.log(JSON.stringify({ cases: results.length, pass: results.filter((r) => r.pass).length, results }));
  else {
    console.log('\n== The flows set (real multi-page sites, prompts written blind) ==');
    for (const r of results) console.log(caseLine(r));
    console.log('');
    for (const line of summaryLines(results)) console.log(line);
    if (previous) for (const line of diffLines(results, previous)) console.log(line);
    if (options.keepVideos) console.log(`Videos: ${videos}`);
  }
  if (options.save && !partial) {
    mkdirSync(path.dirname(LAST_RUN), { recursive: true });
    writeFileSync(LAST_RUN, `${JSON.stringify({ mode: 'recorded', pass: results.filter((r) => r.pass).length / results.length, results }, null, 1)}\n`);
  }
  return 0;
}

type Recorded = { ok: true; recording: Awaited<ReturnType<typeof recordFlow>> } | { ok: false; error: string };

async function recordCase(run: FlowRun, url: string, out: string): Promise<Recorded> {
  try {
    // The one-shot CLI's own default length (10 s) unless the case says otherwise: what a user gets, and what the
    // held-out measure records.
    return { ok: true, recording: await recordFlow(url, run.prompt, out, run.duration ?? '10s') };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

async function scoreCase(run: FlowRun, recorded: Recorded): Promise<FlowResult> {
  if (!recorded.ok) return unrecorded(run, recorded.error);
  const { recording } = recorded;
  const reading = await readTexts(recording.video, [run.heading, ...run.values]);
  const summary = recording.summary;
  return {
    ...identity(run),
    ...scoreFlow(run, reading),
    ...(typeof summary.template === 'string' ? { template: summary.template } : {}),
    ...(typeof summary.steps === 'number' ? { steps: summary.steps } : {}),
    wallS: Math.round(recording.wallS),
  };
}
