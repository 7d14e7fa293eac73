import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TemplateId } from '../../../src/demos/presentation.js';
import { nextStep, planNextStep } from '../../../src/pipeline/plan/agent-planner.js';
import { compileStep } from '../../../src/pipeline/plan/compile.js';
import { planDemo } from '../../../src/pipeline/plan/heuristic-planner.js';
import type { ScriptState } from '../../../src/pipeline/plan/timing.js';
import type { PageOutline, PlanStep, ScriptStep } from '../../../src/pipeline/types.js';
import { maxScroll } from './checks.js';
import { formAppOutline, saasOutline } from './outlines.js';

/**
 * Plays the recorder's part in agent mode: ask for a step, "run" it (compile it and spend its time), observe the page
 * again (here: the outline function, which may change the page between steps), until the planner says done.
 */
function runAgent(options: {
  prompt: string;
  totalMs: number;
  template?: { id: TemplateId | 'auto'; sectionHint?: string };
  observe: (history: PlanStep[]) => PageOutline;
}) {
  const history: PlanStep[] = [];
  const script: ScriptStep[] = [];
  let remainingMs = options.totalMs;
  let state: ScriptState | undefined;
  for (let round = 0; round < 100; round++) {
    const outline = options.observe(history);
    const next = planNextStep({ prompt: options.prompt, outline, history, remainingMs, template: options.template, totalMs: options.totalMs, state });
    if (!next) break;
    assert.equal(next.steps.reduce((sum, step) => sum + step.durationMs, 0), next.durationMs);
    script.push(...next.steps);
    state = next.state;
    history.push(next.step);
    remainingMs -= next.durationMs;
  }
  return { history, script, remainingMs };
}

describe('agent mode: one step at a time against the page as it is', () => {
  it('plays a template step by step within the time, and then stops', () => {
    for (const totalMs of [5000, 10_000, 30_000]) {
      const run = runAgent({ prompt: 'show our pricing plans', totalMs, template: { id: 'pricing-focus' }, observe: () => saasOutline() });
      assert.ok(run.history.length > 0, `${totalMs}`);
      assert.ok(run.remainingMs >= 0, `${totalMs}: never runs over (${run.remainingMs} ms left)`);
      // What is left is the hold on the last frame, as in a compiled script (about a tenth at most).
      assert.ok(run.remainingMs <= totalMs * 0.12, `${totalMs}: fills the time, like a compiled script (${run.remainingMs} ms left)`);
      assert.ok(run.history.some((step) => step.action === 'scroll' && step.sectionId === 'pricing'), `${totalMs}: goes to pricing`);
      assert.ok(run.history.some((step) => step.action === 'hover'), `${totalMs}: hovers a tier`);
      for (const step of run.script) if (step.kind === 'scroll') assert.ok(step.toY >= 0 && step.toY <= maxScroll(saasOutline()));
    }
  });

  it('follows the same choreography as the script plan when the page does not change', () => {
    const outline = saasOutline();
    const plan = planDemo({ prompt: 'a tour', outline, durationTarget: '30s', template: { id: 'guided-tour' }, mode: 'agent' });
    const run = runAgent({ prompt: 'a tour', totalMs: 30_000, template: { id: 'guided-tour' }, observe: () => saasOutline() });
    const visited = (steps: PlanStep[]) => steps.flatMap((step) => (step.action === 'scroll' && step.sectionId ? [step.sectionId] : []));
    assert.deepEqual(visited(run.history), visited(plan.steps));
  });

  it('adapts when the page changes between steps: a section that moved is scrolled to where it is now', () => {
    const run = runAgent({
      prompt: 'show our pricing plans',
      totalMs: 10_000,
      template: { id: 'pricing-focus' },
      observe: (history) => {
        const outline = saasOutline();
        // After the first step, a banner pushes everything below the hero 300 px down.
        if (history.length > 0) {
          outline.documentHeight += 300;
          for (const item of [...outline.sections, ...outline.actions]) if (item.rect.y > 800) item.rect.y += 300;
        }
        return outline;
      },
    });
    const scroll = run.script.find((step) => step.kind === 'scroll' && step.label.includes('pricing'));
    assert.ok(scroll && scroll.kind === 'scroll');
    assert.equal(scroll.toY, 3320 + 300 - 72 - 16);
  });

  it('fills a form field by field and never submits', () => {
    const run = runAgent({ prompt: 'walk through signing up', totalMs: 30_000, template: { id: 'auto' }, observe: () => formAppOutline() });
    const typed = run.history.flatMap((step) => (step.action === 'type' ? [step.text] : []));
    assert.ok(typed.includes('ada@example.com'), JSON.stringify(typed));
    assert.ok(!run.history.some((step) => step.action === 'click'));
  });

  it('a cinematic half a minute long is paced to fill the half minute', () => {
    const run = runAgent({ prompt: 'show the product', totalMs: 30_000, template: { id: 'cinematic' }, observe: () => saasOutline() });
    assert.ok(run.remainingMs <= 30_000 * 0.12, `${run.remainingMs} ms left`);
    assert.ok(run.history.filter((step) => step.action === 'scroll').length >= 5);
  });

  it('nextStep alone gives the step for compileStep to time', () => {
    const outline = saasOutline();
    const step = nextStep({ prompt: 'show our pricing plans', outline, history: [], remainingMs: 10_000, template: { id: 'pricing-focus' } });
    assert.ok(step);
    const compiled = compileStep(step, outline, { remainingMs: 10_000 });
    assert.ok(compiled.durationMs > 0 && compiled.durationMs <= 10_000);
  });

  it('returns null when there is no time left, and does not repeat what was done', () => {
    const outline = saasOutline();
    assert.equal(nextStep({ prompt: 'x', outline, history: [], remainingMs: 150 }), null);
    const first = nextStep({ prompt: 'show our pricing plans', outline, history: [], remainingMs: 10_000, template: { id: 'pricing-focus' } });
    assert.ok(first);
    const second = nextStep({ prompt: 'show our pricing plans', outline, history: [first], remainingMs: 9000, template: { id: 'pricing-focus' } });
    assert.ok(second);
    assert.notDeepEqual(second, first);
  });
});
