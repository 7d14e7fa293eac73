import type { TemplateId } from '../../demos/presentation.js';
import type { PageOutline, PlanStep } from '../types.js';
import { seededRandom } from './random.js';
import { expandPlan, pacingFor, totals } from './timing.js';

/**
 * The least time a plan can take and still look human, and the time it takes unhurried. They depend on the
 * template's pacing only through which travels are cuts (its cutBeyondScreens), never on the typing cadence's seed
 * (minimums never do).
 */
export function estimatePlan(steps: PlanStep[], outline: PageOutline, budgetMs: number, templateId: TemplateId = 'section-focus'): { minMs: number; naturalMs: number } {
  return totals(expandPlan(steps, outline, budgetMs, pacingFor(templateId), seededRandom('estimate')));
}

/**
 * The plan without its least important part, or null when only one step is left. In order: a pause (dwelling is
 * what a short video gives up first) that is not a beat's hold, a focus, the visit before the closing one (its scroll
 * and the steps after it, so no hover is left pointing at a section no longer scrolled to; the opening before the
 * first scroll and the closing visit stay: a beat is left out whole rather than passed through), a beat's hold, the
 * last step.
 */
export function dropOne(steps: PlanStep[]): PlanStep[] | null {
  if (steps.length <= 1) return null;
  const without = (start: number, end = start + 1) => [...steps.slice(0, start), ...steps.slice(end)];
  const hold = (step: PlanStep) => step.action === 'pause' && step.holdMs !== undefined;
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.action === 'pause' && !hold(steps[i]!)) return without(i);
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.action === 'focus') return without(i);
  const visits = steps.flatMap((step, i) => (step.action === 'scroll' && i > 0 ? [i] : []));
  if (visits.length >= 2) {
    const start = visits[visits.length - 2]!;
    return without(start, visits[visits.length - 1]!);
  }
  for (let i = steps.length - 1; i >= 0; i--) if (hold(steps[i]!)) return without(i);
  return without(steps.length - 1);
}

/**
 * Drops parts of the plan (see dropOne) until its minimum duration fits the budget and its natural duration is at
 * most `comfort` times the budget (beyond that everything left would look rushed). Empty only when not even one step
 * fits.
 */
export function fitSteps(steps: PlanStep[], outline: PageOutline, budgetMs: number, comfort = Infinity, templateId?: TemplateId): PlanStep[] {
  let fitted = [...steps];
  while (fitted.length > 0) {
    const { minMs, naturalMs } = estimatePlan(fitted, outline, budgetMs, templateId);
    if (minMs <= budgetMs && naturalMs <= budgetMs * comfort) return fitted;
    const shorter = dropOne(fitted);
    if (!shorter) return minMs <= budgetMs ? fitted : [];
    fitted = shorter;
  }
  return fitted;
}
