import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFixtureServer } from '../../test/helpers/fixture-server.js';
import { type BeatResult, beatDiffLines, beatLines, figuresOf, LAST_BEAT_S } from './beats.js';
import { recordFlow } from './flows-record.js';
import { readTexts } from './ocr-video.js';
import { presentRealPages, realCases, realPagesDir } from './real-set.js';

/**
 * `npm run eval:story -- --set real --video`: the real set measured as it is measured from outside
 * (../shared/EVAL.md): each case made by the one-shot CLI (`showreel demo URL "PROMPT" --duration 10s --resolution
 * 1080p`, the default look, through flows-record.ts) and its finished video read by OCR (ocr-video.ts, the sampling
 * of story-check.mjs). The paper and recorded modes score the plan's scroll and camera against the analysed page;
 * this one scores the pixels, so a fault between the plan and the picture (a zoom that cuts the heading, an overlay,
 * a frame the encoder lost) shows here and nowhere else. Slow (about 40 s a case): run it on a batch or a site.
 * The last full run is kept in last-run/real-video.json.
 */

export interface VideoOptions {
  site?: string;
  batch?: string;
  json: boolean;
  save: boolean;
  keepVideos?: string;
}

interface VideoResult extends BeatResult {
  heading: string;
  error?: string;
  warnings?: string[];
}

const LAST_RUN = path.resolve(import.meta.dirname, 'last-run', 'real-video.json');

export async function runRealVideos(options: VideoOptions): Promise<number> {
  const { present } = presentRealPages();
  let cases = realCases(present);
  if (options.site) cases = cases.filter((c) => c.site === options.site);
  if (options.batch) cases = cases.filter((c) => c.batch === options.batch);
  if (cases.length === 0) {
    console.error('No real cases to run (is the page on this machine? see README.md).');
    return 2;
  }
  const partial = Boolean(options.site || options.batch);
  const server = await startFixtureServer({ root: realPagesDir() });
  const videos = options.keepVideos ? path.resolve(options.keepVideos) : await mkdtemp(path.join(os.tmpdir(), 'eval-video-'));
  mkdirSync(videos, { recursive: true });
  const results: VideoResult[] = [];
  try {
    // One recording at a time (a recording wants the machine to itself); the OCR of one runs beside the next.
    const reading: Array<Promise<void>> = [];
    for (const [index, c] of cases.entries()) {
      const out = path.join(videos, `${c.site}-${index + 1}.mp4`);
      const base = { site: c.site, prompt: c.prompt, heading: c.heading!, ...(c.twoPart ? { twoPart: true } : {}), ...(c.firstHeading ? { firstHeading: c.firstHeading } : {}), ...(c.batch ? { batch: c.batch } : {}) };
      const recorded = await recordFlow(server.url(c.site), c.prompt, out, '10s').then(
        (recording) => ({ ok: true as const, recording }),
        (error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }),
      );
      reading.push(
        (async () => {
          let result: VideoResult;
          if (!recorded.ok) result = { ...base, longestS: 0, ...(c.firstHeading ? { firstLongestS: 0 } : {}), error: recorded.error };
          else {
            const texts = await readTexts(recorded.recording.video, [c.heading!, ...(c.firstHeading ? [c.firstHeading] : [])]);
            const longest = (text: string) => Math.round((texts.texts.find((t) => t.text === text)?.longestS ?? 0) * 10) / 10;
            const warnings = recorded.recording.summary.warnings;
            result = {
              ...base,
              longestS: longest(c.heading!),
              ...(c.firstHeading ? { firstLongestS: longest(c.firstHeading) } : {}),
              ...(Array.isArray(warnings) && warnings.length > 0 ? { warnings: warnings.map(String) } : {}),
            };
          }
          results[index] = result;
          if (!options.json) console.error(`[${index + 1}/${cases.length}] ${line(result)}`);
        })(),
      );
      if (reading.length >= 2) await reading.shift();
    }
    await Promise.all(reading);
  } finally {
    await server.close();
    if (!options.keepVideos) await rm(videos, { recursive: true, force: true });
  }

  const previous = existsSync(LAST_RUN) ? (JSON.parse(readFileSync(LAST_RUN, 'utf8')) as { results: VideoResult[] }).results : null;
  if (options.json) console.log(JSON.stringify({ ...figuresOf(results), results }));
  else {
    console.log('\n== The real set, from the finished videos (one-shot CLI, 1080p, 10 s; OCR) ==');
    for (const r of results) console.log(line(r));
    const f = figuresOf(results);
    console.log(`\nreal (video): ${f.cases} cases, last heading ≥ 1 s ${f.at1s}/${f.cases}, ≥ ${LAST_BEAT_S} s ${f.at3s}/${f.cases}, every beat ${f.everyBeat}/${f.cases}`);
    for (const text of beatLines(results)) console.log(text);
    if (previous) for (const text of beatDiffLines(results, previous, (r) => `${r.site}\u0000${r.prompt}`)) console.log(text);
    if (options.keepVideos) console.log(`Videos: ${videos}`);
  }
  if (options.save && !partial) {
    mkdirSync(path.dirname(LAST_RUN), { recursive: true });
    writeFileSync(LAST_RUN, `${JSON.stringify({ mode: 'video', results }, null, 1)}\n`);
  }
  return 0;
}

function line(r: VideoResult): string {
  const mark = r.longestS >= LAST_BEAT_S ? 'ok  ' : r.longestS >= 1 ? 'weak' : 'FAIL';
  const first = r.firstLongestS === undefined ? '' : ` (first "${r.firstHeading}" ${r.firstLongestS.toFixed(1)} s)`;
  const note = r.error ? ` [not recorded: ${r.error}]` : r.warnings ? ` [warned: ${r.warnings.join(' | ').slice(0, 120)}]` : '';
  return `${mark} ${r.longestS.toFixed(1).padStart(4)} s  ${r.site.padEnd(18)} ${JSON.stringify(r.prompt)} → "${r.heading.slice(0, 50)}"${first}${note}`;
}
