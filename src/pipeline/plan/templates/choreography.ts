import type { TemplateId } from '../../../demos/presentation.js';
import type { OutlineControl, OutlineSection, PageOutline, PlanStep, Target } from '../../types.js';
import { bottomComfortMargin } from '../../comfort.js';
import { estimatePlan } from '../fit.js';
import {
  bandBottom, clampScrollY, isVisible, revealY, SCROLL_MARGIN, scrollYForSection, sectionName, toTarget,
} from '../outline-query.js';

/** What a template gets: the page, the time it has, and what the person asked for. */
export interface TemplateContext {
  outline: PageOutline;
  budgetMs: number;
  prompt: string;
  sectionHint: string | null;
}

/** A recording template: a choreography over the outline. Never returns an empty plan. */
export type Template = (context: TemplateContext) => PlanStep[];

/**
 * How long a beat of the prompt stays on screen, from its arrival to the next travel: readable 2.5 s (the last 3 s)
 * with room for the dissolve or the scroll's last steps into it, and the first steps of the next travel out of it.
 */
export const BEAT_HOLD_MS = 2800;
export const LAST_BEAT_HOLD_MS = 3300;

/** How much longer than the budget a template's plan may run at its natural pace (the compiler squeezes the rest). */
const SLACK = 1.15;

/** At most how many sections a template visits in its budget: 2 in 5 s, 4 in 10 s, 12 in 30 s. */
export function visitsFor(budgetMs: number): number {
  return Math.max(1, Math.min(12, Math.floor(budgetMs / 2400)));
}

/** How many things to point at within one section: 1 in 5 s, 2 in 10 s, 3 in 30 s. */
export function detailFor(budgetMs: number): number {
  return budgetMs < 8000 ? 1 : budgetMs < 20_000 ? 2 : 3;
}

/**
 * Builds a plan while tracking where the page is scrolled, so a template never scrolls to where it already is and
 * scrolls before pointing at something off screen.
 */
export class Choreography {
  readonly steps: PlanStep[] = [];
  private scrollY = 0;

  constructor(
    readonly outline: PageOutline,
    readonly budgetMs: number,
    /** whose pacing times the plan: it decides which travels are cuts, and so what fits */
    readonly templateId: TemplateId = 'section-focus',
  ) {}

  /** Whether the plan so far plays in the budget at an unhurried pace. */
  fits(): boolean {
    return estimatePlan(this.steps, this.outline, this.budgetMs, this.templateId).naturalMs <= this.budgetMs * SLACK;
  }

  get y(): number {
    return this.scrollY;
  }

  scrollTo(section: OutlineSection, label = `Scroll to "${sectionName(section)}"`): this {
    const toY = scrollYForSection(this.outline, section);
    if (toY !== this.scrollY) this.steps.push({ action: 'scroll', sectionId: section.id, toY, label });
    this.scrollY = toY;
    return this;
  }

  /**
   * Scrolls to a section so that its heading and these targets are on screen together when they fit in the band
   * (a pricing section's heading and its tiers' buttons), as little below the section's top as that needs; else as
   * scrollTo.
   */
  scrollToWith(section: OutlineSection, targets: Target[], label = `Scroll to "${sectionName(section)}"`): this {
    const top = section.headingRect?.y ?? section.rect.y;
    const bottom = Math.max(top, ...targets.map((target) => target.rect.y + target.rect.height));
    const atSection = scrollYForSection(this.outline, section);
    // Above a bar fixed to the bottom, and where the recorder finds it comfortable (else it scrolls again).
    const { height } = this.outline.viewport;
    const below = Math.max(height - bandBottom(this.outline) + SCROLL_MARGIN, bottomComfortMargin(height) + 2);
    if (bottom - top + SCROLL_MARGIN + below > height - this.outline.stickyHeaderHeight) return this.scrollTo(section, label);
    const needed = bottom + below - height;
    const toY = clampScrollY(this.outline, Math.min(top - this.outline.stickyHeaderHeight - SCROLL_MARGIN, Math.max(atSection, needed)));
    // A scroll to a section goes to its top (the compiler reads the section's place); this one may stop below it.
    if (toY !== this.scrollY) this.steps.push({ action: 'scroll', sectionId: toY === atSection ? section.id : null, toY, label });
    this.scrollY = toY;
    return this;
  }

  scrollToY(y: number, label: string): this {
    const toY = clampScrollY(this.outline, y);
    if (toY !== this.scrollY) this.steps.push({ action: 'scroll', sectionId: null, toY, label });
    this.scrollY = toY;
    return this;
  }

  /** Scrolls (centring it) only when the target is off screen. */
  reveal(target: Target, label = `Bring "${target.label}" into view`): this {
    if (!isVisible(this.outline, target.rect, this.scrollY)) this.scrollToY(revealY(this.outline, target.rect), label);
    return this;
  }

  hover(target: Target, label = `Hover "${target.label}"`): this {
    this.reveal(target);
    this.steps.push({ action: 'hover', target: toTarget(target), label });
    return this;
  }

  /** Clicks a control that changes the page in place (outline controls only: never a link away or a submit). */
  click(control: OutlineControl, label = operateLabel(control)): this {
    this.reveal(control);
    this.steps.push({ action: 'click', target: toTarget(control), label });
    return this;
  }

  type(target: Target, text: string, label = `Type into "${target.label}"`): this {
    this.reveal(target);
    this.steps.push({ action: 'type', target: toTarget(target), text, label });
    return this;
  }

  focus(section: OutlineSection, label = `Focus on "${sectionName(section)}"`): this {
    this.steps.push({ action: 'focus', sectionId: section.id, label });
    return this;
  }

  /** A pause; with holdMs, a beat's hold: its shot lasts at least that long (timing.ts, holdShots). */
  pause(label: string, holdMs?: number): this {
    this.steps.push(holdMs ? { action: 'pause', label, holdMs } : { action: 'pause', label });
    return this;
  }

  /** At least one step, whatever the page: a plan is never empty. */
  done(): PlanStep[] {
    if (this.steps.length === 0) this.pause('Hold on the page');
    return this.steps;
  }
}

/**
 * The candidates (in priority order) a plan has time for: each is kept when the whole plan composed with it still
 * fits the budget. The first is kept regardless unless `keepFirst` is false, so a template shows its main subject.
 */
export function chooseFitting<T>(candidates: T[], compose: (chosen: T[]) => Choreography, keepFirst = true): T[] {
  const chosen: T[] = [];
  for (const candidate of candidates) {
    const trial = [...chosen, candidate];
    if ((keepFirst && chosen.length === 0) || compose(trial).fits()) chosen.push(candidate);
  }
  return chosen;
}

/** What clicking a control shows, for the plan's step label. */
function operateLabel(control: OutlineControl): string {
  switch (control.kind) {
    case 'tab':
      return `Show the tab "${control.label}"`;
    case 'disclosure':
      return `Open "${control.label}"`;
    case 'switch':
      return `Switch "${control.label}"`;
    case 'next-slide':
      return 'Show the next slide';
  }
}

/**
 * A control of the section (of one of these kinds, in the section's order) that is on screen at this scroll with
 * room below it, so the recorder clicks it where it is: a click near the bottom edge makes the recorder scroll first,
 * which would take the section's heading away for the rest of its shot.
 */
export function controlInView(outline: PageOutline, section: OutlineSection, scrollY: number, kinds: OutlineControl['kind'][] = ['switch', 'tab', 'disclosure', 'next-slide']): OutlineControl | null {
  const { height } = outline.viewport;
  const roomy = (control: OutlineControl) => {
    const top = control.rect.y - scrollY;
    return top >= outline.stickyHeaderHeight + 8 && top + control.rect.height <= bandBottom(outline) - bottomComfortMargin(height);
  };
  for (const kind of kinds) {
    const control = (section.controls ?? []).find((c) => c.kind === kind && roomy(c));
    if (control) return control;
  }
  return null;
}
