import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { storyMembers } from '../../../src/demos/representation.js';
import { planDemo, type PlanInput } from '../../../src/pipeline/plan/heuristic-planner.js';
import { planWithOpenAI, type OpenAIPlannerOptions } from '../../../src/pipeline/plan/openai-planner.js';
import { storyBeats } from '../../../src/pipeline/story-text/beats.js';
import { factsOnPage } from '../../../src/pipeline/story-text/captions.js';
import { timeStory } from '../../../src/pipeline/story-text/chapters.js';
import { CAPTION_LIMITS, type TimedStory } from '../../../src/pipeline/story-text/types.js';
import type { DemoPlan, InteractionTimeline, OutlineSection, PageOutline, SectionKind } from '../../../src/pipeline/types.js';

/**
 * Issue 36, captions written by the model planner: in the page's language, checked as the offline ones are, and
 * replaced (by the offline caption on an English page, by none on another) when they fail. The model is a local
 * stand-in speaking the chat completions protocol (there is no internet here); each test says what it answers.
 */

const section = (id: string, kind: SectionKind, heading: string, y: number, text: string): OutlineSection => ({
  id, kind, heading, text, label: heading, selector: `#${id}`, fallbackSelectors: [], rect: { x: 0, y, width: 1440, height: 700 },
});

const outlineOf = (title: string, sections: OutlineSection[]): PageOutline => ({
  url: 'http://localhost/studio/', title, description: null, viewport: { width: 1440, height: 810 }, documentHeight: 5000,
  stickyHeaderHeight: 64, navigation: [], sections, actions: [], forms: [], media: [], dismissedOverlays: [],
});

/** The studio's page in French (`<html lang="fr">`): its team and its rates. */
const frenchStudio = () =>
  outlineOf('Studio Fernhill', [
    section('accueil', 'hero', 'Des marques qui ont une âme', 0, 'Un studio indépendant pour les identités et les sites web.'),
    section('equipe', 'content', 'Le studio', 1400, 'Sept designers, rédacteurs et développeurs à Bordeaux. 98 % des clients reviennent.'),
    section('tarifs', 'pricing', 'Tarifs', 2100, 'Devis fixes : Sprint 6 000 €, Projet 18 000 €, Forfait mensuel 4 000 €.'),
  ]);

/** The same studio in English. */
const englishStudio = () =>
  outlineOf('Fernhill studio', [
    section('intro', 'hero', 'Brands that feel like somebody made them', 0, 'An independent studio for identity and websites.'),
    section('people', 'content', 'The studio', 1400, 'Seven designers, writers and developers in Bristol. 98% of clients return.'),
    section('rates', 'pricing', 'Rates', 2100, 'Fixed quotes: Sprint £6k, Project £18k, Retainer £4k a month.'),
  ]);

/** The model's steps: show two sections, each scrolled to and framed. */
const twoSectionSteps = (first: string, second: string) => [
  { action: 'scroll', sectionId: first, label: `Scroll to ${first}` },
  { action: 'focus', sectionId: first, label: `Focus on ${first}` },
  { action: 'scroll', sectionId: second, label: `Scroll to ${second}` },
  { action: 'focus', sectionId: second, label: `Focus on ${second}` },
];

/**
 * A recording of the plan as the recorder names its steps (by the plan's labels): a 2 s opening, then 2 s a step,
 * each framing followed by a 2 s hold on the section (a wait, which is what separates one beat from the next).
 */
function timelineFor(plan: DemoPlan): InteractionTimeline {
  const steps: InteractionTimeline['steps'] = [{ index: 0, kind: 'wait', label: 'Open on the page', startMs: 0, endMs: 2000 }];
  const record = (kind: string, label: string) => {
    const startMs = steps.at(-1)!.endMs;
    steps.push({ index: steps.length, kind, label, startMs, endMs: startMs + 2000 } as InteractionTimeline['steps'][number]);
  };
  for (const step of plan.steps) {
    record(step.action === 'scroll' ? 'scroll' : step.action === 'focus' ? 'move' : 'wait', step.label);
    if (step.action === 'focus') record('wait', `Hold: ${step.label}`);
  }
  return {
    viewport: { width: 1440, height: 810, deviceScaleFactor: 1 }, durationMs: steps.at(-1)!.endMs,
    cursor: [], clicks: [], keystrokes: [], scrolls: [], focus: [], steps,
  };
}

function assertLimits(story: TimedStory) {
  for (const caption of story.captions) {
    assert.ok(caption.lines.length >= 1 && caption.lines.length <= CAPTION_LIMITS.lines, JSON.stringify(caption.lines));
    for (const line of caption.lines) assert.ok(line.length <= CAPTION_LIMITS.lineChars, line);
    assert.ok(caption.endMs - caption.startMs >= CAPTION_LIMITS.minMs && caption.endMs - caption.startMs <= CAPTION_LIMITS.maxMs);
  }
}

describe('captions written by the model planner', () => {
  let server: http.Server;
  let baseUrl: string;
  let answer: (() => string) | null;
  let requests: Array<{ messages: Array<{ role: string; content: string }> }>;

  before(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        requests.push(JSON.parse(body) as (typeof requests)[number]);
        if (!answer) {
          response.writeHead(503, { 'content-type': 'application/json' });
          response.end('{"error":{"message":"overloaded"}}');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', created: 0, model: 'test-model', choices: [{ index: 0, message: { role: 'assistant', content: answer() }, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = [];
    answer = null;
  });

  const options = (): OpenAIPlannerOptions => ({ baseUrl, model: 'test-model', timeoutMs: 2000, logger: { warn: () => undefined } });
  const input = (outline: PageOutline, language: string | null, prompt = 'Montrez l’équipe puis les tarifs'): PlanInput => ({
    prompt, outline, durationTarget: '10s', template: { id: 'auto' }, mode: 'script', language,
  });
  const modelAnswers = (steps: object[], captions: Array<{ sectionId: string; text: string }>) => {
    answer = () => JSON.stringify({ templateId: 'section-focus', reason: 'Two sections asked for.', confidence: 0.8, steps, captions });
  };
  /** Plans with the model, then times the story and reads it as the demo's detail shows it. */
  async function planAndTell(outline: PageOutline, language: string | null, prompt?: string) {
    const plan = await planWithOpenAI(input(outline, language, prompt), options());
    const text = storyBeats(plan, outline, language);
    const timed = timeStory(text, timelineFor(plan));
    return { plan, text, timed, detail: storyMembers(JSON.stringify(timed)).captions! };
  }

  it('a French page gets the model’s French captions, each fact copied from the section it shows', async () => {
    modelAnswers(twoSectionSteps('equipe', 'tarifs'), [
      { sectionId: 'accueil', text: 'Studio Fernhill : des marques qui ont une âme' },
      { sectionId: 'equipe', text: 'Le studio : 98 % des clients reviennent' },
      { sectionId: 'tarifs', text: 'Tarifs : de 4 000 € à 18 000 €' },
    ]);
    const outline = frenchStudio();
    const { plan, timed, detail } = await planAndTell(outline, 'fr');
    assert.equal(plan.source, 'ai');

    // The model was told the page's language and asked for captions.
    const user = JSON.parse(requests[0]!.messages[1]!.content) as { language: string | null };
    assert.equal(user.language, 'fr');
    assert.match(requests[0]!.messages[0]!.content, /"captions"/);

    assert.deepEqual(timed.captions.map((caption) => caption.lines.join(' ')), [
      'Studio Fernhill : des marques qui ont une âme',
      'Le studio : 98 % des clients reviennent',
      'Tarifs : de 4 000 € à 18 000 €',
    ]);
    assert.deepEqual(detail, { count: 3, language: 'fr', off_reason: null, source: 'model' });
    assertLimits(timed);
    const pageText = outline.title + ' ' + outline.sections.map((s) => `${s.heading} ${s.text}`).join(' ');
    for (const caption of timed.captions) assert.ok(factsOnPage(caption.lines.join(' '), pageText), caption.lines.join(' '));
  });

  it('a model caption with an invented price is rejected: the offline caption replaces it on an English page', async () => {
    modelAnswers(twoSectionSteps('people', 'rates'), [
      { sectionId: 'people', text: 'The studio: 98% of clients return' },
      { sectionId: 'rates', text: 'Rates: projects from £3k' },
    ]);
    const { timed, detail } = await planAndTell(englishStudio(), 'en', 'Show the team, then the rates');
    const shown = timed.captions.map((caption) => caption.lines.join(' '));
    assert.ok(!shown.some((line) => line.includes('£3k')), `the invented price is not shown: ${JSON.stringify(shown)}`);
    assert.ok(shown.includes('Rates: £4k to £18k'), `the offline caption stands in: ${JSON.stringify(shown)}`);
    assert.ok(shown.includes('The studio: 98% of clients return'), 'the model’s true caption is kept');
    assert.equal(detail.source, 'mixed');
    assert.equal(timed.captions.find((caption) => caption.lines.join(' ') === 'Rates: £4k to £18k')!.by, 'rules');
  });

  it('on a French page a rejected caption is replaced by none, and when none passes, captions are off and say why', async () => {
    modelAnswers(twoSectionSteps('equipe', 'tarifs'), [
      { sectionId: 'equipe', text: 'Le studio : 98 % des clients reviennent' },
      { sectionId: 'tarifs', text: 'Tarifs : à partir de 3 500 €' },
    ]);
    const some = await planAndTell(frenchStudio(), 'fr');
    assert.deepEqual(some.timed.captions.map((caption) => caption.lines.join(' ')), ['Le studio : 98 % des clients reviennent']);
    assert.deepEqual(some.detail, { count: 1, language: 'fr', off_reason: null, source: 'model' });

    // An invented name, and a caption too long for two lines: nothing passes.
    modelAnswers(twoSectionSteps('equipe', 'tarifs'), [
      { sectionId: 'equipe', text: 'Le studio préféré de Paris' },
      { sectionId: 'tarifs', text: 'Tarifs : Sprint 6 000 €, Projet 18 000 € et Forfait mensuel 4 000 € pour tous les clients' },
    ]);
    const none = await planAndTell(frenchStudio(), 'fr');
    assert.equal(none.timed.captions.length, 0);
    assert.match(none.detail.off_reason ?? '', /"fr".*none of the model planner's captions passed the checks/);
    assert.equal(none.detail.source, null);
    assert.equal(none.timed.chapters.length, 3, 'the chapters stay');
  });

  it('a model that does not answer leaves a French page without captions, saying so; a broken captions list keeps the plan', async () => {
    const fallback = await planAndTell(frenchStudio(), 'fr');
    assert.equal(fallback.plan.source, 'fallback');
    assert.equal(fallback.timed.captions.length, 0);
    assert.match(fallback.detail.off_reason ?? '', /"fr".*did not answer \(the API answered HTTP 503\)/);

    answer = () => JSON.stringify({ templateId: 'section-focus', reason: 'x', confidence: 0.8, steps: twoSectionSteps('equipe', 'tarifs'), captions: 'Le studio' });
    const broken = await planAndTell(frenchStudio(), 'fr');
    assert.equal(broken.plan.source, 'ai', 'the plan is the model’s');
    assert.equal(broken.timed.captions.length, 0);
    assert.match(broken.detail.off_reason ?? '', /none of the model planner's captions passed/);
  });

  it('without a model, captions are the offline rules’ as before: English captioned, a French page off with the reason', () => {
    const english = englishStudio();
    const plan = planDemo({ ...input(english, 'en', 'Show the team, then the rates') });
    assert.equal(plan.captionDrafts, undefined);
    const timed = timeStory(storyBeats(plan, english, 'en'), timelineFor(plan));
    assert.ok(timed.captions.length > 0);
    assert.ok(timed.captions.every((caption) => caption.by === 'rules'));
    assert.equal(storyMembers(JSON.stringify(timed)).captions!.source, 'rules');

    const french = frenchStudio();
    const frenchPlan = planDemo(input(french, 'fr'));
    const off = timeStory(storyBeats(frenchPlan, french, 'fr'), timelineFor(frenchPlan));
    assert.equal(off.captions.length, 0);
    assert.match(off.captionsOff ?? '', /"fr" and, without a model planner, captions are written in English only/);
  });
});
