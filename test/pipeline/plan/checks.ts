import assert from 'node:assert/strict';
import type { ActionScript, DemoPlan, PageOutline, ScriptStep } from '../../../src/pipeline/types.js';

/** What every plan and every compiled script must satisfy, whatever the template and the page. */

export const maxScroll = (outline: PageOutline) => Math.max(0, outline.documentHeight - outline.viewport.height);

export function assertPlan(plan: DemoPlan, outline: PageOutline, context = ''): void {
  assert.ok(plan.steps.length > 0, `${context}: the plan is never empty`);
  const ids = new Set(outline.sections.map((section) => section.id));
  for (const step of plan.steps) {
    assert.ok(step.label.length > 0, `${context}: every step has a label`);
    if (step.action === 'scroll') {
      assert.ok(step.toY >= 0 && step.toY <= maxScroll(outline), `${context}: scroll to ${step.toY} is within the page`);
      if (step.sectionId !== null) assert.ok(ids.has(step.sectionId), `${context}: scroll names a real section`);
    }
    if (step.action === 'focus') assert.ok(ids.has(step.sectionId), `${context}: focus names a real section`);
    if (step.action === 'hover' || step.action === 'click' || step.action === 'type') {
      assert.ok(step.target.selector.length > 0, `${context}: targets have a selector`);
    }
  }
}

export function assertScript(script: ActionScript, outline: PageOutline, durationMs: number, context = ''): void {
  assert.equal(script.version, 1);
  assert.equal(script.durationMs, durationMs, `${context}: the script lasts the target`);
  let at = 0;
  for (const step of script.steps) {
    assert.equal(step.startMs, at, `${context}: steps follow one another without gaps (${step.label})`);
    assert.ok(Number.isInteger(step.durationMs) && step.durationMs > 0, `${context}: whole positive durations (${step.label})`);
    at += step.durationMs;
  }
  assert.equal(at, durationMs, `${context}: durations add up to exactly ${durationMs} ms`);
  script.steps.forEach((step, index) => {
    if (step.kind === 'scroll') {
      assert.ok(Number.isInteger(step.toY) && step.toY >= 0 && step.toY <= maxScroll(outline), `${context}: scroll target ${step.toY} is clamped`);
    }
    if (step.kind === 'hover' || step.kind === 'click') {
      assertMovedTo(script.steps, index, step.target.selector, context);
    }
    if (step.kind === 'type') {
      const click = script.steps[index - 1];
      assert.ok(click?.kind === 'click' && click.target.selector === step.target.selector, `${context}: typing follows a click into the field`);
    }
  });
}

function assertMovedTo(steps: ScriptStep[], index: number, selector: string, context: string): void {
  const before = steps[index - 1];
  const step = steps[index]!;
  // A click into a field is itself preceded by the move; a hover or click of anything else directly.
  assert.ok(before?.kind === 'move' && before.target.selector === selector, `${context}: the cursor moves to "${step.label}" first`);
}

export function scriptKinds(script: ActionScript): string[] {
  return script.steps.map((step) => step.kind);
}
