import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoTitle, shortenAtWord } from '../../../src/pipeline/plan/demo-title.js';
import { mainSection } from '../../../src/pipeline/plan/main-section.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { compileScript } from '../../../src/pipeline/plan/compile.js';
import { mainShotMs } from '../../../src/pipeline/compose/main-shot.js';
import type { InteractionTimeline, OutlineSection } from '../../../src/pipeline/types.js';
import { saasOutline } from './outlines.js';

const section = (heading: string | null, kicker?: string): OutlineSection => ({
  id: 's', kind: 'pricing', heading, ...(kicker ? { kicker } : {}), text: '', label: heading ?? 'pricing', selector: '#s', fallbackSelectors: [], rect: { x: 0, y: 0, width: 10, height: 10 },
});

describe('the default title of a generated demo', () => {
  it('names the section it shows and what was asked, so two demos of one page differ', () => {
    const outline = saasOutline();
    const pricing = planDemo({ prompt: 'show the pricing plans', outline, durationTarget: '10s', mode: 'script', template: { id: 'auto' } });
    const faq = planDemo({ prompt: 'Answer the common questions.', outline, durationTarget: '10s', mode: 'script', template: { id: 'auto' } });
    const titleOf = (prompt: string, plan: typeof pricing) => demoTitle({ prompt, section: mainSection(plan, outline)?.section ?? null, pageTitle: outline.title });
    assert.equal(titleOf('show the pricing plans', pricing), 'Simple pricing — Show the pricing plans');
    assert.equal(titleOf('Answer the common questions.', faq), 'FAQ — Answer the common questions');
  });

  it('prefers the short label above a heading, set in capitals by the page, to a long heading', () => {
    assert.equal(demoTitle({ prompt: 'Show the pricing plans', section: section('Simple pricing that scales with your whole team', 'PRICING'), pageTitle: 'Flowboard' }), 'Pricing — Show the pricing plans');
    assert.equal(
      demoTitle({ prompt: 'Show the pricing plans', section: section('Simple pricing that scales with your whole growing team'), pageTitle: null }),
      'Simple pricing that scales with your… — Show the pricing plans',
    );
  });

  it('shortens a long prompt at a word, never inside one', () => {
    const prompt = 'Walk through the whole onboarding, from the sign-up form to the first project, and end on the invite screen';
    const title = demoTitle({ prompt, section: null, pageTitle: 'Flowboard' })!;
    assert.ok(title.length <= 72, title);
    assert.ok(title.endsWith('…'), title);
    const kept = title.slice(0, -1);
    assert.ok(prompt.startsWith(kept) && prompt[kept.length] === ' ', `cut inside a word: ${title}`);
    assert.equal(shortenAtWord('short enough', 20), 'short enough');
    assert.equal(shortenAtWord('one two, three', 9), 'one two…');
  });

  it('falls back to the page title when there is no prompt', () => {
    assert.equal(demoTitle({ prompt: '  ', section: section('Pricing'), pageTitle: 'Flowboard — Project planning' }), 'Flowboard — Project planning');
    assert.equal(demoTitle({ prompt: '', section: null, pageTitle: null }), null);
  });
});

describe('the main shot, where the thumbnail is taken', () => {
  it('is the middle of the time the video rests on the asked-for section, not the opening', () => {
    const outline = saasOutline();
    const plan = planDemo({ prompt: 'Show the pricing plans', outline, durationTarget: '10s', mode: 'script', template: { id: 'section-focus', sectionHint: 'pricing' } });
    const chosen = mainSection(plan, outline);
    assert.equal(chosen?.section.id, 'pricing');
    const script = compileScript(plan, outline, { url: outline.url, viewport: 'desktop' });
    // The timeline as the recorder writes it: each script step as run, and the page scrolling while a scroll runs.
    const steps = script.steps.map((step, index) => ({ index, label: step.label, kind: step.kind, startMs: step.startMs, endMs: step.startMs + step.durationMs }));
    const scrolls = script.steps.filter((s) => s.kind === 'scroll').flatMap((s) => [{ t: s.startMs + 10, y: 1 }, { t: s.startMs + s.durationMs, y: 2 }]);
    const timeline: InteractionTimeline = {
      viewport: { width: 1440, height: 900, deviceScaleFactor: 1 }, durationMs: script.durationMs, cursor: [], clicks: [], keystrokes: [], focus: [], scrolls, steps,
    };
    const at = mainShotMs(timeline, chosen!.shot)!;
    const move = steps.find((s) => s.kind === 'move' && s.label === chosen!.shot.stepLabel)!;
    assert.ok(at > move.endMs, `${at} after the cursor reached the section (${move.endMs})`);
    assert.ok(at > 2000, `${at} ms is past the opening (the old default took 1000 ms)`);
    assert.equal(mainShotMs(timeline, { sectionId: 'pricing', stepLabel: 'no such step' }), null);
    assert.equal(mainShotMs(timeline, null), null);
  });
});
