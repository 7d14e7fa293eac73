import type { OutlineSection, PageOutline, Rect, Target } from '../types.js';
import { actionsIn, bandHeight, clip, mediaIn, sectionName, toTarget } from './outline-query.js';

/**
 * Targets the outline does not list but a choreography wants to point at: a hero's headline, cards of a section,
 * the visible part of a tall section. They reuse the section's selector (the element the recorder can find) with a
 * rect inside it. Recorder rule: aim at the centre of `rect` when the resolved element's box contains it, else at the
 * element's centre (the page moved since planning).
 */

function within(selector: string, inner: string): string {
  // A selector list must be grouped before a descendant combinator applies to all of it.
  return selector.includes(',') ? `:is(${selector}) ${inner}` : `${selector} ${inner}`;
}

function round(rect: Rect): Rect {
  return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
}

/**
 * The headline of a section (a hero's h1, another section's h2, then the other), placed where headlines sit: the
 * upper part of the section.
 */
export function headlineTarget(section: OutlineSection): Target {
  const r = section.rect;
  const [first, second] = section.kind === 'hero' ? ['h1', 'h2'] : ['h2', 'h1'];
  const hero = section.kind === 'hero';
  return {
    label: section.heading ? `Heading "${clip(section.heading, 60)}"` : 'Heading',
    selector: within(section.selector, first),
    fallbackSelectors: [within(section.selector, second), section.selector, ...section.fallbackSelectors],
    // Where the analyser found it; else where a heading usually sits in a section of this size.
    rect: section.headingRect ? round(section.headingRect) : round({
      x: r.x + r.width * 0.2,
      y: r.y + (hero ? Math.min(r.height * 0.2, 140) : Math.min(r.height * 0.08, 48)),
      width: r.width * 0.6,
      height: hero ? Math.min(r.height * 0.25, 160) : Math.min(r.height * 0.15, 72),
    }),
  };
}

/** The whole section as a target. */
export function sectionTarget(section: OutlineSection): Target {
  return toTarget(section, sectionName(section));
}

/** The part of a section on screen at a scroll position (or its first screen), as a target to rest the cursor on. */
export function focalTarget(outline: PageOutline, section: OutlineSection, scrollY: number): Target {
  const r = section.rect;
  const top = Math.max(r.y, scrollY + outline.stickyHeaderHeight);
  const bottom = Math.min(r.y + r.height, scrollY + outline.viewport.height);
  const visible = bottom > top ? { y: top, height: bottom - top } : { y: r.y, height: Math.min(r.height, bandHeight(outline)) };
  // From the top of what is visible (where the heading is) down: a zoom that keeps this whole never crops the heading.
  const insetX = r.width * 0.2;
  const focal = { x: r.x + insetX, y: visible.y, width: r.width - 2 * insetX, height: visible.height * 0.6 };
  // And the heading wherever it sits: a left-aligned heading of a two-column section lies outside the middle band,
  // and a zoom that kept only the band cut it off.
  const heading = section.headingRect;
  const headingShown = heading && heading.y >= visible.y - 1 && heading.y + heading.height <= visible.y + visible.height + 1;
  return {
    label: sectionName(section),
    selector: section.selector,
    fallbackSelectors: [...section.fallbackSelectors],
    rect: round(headingShown ? union(focal, heading) : focal),
  };
}

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/**
 * Spots spread across the first screen of a section, left to right: where a grid of cards, tiers or quotes sits when
 * the outline has nothing finer to point at.
 */
export function regionTargets(outline: PageOutline, section: OutlineSection, count: number, noun: string): Target[] {
  const r = section.rect;
  const columns = Math.max(1, Math.min(count, 4));
  const visibleHeight = Math.min(r.height, bandHeight(outline));
  const rowY = r.y + visibleHeight * 0.45;
  const rowHeight = Math.max(40, visibleHeight * 0.3);
  const width = r.width / columns;
  return Array.from({ length: columns }, (_, index) => ({
    label: `${noun} ${index + 1} of "${sectionName(section)}"`,
    selector: section.selector,
    fallbackSelectors: [...section.fallbackSelectors],
    rect: round({ x: r.x + width * index + width * 0.15, y: rowY, width: width * 0.7, height: rowHeight }),
  }));
}

/**
 * Things to hover in a section that holds a grid (features, quotes): its images when it has several, else its
 * buttons and links, else spots across it.
 */
export function itemTargets(outline: PageOutline, section: OutlineSection, count: number, noun: string): Target[] {
  if (count <= 0) return [];
  const media = mediaIn(outline, section);
  if (media.length >= 2) {
    return media.slice(0, count).map((item, index) => ({
      label: `${noun} ${index + 1} of "${sectionName(section)}"`,
      selector: item.selector,
      fallbackSelectors: [section.selector],
      rect: round(item.rect),
    }));
  }
  const actions = actionsIn(outline, section);
  if (actions.length >= 2) return actions.slice(0, count).map((action) => toTarget(action));
  return regionTargets(outline, section, Math.min(count, 3), noun);
}
