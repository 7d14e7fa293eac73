import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileScript, compileStep } from '../../../src/pipeline/plan/compile.js';
import type { DemoPlan, PlanStep, ScriptStep, Target } from '../../../src/pipeline/types.js';
import { assertScript, maxScroll } from './checks.js';
import { formAppOutline, saasOutline } from './outlines.js';

const planOf = (steps: PlanStep[], durationMs: number, templateId: DemoPlan['templateId'] = 'cinematic'): DemoPlan => ({
  templateId,
  autoSelection: null,
  sectionHint: null,
  durationMs,
  source: 'ai',
  steps,
});

const options = { url: 'http://localhost:4000/saas/', viewport: 'desktop' as const };
const ofKind = <K extends ScriptStep['kind']>(steps: ScriptStep[], kind: K) => steps.filter((step): step is Extract<ScriptStep, { kind: K }> => step.kind === kind);

describe('compiling a plan into the recorder script', () => {
  it('scrolls to a section below the sticky header, and clamps targets to the page', () => {
    const outline = saasOutline();
    const script = compileScript(
      planOf(
        [
          { action: 'scroll', sectionId: 'features', toY: 0, label: 'to features' },
          { action: 'scroll', sectionId: 'footer', toY: 0, label: 'to the footer' },
          { action: 'scroll', sectionId: null, toY: -400, label: 'above the top' },
          { action: 'scroll', sectionId: null, toY: 99_999, label: 'past the bottom' },
          { action: 'scroll', sectionId: 'no-such-section', toY: 1234.6, label: 'unknown section: the planned position' },
        ],
        30_000,
      ),
      outline,
      options,
    );
    assertScript(script, outline, 30_000, 'scrolls');
    assert.deepEqual(
      ofKind(script.steps, 'scroll').map((step) => [step.label, step.toY]),
      [
        ['to features', 1020 - 72 - 16],
        ['to the footer', maxScroll(outline)],
        ['above the top', 0],
        ['past the bottom', maxScroll(outline)],
        ['unknown section: the planned position', 1235],
      ],
    );
  });

  it('moves the cursor before every hover, click and type, and scrolls to targets that are off screen', () => {
    const outline = formAppOutline();
    const email = outline.forms[0]!.fields[2]!;
    const book = outline.actions[0]!;
    const script = compileScript(
      planOf(
        [
          { action: 'hover', target: book, label: 'hover Book now' },
          { action: 'type', target: email, text: 'ada@example.com', label: 'type the email' },
          { action: 'hover', target: outline.navigation[1]!, label: 'hover the sticky nav' },
        ],
        10_000,
        'conversion-flow',
      ),
      outline,
      options,
    );
    assertScript(script, outline, 10_000, 'targets');
    const kinds = script.steps.map((step) => step.kind);
    assert.deepEqual(kinds.filter((kind) => kind !== 'wait'), ['move', 'hover', 'scroll', 'move', 'click', 'type', 'move', 'hover']);
    const reveal = ofKind(script.steps, 'scroll')[0]!;
    assert.match(reveal.label, /Bring "Email" into view/);
    // Centred in the band below the 64 px header.
    assert.equal(reveal.toY, Math.round(1500 + 24 - (64 + (900 - 64) / 2)));
    // The sticky navigation is on screen at any scroll position: no scroll back up for it.
    assert.equal(ofKind(script.steps, 'scroll').length, 1);
  });

  it('types at a human cadence of 70–120 ms a character', () => {
    const outline = formAppOutline();
    const fields = outline.forms[0]!.fields;
    const texts = ['Ada', 'Lovelace', 'ada@example.com', '+44 20 7946 0958'];
    for (const durationMs of [10_000, 30_000]) {
      const script = compileScript(
        planOf(texts.map((text, i) => ({ action: 'type', target: fields[i]!, text, label: `type ${text}` })), durationMs, 'conversion-flow'),
        outline,
        options,
      );
      assertScript(script, outline, durationMs, 'typing');
      for (const step of ofKind(script.steps, 'type')) {
        const perChar = step.durationMs / step.text.length;
        assert.ok(perChar >= 70 && perChar <= 120.5, `${step.text}: ${perChar.toFixed(1)} ms a character in ${durationMs} ms`);
      }
    }
    // A long text is typed faster rather than cut, and capped.
    const long = 'x'.repeat(200);
    const script = compileScript(planOf([{ action: 'type', target: fields[5]!, text: long, label: 'long' }], 10_000), outline, options);
    const typed = ofKind(script.steps, 'type')[0]!;
    assert.equal(typed.text, long);
    assert.ok(typed.durationMs <= 3200, `capped (${typed.durationMs} ms)`);
  });

  it('dwells on a card inside a tall section where the plan scrolled, never moving back up to the section heading', () => {
    const outline = saasOutline();
    const features = outline.sections.find((section) => section.id === 'features')!;
    features.rect = { ...features.rect, height: 1800 };
    features.headingRect = { x: 560, y: 1060, width: 320, height: 48 };
    const card: Target = { label: 'Battery repair', selector: '#features .card:nth-child(5) h3', fallbackSelectors: [], rect: { x: 160, y: 2400, width: 280, height: 30 } };
    const deep = compileScript(
      planOf(
        [
          { action: 'scroll', sectionId: null, toY: 2200, label: 'Scroll to "Battery repair" in "Features"' },
          { action: 'focus', sectionId: 'features', label: 'Focus on "Features"' },
          { action: 'hover', target: card, label: 'Hover "Battery repair"' },
          { action: 'pause', label: 'Dwell on "Features"', holdMs: 3000 },
        ],
        10_000,
        'section-focus',
      ),
      outline,
      options,
    );
    assertScript(deep, outline, 10_000, 'a card deep in its section');
    // The recorder brings a section it moves to back to its heading: a whip up and down again on the video.
    assert.deepEqual(ofKind(deep.steps, 'move').map((step) => step.target.selector), ['#features .card:nth-child(5) h3']);
    assert.deepEqual(ofKind(deep.steps, 'scroll').map((step) => step.toY), [2200]);
    assert.ok(ofKind(deep.steps, 'wait').some((step) => step.label === 'Focus on "Features"'), 'the shot still dwells where the plan put it');

    const atHeading = compileScript(
      planOf([{ action: 'scroll', sectionId: 'features', toY: 0, label: 'to features' }, { action: 'focus', sectionId: 'features', label: 'Focus on "Features"' }], 10_000, 'section-focus'),
      outline,
      options,
    );
    assert.deepEqual(ofKind(atHeading.steps, 'move').map((step) => step.target.selector), ['#features'], 'with its heading in view, the shot moves to the section');
  });

  it('fills any budget exactly, squeezing or dropping steps when time is short', () => {
    const outline = saasOutline();
    const target: Target = outline.actions[0]!;
    const steps: PlanStep[] = [
      { action: 'pause', label: 'open' },
      { action: 'scroll', sectionId: 'features', toY: 0, label: 'features' },
      { action: 'focus', sectionId: 'features', label: 'focus features' },
      { action: 'scroll', sectionId: 'pricing', toY: 0, label: 'pricing' },
      { action: 'hover', target, label: 'hover' },
      { action: 'pause', label: 'close' },
    ];
    for (const durationMs of [0, 1, 333, 1234, 2500, 5000, 7777, 10_000, 30_000, 60_001]) {
      const script = compileScript(planOf(steps, durationMs), outline, options);
      assertScript(script, outline, durationMs, `${durationMs} ms`);
    }
    const tight = compileScript(planOf(steps, 1500), outline, options);
    assert.ok(!tight.steps.some((step) => step.label === 'open' || step.label === 'close'), 'pauses go first when time is short');
    const roomy = compileScript(planOf(steps, 30_000), outline, options);
    assert.ok(ofKind(roomy.steps, 'wait').at(-1)!.label === 'Hold on the last frame');
    assert.ok(ofKind(roomy.steps, 'wait').at(-1)!.durationMs < 30_000 / 3, 'spare time is spread, not dumped at the end');
  });

  it('is deterministic and never uses Math.random', () => {
    const outline = formAppOutline();
    const plan = planOf([{ action: 'type', target: outline.forms[0]!.fields[0]!, text: 'Ada', label: 'type' }], 10_000);
    const random = Math.random;
    Math.random = () => {
      throw new Error('Math.random used');
    };
    try {
      assert.deepEqual(compileScript(plan, outline, options), compileScript(plan, outline, options));
    } finally {
      Math.random = random;
    }
  });

  it('compiles one step for agent mode, carrying the scroll position on', () => {
    const outline = saasOutline();
    const first = compileStep({ action: 'scroll', sectionId: 'pricing', toY: 0, label: 'pricing' }, outline, { remainingMs: 10_000 });
    assert.equal(first.state.scrollY, 3320 - 72 - 16);
    assert.equal(first.steps.reduce((sum, step) => sum + step.durationMs, 0), first.durationMs);
    const tier = outline.actions[4]!;
    const second = compileStep({ action: 'hover', target: tier, label: 'tier' }, outline, { remainingMs: 10_000, state: first.state });
    assert.deepEqual(second.steps.map((step) => step.kind), ['move', 'hover'], 'the tier is on screen: no scroll');
    const squeezed = compileStep({ action: 'hover', target: tier, label: 'tier' }, outline, { remainingMs: 300, state: first.state });
    assert.ok(squeezed.durationMs <= 500, 'squeezed towards its minimum');
  });
});
