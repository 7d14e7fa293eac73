import { sectionName } from '../plan/outline-query.js';
import type { DemoPlan, OutlineAction, OutlineSection, PageOutline, PlanStep, Rect, Target } from '../types.js';
import { findShotsAgain, same } from './compare.js';
import type { DemoFingerprint, ShotPrint } from './fingerprint.js';

/**
 * A changed page's refresh keeps the plan the demo was made with (issue 37): every step whose section or control is
 * still on the page stays as it was, placed where that thing is now; a step whose section was renamed or moved
 * follows it (found again as the change summary finds it, compare.ts); a step whose section or control is gone is
 * dropped (the change summary says so). The demo stays the demo its owner approved, whatever the planner would
 * choose today (a model planner, or heuristics that have moved on since).
 *
 * Null when the stored plan cannot be kept and the page is planned again, as before: the fingerprint predates the
 * sections' ids, a step's target cannot be placed on the new page, or no step that shows a section is left.
 */
export function keepPlan(stored: DemoPlan, before: DemoFingerprint, outline: PageOutline): DemoPlan | null {
  if (before.shots.length === 0 || before.shots.some((shot) => !shot.id || !shot.selector || !shot.rect)) return null;
  const found = findShotsAgain(before, outline);
  const shots = before.shots.map((shot, index) => ({ shot, now: found[index]! }));
  const byId = new Map(shots.map((entry) => [entry.shot.id!, entry]));
  const steps: PlanStep[] = [];
  for (const step of stored.steps) {
    if (step.action === 'pause' || (step.action === 'scroll' && step.sectionId === null)) {
      steps.push(step);
      continue;
    }
    if (step.action === 'scroll' || step.action === 'focus') {
      const entry = byId.get(step.sectionId!);
      if (!entry) return null; // a section the fingerprint does not know: nothing to judge it by
      if (entry.now) steps.push({ ...step, sectionId: entry.now.id, label: relabel(step.label, entry.shot, entry.now) });
      continue;
    }
    const placed = placeTarget(step.target, shots, before, outline);
    if (placed === 'gone') continue;
    if (placed === null) return null;
    const label = placed.label === step.target.label ? step.label : step.label.split(`"${step.target.label}"`).join(`"${placed.label}"`);
    steps.push({ ...step, target: placed, label });
  }
  // Nothing usable left: a tour none of whose sections remain (a closing button alone is no demo), or no step at all.
  const showsSection = (step: PlanStep) => (step.action === 'scroll' && step.sectionId !== null) || step.action === 'focus';
  const acts = (step: PlanStep) => step.action === 'hover' || step.action === 'click' || step.action === 'type';
  if (stored.steps.some(showsSection) ? !steps.some(showsSection) : !steps.some(acts)) return null;
  // The main shot and the story are made again from the kept steps and the new outline (produce-recording.ts).
  return { ...stored, steps, mainShot: null, story: null };
}

interface ShotNow {
  shot: ShotPrint;
  now: OutlineSection | null;
}

/** A step's label names its section ("Go to \"Pricing\""): after a rename, the new name. */
function relabel(label: string, shot: ShotPrint, now: OutlineSection): string {
  const name = shot.heading ? sectionName({ ...now, heading: shot.heading }) : null;
  return name && now.heading && same(shot.heading!) !== same(now.heading) ? label.split(`"${name}"`).join(`"${sectionName(now)}"`) : label;
}

/**
 * Where a step's target is on the new page. A control (a button, a link, a field) is found by its label, else by its
 * link, else by its selector (renamed: "'Start free trial' is now 'Try it free'"). A spot inside a section (a
 * heading, a card: its selector starts with the section's, targets.ts) moves with its section. 'gone': its section
 * or control is no longer there (the change summary says so). Null: not known, and the page is planned again.
 */
function placeTarget(target: Target, shots: ShotNow[], before: DemoFingerprint, outline: PageOutline): Target | 'gone' | null {
  const controls: OutlineAction[] = [...outline.navigation, ...outline.actions, ...outline.forms.flatMap((f) => (f.submit ? [f.submit] : []))];
  const all: Target[] = [...controls, ...outline.forms.flatMap((form) => form.fields)];
  const known = before.targets.find((t) => t.selector === target.selector);
  const control =
    all.find((c) => same(c.label) === same(target.label) && c.selector === target.selector) ??
    all.find((c) => same(c.label) === same(target.label)) ??
    (known?.href ? controls.find((c) => c.href === known.href) : undefined) ??
    all.find((c) => c.selector === target.selector);
  if (control) {
    // A menu item that leads to a section the page no longer has points at nothing: it goes with that section's steps.
    const leadsTo = 'href' in control ? fragment(control.href as string | null) : null;
    const toGone = shots.some(({ shot, now }) => !now && ((leadsTo !== null && leadsTo === shot.id) || (shot.heading !== null && same(shot.heading) === same(control.label))));
    return toGone ? 'gone' : { label: control.label, selector: control.selector, fallbackSelectors: control.fallbackSelectors, rect: control.rect };
  }
  const within = shots.find(({ shot }) => insideSection(target, shot.selector!));
  if (within) {
    if (!within.now) return 'gone';
    return {
      ...target,
      selector: target.selector === within.shot.selector ? within.now.selector : target.selector,
      rect: shifted(target.rect, within.shot.rect!, within.now.rect),
    };
  }
  return known ? 'gone' : null;
}

function insideSection(target: Target, selector: string): boolean {
  return [target.selector, ...target.fallbackSelectors].some((s) => s === selector || s.startsWith(`${selector} `) || s.startsWith(`:is(${selector}) `));
}

function fragment(href: string | null): string | null {
  const at = href?.indexOf('#') ?? -1;
  if (!href || at < 0) return null;
  try {
    return decodeURIComponent(href.slice(at + 1)) || null;
  } catch {
    return href.slice(at + 1) || null;
  }
}

function shifted(rect: Rect, from: Rect, to: Rect): Rect {
  return { ...rect, x: rect.x + (to.x - from.x), y: rect.y + (to.y - from.y) };
}
