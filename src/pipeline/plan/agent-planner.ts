import type { TemplateId } from '../../demos/presentation.js';
import type { PageOutline, PlanStep, ScriptStep } from '../types.js';
import { seededRandom } from './random.js';
import { selectTemplate } from './select-template.js';
import { runTemplate } from './templates/index.js';
import { allocate, expandPlan, expandStep, initialState, pacingFor, schedule, totals, type ScriptState } from './timing.js';

/**
 * Agent mode: the recorder observes the page after each action (a new outline) and asks for one more step. Each call
 * replans the template over the page as it is now and returns the first step not yet done that fits the time left;
 * a page that changed (a section appeared, the layout moved) changes the plan from there on.
 *
 * Recorder loop:
 *   let state; const history = []; let remainingMs = plan.durationMs;
 *   while ((next = planNextStep({prompt, outline, history, remainingMs, template, totalMs, state}))) {
 *     run next.steps; state = next.state; history.push(next.step); remainingMs -= next.durationMs;
 *     outline = await analyse(page);
 *   }
 *   then hold the last frame for what is left (a few hundred ms at most when the plan fills the time).
 */
export interface AgentStepInput {
  prompt: string;
  /** The page as observed now. */
  outline: PageOutline;
  /** Steps already done, in order (failed ones too: they are not retried). */
  history: PlanStep[];
  remainingMs: number;
  /** The template of the demo's plan (pass `effectiveId`); `auto` or absent selects one from the prompt. */
  template?: { id: TemplateId | 'auto'; sectionHint?: string | null };
  /** The whole duration target; by default the remaining time plus an estimate of the history's. */
  totalMs?: number;
  /** Where the page and the cursor are now; by default replayed from the history. */
  state?: ScriptState;
}

export interface AgentStep {
  step: PlanStep;
  /** The step's recorder instructions, timed from 0, paced so that the rest of the plan fills the time left. */
  steps: ScriptStep[];
  durationMs: number;
  /** Scroll position and cursor after the step: pass it to the next call. */
  state: ScriptState;
}

/** Below this there is no time for another step: the recorder holds the last frame. */
const MIN_STEP_MS = 300;
/** Time kept back so the last step is not cut off by the end of the video. */
const RESERVE_MS = 200;

/** Identifies a step across observations: labels name sections and targets; rects and ids may move. */
function stepKey(step: PlanStep): string {
  switch (step.action) {
    case 'hover':
    case 'click':
      return `${step.action}|${step.label}|${step.target.selector}`;
    case 'type':
      return `type|${step.label}|${step.target.selector}|${step.text}`;
    default:
      return `${step.action}|${step.label}`;
  }
}

/** The next step and its timing, or null when the demo is done (no time, or nothing left to show). */
export function planNextStep(input: AgentStepInput): AgentStep | null {
  const { prompt, outline, history, remainingMs } = input;
  if (remainingMs < MIN_STEP_MS) return null;
  const requested = input.template ?? { id: 'auto' as const };
  const requestedHint = requested.sectionHint?.trim() || null;
  let templateId: TemplateId;
  let sectionHint = requestedHint;
  if (requested.id === 'auto') {
    const selection = selectTemplate({ prompt, outline, sectionHint: requestedHint });
    templateId = selection.selectedId;
    sectionHint = requestedHint ?? selection.sectionHint ?? null;
  } else {
    templateId = requested.id;
  }
  const pacing = pacingFor(templateId);
  const random = seededRandom(`${prompt}\n${history.length}`);

  // Where the page is, and how long the history took at its natural pace (when the total is not given).
  let state = initialState(outline);
  let spentMs = 0;
  for (const step of history) spentMs += totals(expandStep(step, outline, state, pacing, random)).naturalMs;
  if (input.state) state = structuredClone(input.state);
  const totalMs = input.totalMs ?? remainingMs + spentMs;

  // The template's plan for the page as it is now, without what was done (counted, so repeated steps stay).
  const done = new Map<string, number>();
  for (const step of history) done.set(stepKey(step), (done.get(stepKey(step)) ?? 0) + 1);
  const pending = runTemplate(templateId, { outline, budgetMs: totalMs, prompt, sectionHint }).filter((step) => {
    const count = done.get(stepKey(step)) ?? 0;
    if (count > 0) done.set(stepKey(step), count - 1);
    return count === 0;
  });

  const available = remainingMs - RESERVE_MS;
  for (let index = 0; index < pending.length; index++) {
    const step = pending[index]!;
    const { minMs, naturalMs } = totals(expandStep(step, outline, structuredClone(state), pacing, random));
    // A scroll to where the page already is does nothing.
    if (naturalMs === 0) continue;
    // A step that fits at its natural pace; or, near the end, any step but a scroll that fits at its quickest
    // (a scroll cut short would end the video on a blur).
    if (naturalMs <= available || (minMs <= available && step.action !== 'scroll')) {
      return timed(pending.slice(index), outline, state, remainingMs, pacing);
    }
  }
  return null;
}

/**
 * Times the first of the remaining steps as the whole rest would be timed in the remaining time (dropping the last
 * ones that cannot fit), so an agent-mode video fills its duration like a compiled script does.
 */
function timed(rest: PlanStep[], outline: PageOutline, state: ScriptState, remainingMs: number, pacing: ReturnType<typeof pacingFor>): AgentStep {
  const seed = `${outline.url}\n${stepKey(rest[0]!)}`;
  let steps = rest;
  let drafts = expandPlan(steps, outline, remainingMs, pacing, seededRandom(seed), state);
  while (steps.length > 1 && totals(drafts).minMs > remainingMs) {
    steps = steps.slice(0, -1);
    drafts = expandPlan(steps, outline, remainingMs, pacing, seededRandom(seed), state);
  }
  const durations = allocate(drafts, Math.max(remainingMs, totals(drafts).minMs));
  const mine = drafts.flatMap((draft, index) => (draft.owner === 0 ? [{ draft, duration: durations[index]! }] : []));
  const durationMs = Math.round(mine.reduce((sum, entry) => sum + entry.duration, 0));
  const after = structuredClone(state);
  expandStep(rest[0]!, outline, after, pacing, () => 0.5);
  return {
    step: rest[0]!,
    steps: schedule(mine.map((entry) => entry.draft), mine.map((entry) => entry.duration), durationMs),
    durationMs,
    state: after,
  };
}

/** The next step only (the recorder can time it with `compileStep`), or null when the demo is done. */
export function nextStep(input: AgentStepInput): PlanStep | null {
  return planNextStep(input)?.step ?? null;
}
