import type { TemplateId } from '../../demos/presentation.js';
import type { OutlineSection, PageOutline, PlanStep, Rect, ScriptStep, Target } from '../types.js';
import { centre, clampScrollY, findSection, isFixed, isVisible, revealY, scrollYForSection, sectionName } from './outline-query.js';
import { focalTarget } from './targets.js';

/**
 * The timing model shared by budget fitting and compilation. Each plan step expands into recorder instructions
 * ("drafts"), each with the shortest time it can take and still read as human (minMs), the time it takes at an
 * unhurried pace (naturalMs), how far it may stretch (maxMs) and how eagerly it takes spare time (weight).
 */

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type ScriptBody = DistributiveOmit<ScriptStep, 'startMs' | 'durationMs'>;

export interface Draft {
  step: ScriptStep;
  /** Index of the plan step this came from; -1 for the settle and hold waits around the plan. */
  owner: number;
  /** A beat's pause: its shot (from the scroll before it to the next) lasts at least this long (holdShots). */
  holdMs?: number;
  minMs: number;
  naturalMs: number;
  maxMs: number;
  weight: number;
}

/** Where the page and the cursor are while expanding: document scroll, cursor in viewport coordinates. */
export interface ScriptState {
  scrollY: number;
  cursor: { x: number; y: number };
}

export interface Pacing {
  /** Share of spare time that scrolls take, relative to waits (1). */
  scrollWeight: number;
  /** How many times its natural duration a scroll may last. */
  scrollStretch: number;
  hoverWeight: number;
  /**
   * Travel longer than this many screens is a cut (the recorder jumps, the compositor dissolves) rather than a scroll
   * that would need more time than the plan can give it at a reader's pace.
   */
  cutBeyondScreens: number;
  /** Scrolls no faster than a reader follows (READER_SCREENS_PER_S); not plain-scroll, whose one scroll is the video. */
  readerPaced: boolean;
}

const pacings: Partial<Record<TemplateId, Pacing>> = {
  // Slow, eased travel between sections is the point of the cinematic template.
  cinematic: { scrollWeight: 1.6, scrollStretch: 3.5, hoverWeight: 0.8, cutBeyondScreens: 2.5, readerPaced: true },
  // A steady scroll: nearly all spare time goes into the scroll itself, however long it gets; never a cut.
  'plain-scroll': { scrollWeight: 6, scrollStretch: Infinity, hoverWeight: 0.5, cutBeyondScreens: Infinity, readerPaced: false },
  'hero-spotlight': { scrollWeight: 0.5, scrollStretch: 2, hoverWeight: 1.2, cutBeyondScreens: 1.25, readerPaced: true },
  'pricing-focus': { scrollWeight: 0.7, scrollStretch: 2.5, hoverWeight: 1.1, cutBeyondScreens: 1.25, readerPaced: true },
};
const defaultPacing: Pacing = { scrollWeight: 0.8, scrollStretch: 2.5, hoverWeight: 0.9, cutBeyondScreens: 1.25, readerPaced: true };

/**
 * The fastest a scroll may travel at its peak and still be read as it passes, in screens (viewport heights) a
 * second. The recorder eases along sin², whose peak is twice its average speed: a scroll of d screens takes at least
 * 2d / READER_SCREENS_PER_S seconds (a screen in 1.33 s). Measured from the pixels of held-out demos, scrolls of
 * 4–11 screens a second read as a whip, nothing on the way readable.
 */
export const READER_SCREENS_PER_S = 1.5;
/** The peak speed of the recorder's eased scroll over its average (scrollProfile: sin²). */
export const SCROLL_PEAK_OVER_MEAN = 2;
/** A cut: the jump, then the glide into place (record/steps.ts: CUT_GLIDE_MS) while the compositor dissolves. */
const CUT_MIN_MS = 760;
const CUT_NATURAL_MS = 800;
/**
 * How long the video stays on the page it opens with before it travels to what was asked for: long enough to see
 * whose page it is (the window rises in over the first 0.8 s), short enough not to be a shot of its own. Measured on
 * held-out demos, a median 2.6 s of a still hero before the first travel read as a slow start.
 */
export const OPENING_MS = 1100;

export function pacingFor(templateId: TemplateId): Pacing {
  return pacings[templateId] ?? defaultPacing;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export function initialState(outline: PageOutline): ScriptState {
  return { scrollY: 0, cursor: { x: outline.viewport.width / 2, y: outline.viewport.height * 0.6 } };
}

function draft(step: ScriptBody, minMs: number, naturalMs: number, maxMs: number, weight: number): Draft {
  return { step: { ...step, startMs: 0, durationMs: 0 } as ScriptStep, owner: -1, minMs, naturalMs: Math.max(minMs, naturalMs), maxMs: Math.max(naturalMs, maxMs), weight };
}

export function waitDraft(label: string, minMs: number, naturalMs: number, weight = 1): Draft {
  return draft({ kind: 'wait', label }, minMs, naturalMs, Infinity, weight);
}

/** The shortest an eased scroll of this many px may take and not outrun a reader (READER_SCREENS_PER_S). */
export function readerScrollMs(distance: number, viewportHeight: number): number {
  return (SCROLL_PEAK_OVER_MEAN * (distance / Math.max(1, viewportHeight)) * 1000) / READER_SCREENS_PER_S;
}

/**
 * A scroll, eased no faster than a reader follows; or, past the pacing's cutBeyondScreens, a cut: the page jumps
 * there in one frame and the compositor dissolves the change (cuts.ts). A cut takes no spare time.
 */
function scrollDraft(label: string, fromY: number, toY: number, pacing: Pacing, viewportHeight: number): Draft {
  const distance = Math.abs(toY - fromY);
  if (distance / Math.max(1, viewportHeight) > pacing.cutBeyondScreens) {
    return draft({ kind: 'scroll', toY, label, cut: true }, CUT_MIN_MS, CUT_NATURAL_MS, CUT_NATURAL_MS, 0);
  }
  const reader = pacing.readerPaced ? readerScrollMs(distance, viewportHeight) : 0;
  const natural = Math.max(reader, clamp(450 + distance * 0.5, 600, 2800));
  const min = Math.max(reader, clamp(250 + distance * 0.08, 300, 900));
  return draft({ kind: 'scroll', toY, label }, min, natural, natural * pacing.scrollStretch, pacing.scrollWeight);
}

/** The cursor's destination for a target, in viewport coordinates at this scroll position. */
function pointFor(outline: PageOutline, rect: Rect, scrollY: number): { x: number; y: number } {
  const point = centre(rect);
  return isFixed(outline, rect) ? point : { x: point.x, y: point.y - scrollY };
}

function moveDraft(label: string, state: ScriptState, outline: PageOutline, target: Target): Draft {
  const to = pointFor(outline, target.rect, state.scrollY);
  const distance = Math.hypot(to.x - state.cursor.x, to.y - state.cursor.y);
  state.cursor = to;
  const natural = clamp(300 + distance * 0.45, 400, 1100);
  const min = clamp(150 + distance * 0.15, 200, 500);
  return draft({ kind: 'move', target, label }, min, natural, natural * 1.8, 0.4);
}

/** Scrolls first when a target is off screen, so the cursor never aims at something the viewer cannot see. */
function reveal(drafts: Draft[], state: ScriptState, outline: PageOutline, target: Target, pacing: Pacing): void {
  if (isVisible(outline, target.rect, state.scrollY)) return;
  const toY = revealY(outline, target.rect);
  if (Math.abs(toY - state.scrollY) < 2) return;
  drafts.push(scrollDraft(`Bring "${target.label}" into view`, state.scrollY, toY, pacing, outline.viewport.height));
  state.scrollY = toY;
}

/** Typing cadence: 70–120 ms a character, at most 2.6 s a field (longer text is typed faster, never cut). */
function typeDraft(label: string, target: Target, text: string, random: () => number): Draft {
  const perChar = 70 + random() * 50;
  // The minimum must not depend on the random cadence: budget fitting estimates with another seed.
  const min = clamp(text.length * 40, 200, 1400);
  const natural = clamp(text.length * perChar, 250, 2600);
  const max = Math.max(natural, Math.min(text.length * 120, 3200));
  return draft({ kind: 'type', target, text, label }, min, natural, max, 0.2);
}

/** Where a scroll step goes: the section's place when the outline knows it, else the planned position. */
export function scrollTargetY(outline: PageOutline, step: Extract<PlanStep, { action: 'scroll' }>): number {
  const section = step.sectionId ? findSection(outline, step.sectionId) : null;
  return section ? scrollYForSection(outline, section) : clampScrollY(outline, step.toY);
}

/** The drafts of one plan step, advancing the state. */
export function expandStep(step: PlanStep, outline: PageOutline, state: ScriptState, pacing: Pacing, random: () => number): Draft[] {
  const drafts: Draft[] = [];
  switch (step.action) {
    case 'scroll': {
      const toY = scrollTargetY(outline, step);
      // Already there: nothing to show, and a zero-length scroll would only eat time.
      if (Math.abs(toY - state.scrollY) >= 2) drafts.push(scrollDraft(step.label, state.scrollY, toY, pacing, outline.viewport.height));
      state.scrollY = toY;
      break;
    }
    case 'hover':
      reveal(drafts, state, outline, step.target, pacing);
      drafts.push(moveDraft(`Move to "${step.target.label}"`, state, outline, step.target));
      drafts.push(draft({ kind: 'hover', target: step.target, label: step.label }, 250, 750, 750 * 4, pacing.hoverWeight));
      break;
    case 'click':
      reveal(drafts, state, outline, step.target, pacing);
      drafts.push(moveDraft(`Move to "${step.target.label}"`, state, outline, step.target));
      drafts.push(draft({ kind: 'click', target: step.target, label: step.label }, 120, 220, 400, 0.1));
      break;
    case 'navigate':
      // Issue 56: to the link, a beat on it (the viewer reads where the demo goes), the click; then a short hold for the
      // click's ripple before the next page comes in.
      reveal(drafts, state, outline, step.target, pacing);
      drafts.push(moveDraft(`Move to "${step.target.label}"`, state, outline, step.target));
      drafts.push(draft({ kind: 'navigate', target: step.target, href: step.href, label: step.label }, 450, 700, 1000, 0.1));
      break;
    case 'type':
      reveal(drafts, state, outline, step.target, pacing);
      drafts.push(moveDraft(`Move to "${step.target.label}"`, state, outline, step.target));
      // A person clicks into a field before typing; the click also gives the compositor a focus point.
      drafts.push(draft({ kind: 'click', target: step.target, label: `Click into "${step.target.label}"` }, 120, 200, 350, 0.1));
      drafts.push(typeDraft(step.label, step.target, step.text, random));
      break;
    case 'focus': {
      const section = findSection(outline, step.sectionId);
      if (!section) {
        drafts.push(waitDraft(step.label, 200, 800));
        break;
      }
      if (!isVisible(outline, section.rect, state.scrollY) && !overlapsView(outline, section.rect, state.scrollY)) {
        const toY = scrollYForSection(outline, section);
        drafts.push(scrollDraft(`Scroll to "${sectionName(section)}"`, state.scrollY, toY, pacing, outline.viewport.height));
        state.scrollY = toY;
      }
      // A shot inside a tall section (a card named in it) has its heading above the view: a move to the section
      // there made the recorder bring the heading back (a 0.6-s whip up, then down again to the card). The shot
      // dwells on what the plan put in view; its first hover gives the camera its focus.
      if (headingAboveView(outline, section, state.scrollY)) {
        drafts.push(waitDraft(step.label, 350, 1100));
        break;
      }
      const target = focalTarget(outline, section, state.scrollY);
      drafts.push(moveDraft(step.label, state, outline, target));
      drafts.push(waitDraft(`Dwell on "${sectionName(section)}"`, 250, 900));
      break;
    }
    case 'pause': {
      const wait = waitDraft(step.label, 200, 800);
      // A beat's hold: what it needs is known only once the whole shot is expanded (holdShots).
      drafts.push(step.holdMs ? { ...wait, holdMs: step.holdMs } : wait);
      break;
    }
  }
  return drafts;
}

/**
 * Whether the section's top (its heading, else its box) lies above what shows at scrollY: the recorder brings a
 * section it moves to back to that top (steps.ts targetStep), so the compiled script must not ask it to.
 */
function headingAboveView(outline: PageOutline, section: OutlineSection, scrollY: number): boolean {
  const top = section.headingRect?.y ?? section.rect.y;
  return top < scrollY + outline.stickyHeaderHeight - 1;
}

/** Whether at least a third of the band shows part of the rect. */
function overlapsView(outline: PageOutline, rect: Rect, scrollY: number): boolean {
  const top = Math.max(rect.y, scrollY + outline.stickyHeaderHeight);
  const bottom = Math.min(rect.y + rect.height, scrollY + outline.viewport.height);
  return bottom - top >= (outline.viewport.height - outline.stickyHeaderHeight) / 3;
}

/**
 * The drafts of a whole plan: a short settle at the start (unless continuing from a state, as agent mode does),
 * every step, a hold at the end.
 */
export function expandPlan(
  steps: PlanStep[],
  outline: PageOutline,
  budgetMs: number,
  pacing: Pacing,
  random: () => number,
  from?: ScriptState,
): Draft[] {
  const state = from ? structuredClone(from) : initialState(outline);
  const drafts: Draft[] = from ? [] : [waitDraft('Settle on the page', 0, 300, 0.3)];
  steps.forEach((step, index) => {
    for (const draft of expandStep(step, outline, state, pacing, random)) drafts.push({ ...draft, owner: index });
  });
  drafts.push(holdDraft(budgetMs));
  if (!from) capOpening(drafts);
  holdShots(drafts);
  return drafts;
}

/**
 * The opening, everything before the first scroll, when the plan travels at all: it takes no spare time and lasts
 * OPENING_MS at most (its minimum when even that is more), so the video leaves the first view for what was asked
 * within a second and a half. A lone settle is lengthened to it: the window rises in meanwhile, and a scroll that
 * starts under that animation is lost in it.
 */
function capOpening(drafts: Draft[]): void {
  const first = drafts.findIndex((d) => d.step.kind === 'scroll');
  if (first <= 0) return;
  const opening = drafts.slice(0, first);
  const minMs = opening.reduce((sum, d) => sum + d.minMs, 0);
  const naturalMs = opening.reduce((sum, d) => sum + d.naturalMs, 0);
  const target = Math.max(minMs, OPENING_MS);
  const give = naturalMs > minMs ? Math.min(1, Math.max(0, (target - minMs) / (naturalMs - minMs))) : 0;
  for (const d of opening) {
    d.naturalMs = d.minMs + (d.naturalMs - d.minMs) * give;
    d.maxMs = d.naturalMs;
    d.weight = 0;
  }
  // Whatever is left of the opening's time goes to its last wait (the settle, when it is alone).
  const left = target - opening.reduce((sum, d) => sum + d.naturalMs, 0);
  const wait = opening.findLast((d) => d.step.kind === 'wait');
  if (left > 1 && wait) {
    wait.naturalMs += left;
    wait.maxMs = wait.naturalMs;
  }
}

/**
 * A beat's hold (a pause with holdMs): the shot it is in, from the end of the scroll before it to the start of the
 * next (the end of the video for the last), lasts holdMs at its natural pace. Its pause takes up what the shot's
 * other steps leave at theirs, and is never squeezed (its minimum): budget fitting then leaves a beat out rather than
 * pass through it, and when time is short only the steps around the pause give a little. Typing into a field, or a
 * click, ends the shot too: the camera goes to the field, so the time spent typing after a page's title was read
 * (a form filled on the page a flow arrived at) does not keep the title readable.
 */
function holdShots(drafts: Draft[]): void {
  const endsShot = (draft: Draft) => draft.step.kind === 'scroll' || draft.step.kind === 'type' || draft.step.kind === 'click';
  drafts.forEach((d, index) => {
    if (!d.holdMs) return;
    let start = index;
    while (start > 0 && !endsShot(drafts[start - 1]!)) start--;
    let end = index + 1;
    while (end < drafts.length && !endsShot(drafts[end]!)) end++;
    const others = drafts.slice(start, end).filter((other) => other !== d);
    const need = d.holdMs - others.reduce((sum, other) => sum + other.naturalMs, 0);
    d.minMs = Math.max(d.minMs, need);
    d.naturalMs = Math.max(d.naturalMs, d.minMs);
  });
}

export function holdDraft(budgetMs: number): Draft {
  return waitDraft('Hold on the last frame', 0, clamp(budgetMs * 0.06, 400, 1500), 0.6);
}

export function totals(drafts: Draft[]): { minMs: number; naturalMs: number } {
  return drafts.reduce((sum, d) => ({ minMs: sum.minMs + d.minMs, naturalMs: sum.naturalMs + d.naturalMs }), { minMs: 0, naturalMs: 0 });
}

/**
 * Durations that add up to the budget (as floats): squeezed between min and natural when time is short, else the
 * spare time shared out by weight, each step up to its max (waits have none, so everything always fits).
 * The caller has made sure the minimums fit.
 */
export function allocate(drafts: Draft[], budgetMs: number): number[] {
  const { minMs, naturalMs } = totals(drafts);
  if (naturalMs >= budgetMs) {
    const give = naturalMs === minMs ? 0 : Math.max(0, (budgetMs - minMs) / (naturalMs - minMs));
    return drafts.map((d) => d.minMs + (d.naturalMs - d.minMs) * give);
  }
  const durations = drafts.map((d) => d.naturalMs);
  let spare = budgetMs - naturalMs;
  let open = drafts.map((_, i) => i).filter((i) => drafts[i]!.weight > 0);
  if (open.length === 0) open = [drafts.length - 1];
  // Water filling: share by weight; steps that reach their max drop out and the rest is shared again.
  while (spare > 1e-6 && open.length > 0) {
    const totalWeight = open.reduce((sum, i) => sum + (drafts[i]!.weight || 1), 0);
    let used = 0;
    const stillOpen: number[] = [];
    for (const i of open) {
      const d = drafts[i]!;
      const share = (spare * (d.weight || 1)) / totalWeight;
      const room = d.maxMs - durations[i]!;
      const take = Math.min(share, room);
      durations[i]! += take;
      used += take;
      if (room > share) stillOpen.push(i);
    }
    spare -= used;
    open = stillOpen;
  }
  // Only reachable when every draft is capped (no wait at all): the last one takes the rest.
  if (spare > 1e-6) durations[durations.length - 1]! += spare;
  return durations;
}

/**
 * Whole milliseconds from float durations, rounding the running total rather than each step, so the steps end
 * exactly at `totalMs`. Steps left with no time (an unneeded wait) are dropped.
 */
export function schedule(drafts: Draft[], durations: number[], totalMs: number): ScriptStep[] {
  const steps: ScriptStep[] = [];
  let elapsed = 0;
  let start = 0;
  drafts.forEach((draft, index) => {
    elapsed += durations[index]!;
    const end = index === drafts.length - 1 ? totalMs : Math.min(totalMs, Math.round(elapsed));
    if (end > start) steps.push({ ...draft.step, startMs: start, durationMs: end - start });
    start = Math.max(start, end);
  });
  return steps;
}
