import type { TemplateId } from '../../demos/presentation.js';
import type { AutoSelection, DemoPlan, DurationTarget, PageContext, PageOutline, PlanStep } from '../types.js';
import { fitSteps } from './fit.js';
import { notFoundIn, onlyFoundShots } from './not-found.js';
import { promptSubjects } from './section-meaning.js';
import { selectTemplate } from './select-template.js';
import { runTemplate } from './templates/index.js';

export interface PlanInput {
  prompt: string;
  outline: PageOutline;
  /** The spec's duration_target, or milliseconds. */
  durationTarget: DurationTarget | number;
  template: { id: TemplateId | 'auto'; sectionHint?: string | null };
  mode: 'script' | 'agent';
  /** The embedding page's title, headings and description (dynamic embeds); the model planner reads them. */
  pageContext?: PageContext | null;
  /** The page's `<html lang>` (issue 36): the model planner writes captions in it. Null or absent: not said. */
  language?: string | null;
}

const durations: Record<DurationTarget, number> = { '5s': 5000, '10s': 10_000, '30s': 30_000 };

export function durationMsFor(target: DurationTarget | number): number {
  return typeof target === 'number' ? Math.max(0, Math.round(target)) : durations[target];
}

/**
 * How much longer than the budget a plan may take at its natural pace before steps are dropped: up to this, the
 * compiler shortens dwells and speeds up scrolls; beyond it everything would look rushed.
 */
const COMFORT = 1.5;

/** Fits the steps to the budget, not rushed beyond COMFORT; never empty. */
export function fitPlanSteps(steps: PlanStep[], outline: PageOutline, budgetMs: number, templateId?: TemplateId): PlanStep[] {
  const fitted = fitSteps(steps, outline, budgetMs, COMFORT, templateId);
  return fitted.length > 0 ? fitted : [{ action: 'pause', label: 'Hold on the page' }];
}

/**
 * The default planner: deterministic, offline. Resolves `auto` with the rule table, runs the template for the
 * budget and fits the result to it. `mode` does not change the plan: in agent mode the plan is the intent, and the
 * recorder asks `nextStep` for each step against the page as it is then.
 */
export function planDemo(input: PlanInput): DemoPlan {
  const durationMs = durationMsFor(input.durationTarget);
  const requestedHint = input.template.sectionHint?.trim() ? input.template.sectionHint.trim().slice(0, 120) : null;
  let autoSelection: AutoSelection | null = null;
  let templateId: TemplateId;
  let sectionHint = requestedHint;
  if (input.template.id === 'auto') {
    autoSelection = selectTemplate({ prompt: input.prompt, outline: input.outline, sectionHint: requestedHint });
    templateId = autoSelection.selectedId;
    sectionHint = requestedHint ?? autoSelection.sectionHint ?? null;
  } else {
    templateId = input.template.id;
  }
  const templateSteps = runTemplate(templateId, { outline: input.outline, budgetMs: durationMs, prompt: input.prompt, sectionHint });
  // Issue 55: what the prompt asks for that the page lacks is said, not shown as something else without a word; when
  // other beats were found, the time goes to them.
  const meaning = promptSubjects(input.prompt, input.outline);
  const notFound = notFoundIn(input.prompt, meaning, { steps: templateSteps, sectionHint }, input.outline);
  const steps = onlyFoundShots(templateSteps, meaning, notFound);
  return {
    templateId,
    autoSelection,
    sectionHint,
    durationMs,
    source: 'heuristic',
    steps: fitPlanSteps(steps, input.outline, durationMs, templateId),
    notFound,
  };
}
