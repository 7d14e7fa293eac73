import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { fastSubset, storyCases } from '../../scripts/eval-story/cases.js';
import { analyseSite, scoreCase, type AnalysedSite } from '../../scripts/eval-story/score.js';
import { launchBrowser } from '../../src/pipeline/browser/launch.js';
import { keywords } from '../../src/pipeline/plan/text-match.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

let server: FixtureServer;
let browser: Browser;

before(async () => {
  server = await startFixtureServer();
  browser = await launchBrowser({ allowPrivate: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('the story evaluation', () => {
  it('has at least 30 cases, and its paraphrases share no word with the heading they ask for', () => {
    assert.ok(storyCases.length >= 30);
    for (const c of storyCases.filter((c) => !c.direct)) {
      const heading = new Set(keywords(c.heading));
      const shared = keywords(c.prompt).filter((word) => heading.has(word));
      assert.deepEqual(shared, [], `${c.site}: "${c.prompt}" shares ${shared.join(', ')} with "${c.heading}"`);
    }
  });

  it('on the fast subset (a page whose menu repeats section names, a page with a stats band and a FAQ), shows the asked-for heading ≥ 3 s in at least 85% of cases, and never ends zoomed in', async () => {
    const cases = fastSubset(storyCases);
    const sites = new Map<string, AnalysedSite>();
    for (const site of new Set(cases.map((c) => c.site))) sites.set(site, await analyseSite(browser, server.url(site)));
    const scores = cases.map((c) => ({ c, score: scoreCase(sites.get(c.site)!, c.prompt, c.expect) }));
    const passed = scores.filter(({ score }) => score.readableS >= 3);
    const failures = scores.filter(({ score }) => score.readableS < 3).map(({ c, score }) => `${c.prompt} → ${score.readableS.toFixed(1)} s`);
    assert.ok(passed.length / cases.length >= 0.85, `${passed.length}/${cases.length}; below 3 s: ${failures.join('; ')}`);
    assert.ok(scores.every(({ score }) => score.endsOnOverview), 'every video ends on the overview');
  });

  it('on pages with a sticky header, no case rests with its heading under the header or cut by the zoom, and each shot zooms in at most once', async () => {
    for (const name of ['brightwater-dental', 'fieldnotes']) {
      const site = await analyseSite(browser, server.url(name));
      assert.ok(site.outline.stickyHeaderHeight > 0, `${name} has a sticky header`);
      for (const c of storyCases.filter((c) => c.site === name)) {
        const score = scoreCase(site, c.prompt, c.expect);
        assert.ok(score.underHeaderS === 0, `${name} "${c.prompt}": the heading rests under the header for ${score.underHeaderS.toFixed(1)} s`);
        assert.ok(score.croppedS === 0, `${name} "${c.prompt}": the zoom cuts the heading for ${score.croppedS.toFixed(1)} s`);
        assert.ok(score.zoomIns <= score.shots, `${name} "${c.prompt}": ${score.zoomIns} zooms in for ${score.shots} shot(s)`);
      }
    }
  });

  it('a pricing shot shows every plan\'s name and its price at once, readable, for at least 3 s', async () => {
    const plans = ['Hobby', '$0', 'Team', '$19/seat/mo', 'Enterprise', 'Custom'];
    const site = await analyseSite(browser, server.url('nightfall'), plans.map((text) => ({ key: `plan:${text}`, text })));
    for (const prompt of ['Show how much it costs for a team', 'Focus on the pricing tiers']) {
      const score = scoreCase(site, prompt, plans.map((text) => `plan:${text}`));
      assert.equal(score.plan.templateId, 'pricing-focus');
      assert.ok(score.longestS >= 3, `"${prompt}": every plan's name and price together for ${score.longestS.toFixed(1)} s`);
      assert.ok(score.endsOnOverview, 'and it ends on the overview');
    }
  });
});
