import { findSection, sectionAt } from '../plan/outline-query.js';
import { keywords } from '../plan/text-match.js';
import type { DemoPlan, OutlineAction, OutlineSection, PageOutline, Rect, SectionKind, Target } from '../types.js';

/**
 * The fingerprint of what a demo shows (issue 37), stored with each version: what the next scheduled or webhook
 * refresh compares the page against before it records anything. Made from the analysis pass only (outline, plan,
 * one screenshot a section), never from a recording.
 */
export interface DemoFingerprint {
  version: 1;
  /** The sections the plan shows, in the order it first shows them. */
  shots: ShotPrint[];
  /** What the script hovers, clicks or types into, when it is a real control of the page. */
  targets: TargetPrint[];
  /** Every heading of the page, so that a new section can be named. */
  headings: string[];
  /**
   * Issue 56: the later pages of a flow, in order, each with what the flow shows and does there (no frame hashes: a
   * page is only opened for its outline). Absent for a one-page demo.
   */
  pages?: PagePrint[];
}

export interface PagePrint {
  url: string;
  shots: ShotPrint[];
  targets: TargetPrint[];
  headings: string[];
}

/** A page of a flow as it was planned: its outline and its own leg's plan. */
export interface FlowPage {
  outline: PageOutline;
  plan: DemoPlan;
}

export interface ShotPrint {
  /**
   * Where the section was when the version was planned: its outline id, selector and rect. What a refresh that keeps
   * the stored plan (kept-plan.ts) places the plan's steps by; absent from fingerprints stored before.
   */
  id?: string;
  selector?: string;
  rect?: Rect;
  heading: string | null;
  kicker: string | null;
  kind: SectionKind;
  /** Lower-case words, no punctuation (keywords of text-match.ts): what wording changes are measured on. */
  text: string;
  figures: Figure[];
  /** dHash of the frame with the section at rest at the top of the screen (perceptual-hash.ts); null if not taken. */
  hash: string | null;
}

/** A number the page states ("$12", "4,000+", "30%") with the word before it and the unit after it. */
export interface Figure {
  value: string;
  label: string;
  unit: string;
}

export interface TargetPrint {
  label: string;
  role: 'button' | 'link' | 'field';
  href: string | null;
  selector: string;
}

/** The sections of an outline that a plan shows, in order of first appearance. */
export function shownSections(plan: DemoPlan, outline: PageOutline): OutlineSection[] {
  const shown: OutlineSection[] = [];
  const add = (section: OutlineSection | null) => {
    if (section && !shown.includes(section)) shown.push(section);
  };
  for (const step of plan.steps) {
    if (step.action === 'scroll' || step.action === 'focus') add(step.sectionId ? findSection(outline, step.sectionId) : null);
    else if (step.action !== 'pause') add(sectionAt(outline, step.target.rect));
  }
  return shown;
}

export function shotPrint(section: OutlineSection, hashes: ReadonlyMap<string, string>): ShotPrint {
  const words = section.body ?? section.text;
  return {
    id: section.id,
    selector: section.selector,
    rect: section.rect,
    heading: section.heading?.trim() || null,
    kicker: section.kicker?.trim() || null,
    kind: section.kind,
    text: keywords(words).join(' ').slice(0, 2000),
    figures: keyFigures(words),
    hash: hashes.get(section.id) ?? null,
  };
}

/** A demo's fingerprint from the outline it was planned on, its plan, and the section frames' hashes by section id. */
export function fingerprintOf(outline: PageOutline, plan: DemoPlan, hashes: ReadonlyMap<string, string>): DemoFingerprint {
  return {
    version: 1,
    shots: shownSections(plan, outline).map((section) => shotPrint(section, hashes)),
    targets: interactiveTargets(plan, outline),
    headings: pageHeadings(outline),
  };
}

/**
 * A flow's fingerprint: its first page as a one-page demo's (each page fingerprinted with its own leg's plan, never
 * the whole flow's), and every later page by its address.
 */
export function flowFingerprintOf(pages: FlowPage[], hashes: ReadonlyMap<string, string>): DemoFingerprint {
  const [first, ...later] = pages;
  return {
    ...fingerprintOf(first!.outline, first!.plan, hashes),
    pages: later.map(({ outline, plan }) => {
      const { shots, targets, headings } = fingerprintOf(outline, plan, new Map());
      return { url: outline.url, shots, targets, headings };
    }),
  };
}

export function pageHeadings(outline: PageOutline): string[] {
  return outline.sections.map((section) => section.heading?.trim() ?? '').filter((heading) => heading !== '');
}

/** The plan's targets that are controls of the page (a button, a link, a field), not spots the camera rests on. */
function interactiveTargets(plan: DemoPlan, outline: PageOutline): TargetPrint[] {
  const prints: TargetPrint[] = [];
  for (const step of plan.steps) {
    if (step.action !== 'hover' && step.action !== 'click' && step.action !== 'type') continue;
    const print = controlOf(step.target, outline);
    if (print && !prints.some((p) => p.selector === print.selector)) prints.push(print);
  }
  return prints;
}

function controlOf(target: Target, outline: PageOutline): TargetPrint | null {
  const action: OutlineAction | undefined = [...outline.actions, ...outline.forms.flatMap((f) => (f.submit ? [f.submit] : []))].find((a) => a.selector === target.selector);
  if (action) return { label: action.label.trim(), role: action.href ? 'link' : 'button', href: action.href, selector: action.selector };
  const field = outline.forms.flatMap((form) => form.fields).find((f) => f.selector === target.selector);
  if (field) return { label: field.label.trim(), role: 'field', href: null, selector: field.selector };
  return null;
}

const FIGURE = /(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:%|\+|[kKmM]\b|[$€£])?)/g;
const UNIT = /^\s*((?:per|\/|a|an)\s*[a-z]+(?:\s*\/\s*[a-z]+)?)/i;

/**
 * The figures a section states, in reading order, each with the word before it ("Pro") and its unit ("per user"):
 * what "Pricing: Pro $12 → $15 per user" is written from. Years and lone single digits are left out: they are
 * rarely what a visitor reads as a figure.
 */
export function keyFigures(text: string): Figure[] {
  const figures: Figure[] = [];
  for (const match of text.matchAll(FIGURE)) {
    const value = match[0].trim();
    const bare = value.replace(/[^\d.]/g, '');
    if (/^(19|20)\d\d$/.test(value) || (/^\d$/.test(value) && value === bare)) continue;
    const before = text.slice(Math.max(0, match.index - 40), match.index).trim().split(/\s+/).pop() ?? '';
    const after = UNIT.exec(text.slice(match.index + match[0].length, match.index + match[0].length + 40));
    figures.push({ value, label: /^[\p{L}][\p{L}'-]*$/u.test(before) ? before : '', unit: after?.[1]?.replace(/\s+/g, ' ') ?? '' });
    if (figures.length >= 40) break;
  }
  return figures;
}
