import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { analysePage } from '../../../src/pipeline/analyse/analyse-page.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { beatsOf, planWarnings } from '../../../src/pipeline/plan/not-found.js';
import type { DemoPlan, PageOutline } from '../../../src/pipeline/types.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.js';

let server: FixtureServer;
let browser: Browser;
/** Flowboard, the SaaS fixture: a hero, customers, features, testimonials, pricing, a FAQ; no podcast, no job openings. */
let saas: PageOutline;

before(async () => {
  server = await startFixtureServer();
  browser = await launchBrowser({ allowPrivate: true });
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 810 });
  await page.goto(server.url('saas'), { waitUntil: 'load', timeout: 30_000 });
  saas = (await analysePage(page, { timeoutMs: 30_000 })).outline;
  await page.close();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const plan = (prompt: string) => planDemo({ prompt, outline: saas, durationTarget: '10s', template: { id: 'auto' }, mode: 'script' });

/** The sections the plan frames (its focus steps), in order. */
const framed = (p: DemoPlan) => p.steps.flatMap((step) => (step.action === 'focus' ? [step.sectionId] : []));

describe('a beat of the prompt that the page does not have', () => {
  it('is named in a warning, and the plan frames only the beat that was found, not a stand-in for the missing one', () => {
    const planned = plan('Show the podcast, then end on the pricing');
    assert.deepEqual(planWarnings(planned), ['Couldn’t find “the podcast” on this page; the video shows the parts that were found.']);
    assert.deepEqual(planned.notFound, [{ clause: 'the podcast' }]);
    const pricing = saas.sections.find((section) => section.kind === 'pricing')!;
    assert.deepEqual([...new Set(framed(planned))], [pricing.id]);
    // Asked for alone, the pricing gets a glance at the hero on the way; here that time goes to the pricing.
    assert.ok(framed(plan('End on the pricing')).length > 1, 'a plan for the pricing alone opens on the hero');
  });

  it('is named when it is joined to a found beat by "and", and each missing beat is named once', () => {
    assert.deepEqual(planWarnings(plan('Show the podcast and the FAQ')), ['Couldn’t find “the podcast” on this page; the video shows the parts that were found.']);
    assert.deepEqual(
      plan('Show the podcast, then the job openings, then end on the pricing').notFound?.map((missing) => missing.clause),
      ['the podcast', 'the job openings'],
    );
  });

  it('when nothing the prompt asks for is on the page, the fallback plan still runs and the warning says what it showed', () => {
    const planned = plan('Show the podcast');
    assert.ok(planned.steps.length > 1, 'a demo is still planned');
    const [missing] = planned.notFound ?? [];
    assert.equal(missing?.clause, 'the podcast');
    assert.ok(missing?.shownInstead, 'it says what was shown instead');
    assert.ok(saas.sections.some((section) => section.heading === missing.shownInstead), `"${missing.shownInstead}" is a heading of the page`);
    assert.deepEqual(planWarnings(planned), [`Couldn’t find “the podcast” on this page; showed “${missing.shownInstead}” instead.`]);
  });
});

describe('a prompt the page answers', () => {
  it('yields no warning, beat by beat or as a whole', () => {
    for (const prompt of [
      'Show the customer stories, then end on the pricing',
      'How much does it cost?',
      'Answer the common doubts',
      // Asks for nothing in particular: nothing can be missing.
      'Walk me through it',
      'Give a quick tour',
      'Make it snappy and polished',
      'Make it feel premium, under 10 seconds',
    ]) {
      assert.deepEqual(planWarnings(plan(prompt)), [], prompt);
    }
  });

  it('reads a list that describes one beat as that beat, not as beats of their own', () => {
    // The page's logos are Northstar, Quantive, Helio…: the names the prompt gives are nowhere on it, but they only
    // describe the beat that was found.
    assert.deepEqual(planWarnings(plan('Show the logo row of the teams that use it, with Vercel, Linear and Notion')), []);
    assert.deepEqual(
      beatsOf('Show the logo row with Adobe, eBay and Airbnb. Then the team and their roles, and how to reach them').map((beat) => beat.text),
      ['Show the logo row with Adobe, eBay and Airbnb', 'the team and their roles', 'how to reach them'],
    );
  });
});
