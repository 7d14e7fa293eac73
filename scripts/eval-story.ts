/**
 * `npm run eval:story`: does the video show what the prompt asks for, whole and long enough to read? For every case
 * of scripts/eval-story/cases.ts, plans a 10 s demo of the fixture page and measures how long the expected
 * section's heading is wholly on screen (see score.ts). Each case is recorded in Chromium (record-case.ts) and scored
 * from the timeline the recorder reported; `--paper` scores the compiled script without recording (seconds instead
 * of minutes; the test's fast subset does that). Prints each case, the pass rates at ≥ 1 s and ≥ 3 s and the
 * failures. `--json` prints the results as one JSON object; `--site NAME` runs only that fixture's cases (a new
 * fixture's first look; quote the whole run).
 */
import { launchBrowser } from '../src/pipeline/browser/launch.js';
import { startFixtureServer } from '../test/helpers/fixture-server.js';
import { storyCases, type StoryCase } from './eval-story/cases.js';
import { recordCase } from './eval-story/record-case.js';
import { analyseSite, planCase, recordedScrollCurve, scoreCase, scoreTimeline, type AnalysedSite } from './eval-story/score.js';

const json = process.argv.includes('--json');
const paper = process.argv.includes('--paper');
const siteArg = process.argv.indexOf('--site');
const onlySite = siteArg >= 0 ? process.argv[siteArg + 1] : undefined;
const cases = onlySite ? storyCases.filter((c) => c.site === onlySite) : storyCases;
if (cases.length === 0) {
  console.error(`No story cases for the site ${JSON.stringify(onlySite)}.`);
  process.exit(2);
}
const server = await startFixtureServer();
const browser = await launchBrowser({ allowPrivate: true }); // the fixture sites are on loopback
try {
  const sites = new Map<string, AnalysedSite>();
  for (const site of new Set(cases.map((c) => c.site))) sites.set(site, await analyseSite(browser, server.url(site)));
  const results: Array<StoryCase & { template: string; hint: string | null; readableS: number; longestS: number; endsOnOverview: boolean }> = [];
  for (const c of cases) {
    const site = sites.get(c.site)!;
    let score;
    if (paper) score = scoreCase(site, c.prompt, c.expect);
    else {
      const { plan, script } = planCase(site, c.prompt);
      const timeline = await recordCase(browser, site.url, script);
      score = scoreTimeline(site, plan, timeline, recordedScrollCurve(timeline), c.expect);
    }
    if (!json) process.stderr.write('.');
    results.push({ ...c, template: score.plan.templateId, hint: score.plan.sectionHint, readableS: score.readableS, longestS: score.longestS, endsOnOverview: score.endsOnOverview });
  }
  if (!json) process.stderr.write('\n');
  const rate = (s: number) => results.filter((r) => r.readableS >= s).length / results.length;
  const failures = results.filter((r) => r.readableS < 3);
  if (json) {
    console.log(JSON.stringify({ cases: results.length, at1s: rate(1), at3s: rate(3), results }));
  } else {
    for (const r of results) {
      const mark = r.readableS >= 3 ? 'ok  ' : r.readableS >= 1 ? 'weak' : 'FAIL';
      console.log(`${mark} ${r.readableS.toFixed(1).padStart(4)} s  ${r.site.padEnd(13)} ${JSON.stringify(r.prompt)} → #${r.expect} via ${r.template}${r.hint ? ` ("${r.hint}")` : ''}${r.endsOnOverview ? '' : ' [ends zoomed]'}`);
    }
    console.log(`\n${results.length} cases (${paper ? 'scored on paper' : 'recorded'}): ${(rate(1) * 100).toFixed(0)}% readable ≥ 1 s, ${(rate(3) * 100).toFixed(0)}% readable ≥ 3 s`);
    if (failures.length > 0) {
      console.log('Below 3 s:');
      for (const r of failures) console.log(`  ${r.site} ${JSON.stringify(r.prompt)}: #${r.expect} "${r.heading}" readable ${r.readableS.toFixed(1)} s (${r.template})`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
