import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileScript } from '../../../src/pipeline/plan/compile.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import { READER_SCREENS_PER_S, SCROLL_PEAK_OVER_MEAN } from '../../../src/pipeline/plan/timing.js';
import type { TemplateId } from '../../../src/demos/presentation.js';
import type { ActionScript, DemoPlan, PageOutline } from '../../../src/pipeline/types.js';
import { estimatePlan } from '../../../src/pipeline/plan/fit.js';
import { docsOutline, formAppOutline, saasOutline } from './outlines.js';

/** The 10 s script a new user gets for this prompt (auto template, default planner), as the recorder runs it. */
function scriptFor(outline: PageOutline, prompt: string, template: TemplateId | 'auto' = 'auto'): ActionScript {
  const plan = planDemo({ prompt, outline, durationTarget: '10s', template: { id: template }, mode: 'script' });
  return compileScript(plan, outline, { url: outline.url, viewport: 'desktop' });
}

/** The shots of a script: from the end of each travel to the start of the next (or the end), with where the page is. */
function shots(script: ActionScript): Array<{ y: number; fromMs: number; toMs: number }> {
  const out: Array<{ y: number; fromMs: number; toMs: number }> = [];
  for (const step of script.steps) {
    if (step.kind !== 'scroll') continue;
    const last = out.at(-1);
    if (last) last.toMs = step.startMs;
    out.push({ y: step.toY, fromMs: step.startMs + step.durationMs, toMs: script.durationMs });
  }
  return out;
}

describe('timing a 10 s demo: a shot per beat, time shared by need', () => {
  it('a two-part prompt holds each beat at least 2.5 s and the last at least 3 s, the first never a pass-through', () => {
    const outline = saasOutline();
    for (const prompt of ['Show what customers say, then end on the pricing', 'Show the integrations, then finish on the FAQ']) {
      const script = scriptFor(outline, prompt);
      const beats = shots(script);
      assert.equal(beats.length, 2, `${prompt}: two shots, one a beat: ${JSON.stringify(script.steps.map((s) => [s.kind, s.label, s.startMs, s.durationMs]))}`);
      const [first, last] = beats as [(typeof beats)[0], (typeof beats)[0]];
      assert.ok(first.toMs - first.fromMs >= 2500, `${prompt}: the first beat is held ${first.toMs - first.fromMs} ms`);
      assert.ok(last.toMs - last.fromMs >= 3000, `${prompt}: the last beat is held ${last.toMs - last.fromMs} ms`);
    }
  });

  it('opens on the first view for at most 1.5 s when the prompt asks for something below it', () => {
    const outline = saasOutline();
    for (const prompt of ['Show what customers say, then end on the pricing', 'What does it cost?', 'End on the free trial signup']) {
      const script = scriptFor(outline, prompt);
      const firstTravel = script.steps.find((step) => step.kind === 'scroll');
      assert.ok(firstTravel, `${prompt}: it travels`);
      assert.ok(firstTravel.startMs <= 1500, `${prompt}: leaves the first view at ${firstTravel.startMs} ms`);
    }
  });

  it('never scrolls faster than a reader follows: a long way is a cut instead', () => {
    const prompts: Array<[PageOutline, string, TemplateId | 'auto']> = [
      [saasOutline(), 'Show what customers say, then end on the pricing', 'auto'],
      [saasOutline(), 'A tour of the product', 'guided-tour'],
      [saasOutline(), 'The whole page', 'cinematic'],
      [saasOutline(), 'Show the integrations', 'auto'],
      [docsOutline(), 'Walk through the docs', 'guided-tour'],
    ];
    let cuts = 0;
    let scrolls = 0;
    for (const [outline, prompt, template] of prompts) {
      const script = scriptFor(outline, prompt, template);
      let y = 0;
      for (const step of script.steps) {
        if (step.kind !== 'scroll') continue;
        const screens = Math.abs(step.toY - y) / outline.viewport.height;
        y = step.toY;
        if (step.cut) {
          cuts++;
          continue;
        }
        scrolls++;
        const peak = (SCROLL_PEAK_OVER_MEAN * screens) / (step.durationMs / 1000);
        assert.ok(peak <= READER_SCREENS_PER_S + 1e-6, `${template} "${prompt}": ${step.label} peaks at ${peak.toFixed(2)} screens/s`);
      }
    }
    assert.ok(cuts > 0 && scrolls > 0, `both kinds of travel were tried (${cuts} cuts, ${scrolls} scrolls)`);
  });
});

describe('timing a page arrived at whose form is then filled', () => {
  it("holds the page's title its full read before the cursor goes to the first field, though the typing is in the same view", () => {
    const outline = formAppOutline();
    outline.forms[0]!.rect = { x: 400, y: 300, width: 640, height: 300 };
    const field = { ...outline.forms[0]!.fields[0]!, rect: { x: 400, y: 420, width: 300, height: 48 } };
    const plan: DemoPlan = {
      templateId: 'conversion-flow', autoSelection: null, sectionHint: null, source: 'heuristic', durationMs: 0,
      steps: [
        { action: 'focus', sectionId: 'top', label: 'Arrive on "Book a consultation"' },
        { action: 'pause', label: 'Read "Book a consultation"', holdMs: 3_200 },
        { action: 'type', target: { label: field.label, selector: field.selector, fallbackSelectors: [], rect: field.rect }, text: 'Lena Fischer', label: 'Type "Lena Fischer" into "First name"' },
      ],
    };
    const natural = estimatePlan(plan.steps, outline, 10_000, plan.templateId).naturalMs;
    const script = compileScript({ ...plan, durationMs: natural }, outline, { url: outline.url, viewport: 'desktop' });
    const arrived = script.steps.find((step) => step.label?.startsWith('Arrive'))!;
    const intoField = script.steps.find((step) => step.kind === 'click')!;
    // The shot is the page's from its first frame: the settle before the arrival counts, as does the cursor's way to the field.
    assert.ok(intoField.startMs >= 3_100, `the title is held ${intoField.startMs} ms before the click into the field`);
  });
});
