import { keywords } from '../plan/text-match.js';
import type { OutlineSection, PageOutline } from '../types.js';
import { pageHeadings, shotPrint, type DemoFingerprint, type Figure, type ShotPrint, type TargetPrint } from './fingerprint.js';
import { hashDistance } from './perceptual-hash.js';

/** Bits of 64 two resting frames may differ in and still count as the same picture (anti-aliasing, a caret). */
export const LOOK_THRESHOLD = 12;

/**
 * What changed on the page, against the fingerprint of the version shown, in words a marketer reads: "Pricing: Pro
 * $12 → $15 per user", "New section: Integrations", "'Start free trial' is now 'Try it free'". Empty: nothing the
 * demo shows changed, and a scheduled or webhook refresh records nothing. A shot whose heading is gone is looked
 * for by meaning (same words, same kind of section) before it is said to be removed.
 */
export function describeChanges(before: DemoFingerprint, outline: PageOutline, hashes: ReadonlyMap<string, string>): string[] {
  const changes: string[] = [];
  const renamedTo = new Set<string>();
  const found = findShotsAgain(before, outline);
  for (const [index, shot] of before.shots.entries()) {
    const section = found[index]!;
    const name = shotName(shot);
    if (!section) {
      changes.push(`Section removed: ${name}; its step was dropped`);
      continue;
    }
    const now = shotPrint(section, hashes);
    if (shot.heading && now.heading && same(shot.heading) !== same(now.heading)) {
      changes.push(`Heading renamed: '${shot.heading}' is now '${now.heading}'`);
      renamedTo.add(same(now.heading));
    }
    changes.push(...figureChanges(name, shot.figures, now.figures));
    if (wordingChanged(shot, now)) changes.push(`${name}: wording changed`);
    if (shot.hash && now.hash && hashDistance(shot.hash, now.hash) > LOOK_THRESHOLD) changes.push(`${name}: looks different`);
  }
  for (const target of before.targets) changes.push(...targetChange(target, outline));
  const known = new Set(before.headings.map(same));
  for (const heading of pageHeadings(outline)) {
    if (!known.has(same(heading)) && !renamedTo.has(same(heading))) changes.push(`New section: ${heading}`);
  }
  return [...new Set(changes)];
}

/**
 * The section that now shows what each shot showed, in the shots' order (null: gone). One answer for the change
 * summary and for the refresh that keeps the stored plan (kept-plan.ts), so the words and the new recording agree.
 */
export function findShotsAgain(before: DemoFingerprint, outline: PageOutline): Array<OutlineSection | null> {
  const claimed = new Set<OutlineSection>();
  return before.shots.map((shot) => {
    const section = findAgain(shot, outline, claimed);
    if (section) claimed.add(section);
    return section;
  });
}

/**
 * The section that now shows what a shot showed: the same heading; else the same id with the same kind (a renamed
 * heading in an element with an id of its own); else the most alike by words and kind. The id is asked second, not
 * first: an id made from a kind and a number ("content-2") moves to another section when one is added before it.
 */
function findAgain(shot: ShotPrint, outline: PageOutline, claimed: ReadonlySet<OutlineSection>): OutlineSection | null {
  const open = outline.sections.filter((section) => !claimed.has(section));
  if (shot.heading) {
    const byHeading = open.find((section) => section.heading && same(section.heading) === same(shot.heading!));
    if (byHeading) return byHeading;
  }
  const byId = shot.id ? open.find((section) => section.id === shot.id && section.kind === shot.kind) : undefined;
  if (byId) return byId;
  let best: { section: OutlineSection; score: number } | null = null;
  for (const section of open) {
    const print = shotPrint(section, new Map());
    const score = overlap(shot.text, print.text) + (section.kind === shot.kind ? 0.2 : 0) + (shot.kicker && print.kicker && same(shot.kicker) === same(print.kicker) ? 0.2 : 0);
    if (!best || score > best.score) best = { section, score };
  }
  return best && best.score >= 0.55 ? best.section : null;
}

function figureChanges(name: string, before: Figure[], after: Figure[]): string[] {
  const changes: string[] = [];
  const said = (figure: Figure, value = figure.value) => [figure.label, value, figure.unit].filter(Boolean).join(' ');
  if (before.length === after.length) {
    before.forEach((old, index) => {
      const now = after[index]!;
      if (old.value !== now.value) changes.push(`${name}: ${[old.label || now.label, `${old.value} → ${now.value}`, now.unit || old.unit].filter(Boolean).join(' ')}`);
    });
    return changes;
  }
  const left = [...after];
  for (const old of before) {
    const at = left.findIndex((now) => now.value === old.value && now.label === old.label);
    if (at >= 0) left.splice(at, 1);
    else changes.push(`${name}: ${said(old)} is gone`);
  }
  for (const now of left) changes.push(`${name}: new figure ${said(now)}`);
  return changes;
}

/** Words added or removed, leaving out the figures and the heading (each said on its own line). */
function wordingChanged(before: ShotPrint, after: ShotPrint): boolean {
  const words = (shot: ShotPrint) => {
    const heading = new Set(keywords(shot.heading ?? ''));
    return shot.text.split(' ').filter((word) => word && !/\d/.test(word) && !heading.has(word)).join(' ');
  };
  return words(before) !== words(after);
}

function targetChange(target: TargetPrint, outline: PageOutline): string[] {
  const controls: TargetPrint[] = [
    ...[...outline.actions, ...outline.forms.flatMap((f) => (f.submit ? [f.submit] : []))].map((a) => ({ label: a.label.trim(), role: a.href ? ('link' as const) : ('button' as const), href: a.href, selector: a.selector })),
    ...outline.forms.flatMap((f) => f.fields).map((f) => ({ label: f.label.trim(), role: 'field' as const, href: null, selector: f.selector })),
  ];
  if (controls.some((c) => c.role === target.role && same(c.label) === same(target.label))) return [];
  const moved = controls.find((c) => c.role === target.role && ((target.href !== null && c.href === target.href) || c.selector === target.selector));
  if (moved) return [`'${target.label}' is now '${moved.label}'`];
  return [`The '${target.label}' ${target.role} is gone; its step was dropped`];
}

/** How a marketer names a section: its kicker ("PRICING"), its heading, or its kind. */
export function shotName(shot: Pick<ShotPrint, 'heading' | 'kicker' | 'kind'>): string {
  // A kicker is often set in capitals by CSS or by hand: "PRICING" reads as "Pricing" in a sentence.
  const kicker = shot.kicker && shot.kicker.length <= 30 ? (shot.kicker === shot.kicker.toUpperCase() ? shot.kicker.toLowerCase() : shot.kicker) : null;
  const text = kicker ?? shot.heading ?? shot.kind;
  const single = text.replace(/\s+/g, ' ').trim();
  const clipped = single.length <= 40 ? single : `${single.slice(0, 39).trimEnd()}…`;
  return clipped.charAt(0).toUpperCase() + clipped.slice(1);
}

export function same(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Share of the words two texts have in common (0–1), by the smaller: a section that grew still matches itself. */
function overlap(a: string, b: string): number {
  const left = new Set(a.split(' ').filter(Boolean));
  const right = new Set(b.split(' ').filter(Boolean));
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / Math.min(left.size, right.size);
}
