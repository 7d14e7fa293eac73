import type { TemplateId } from '../../demos/presentation.js';
import type { ActionScript, DemoPlan, PageOutline, PlanStep, ScriptStep, ViewportName } from '../types.js';
import { fitSteps } from './fit.js';
import { seededRandom } from './random.js';
import { allocate, expandPlan, expandStep, initialState, pacingFor, schedule, totals, type ScriptState } from './timing.js';

export interface CompileOptions {
  url: string;
  viewport: ViewportName;
  /** Seeds the typing cadence; by default the plan itself, so the same plan always gives the same script. */
  seed?: string;
}

/**
 * Turns a plan into the recorder's timed script (stored as `action_script`). The durations add up to exactly
 * `plan.durationMs`:
 * - scroll targets come from the section rects minus the sticky header, clamped to [0, documentHeight − viewport];
 *   a step whose target is off screen gets a scroll first;
 * - a hover, click or type is preceded by a `move` of the cursor (and typing by a click into the field), timed by the
 *   distance travelled; typing takes 70–120 ms a character, capped;
 * - spare time goes to dwells and scrolls by the template's pacing, then a final `wait` holds the last frame;
 *   too little time squeezes every step towards its minimum, and steps that still do not fit are dropped.
 * No Math.random: the typing cadence comes from a PRNG seeded with the plan.
 */
export function compileScript(plan: DemoPlan, outline: PageOutline, options: CompileOptions): ActionScript {
  const budgetMs = Math.max(0, Math.round(plan.durationMs));
  const random = seededRandom(options.seed ?? `${options.url}\n${plan.templateId}\n${plan.steps.map((step) => step.label).join('\n')}`);
  const steps = fitSteps(plan.steps, outline, budgetMs, Infinity, plan.templateId);
  const drafts = budgetMs > 0 ? expandPlan(steps, outline, budgetMs, pacingFor(plan.templateId), random) : [];
  return {
    version: 1,
    url: options.url,
    viewport: options.viewport,
    durationMs: budgetMs,
    templateId: plan.templateId,
    steps: schedule(drafts, allocate(drafts, budgetMs), budgetMs),
  };
}

export interface CompiledStep {
  /** Timed from 0; the caller offsets them by where the recording is. */
  steps: ScriptStep[];
  durationMs: number;
  /** Scroll position and cursor after the step, for the next call. */
  state: ScriptState;
}

/**
 * One plan step for agent mode, timed at its natural pace, squeezed when `remainingMs` is shorter (never below its
 * minimum: `nextStep` only offers steps whose minimum fits). Pass the returned state to the next call.
 */
export function compileStep(
  step: PlanStep,
  outline: PageOutline,
  options: { remainingMs: number; state?: ScriptState; templateId?: TemplateId; seed?: string },
): CompiledStep {
  const state = structuredClone(options.state ?? initialState(outline));
  const random = seededRandom(options.seed ?? `${outline.url}\n${step.label}`);
  const drafts = expandStep(step, outline, state, pacingFor(options.templateId ?? 'cinematic'), random);
  const { minMs, naturalMs } = totals(drafts);
  const durationMs = Math.round(Math.max(minMs, Math.min(naturalMs, options.remainingMs)));
  return { steps: schedule(drafts, allocate(drafts, durationMs), durationMs), durationMs, state };
}
