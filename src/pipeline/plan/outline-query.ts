import type { OutlineAction, OutlineForm, OutlineSection, PageOutline, Rect, SectionKind, Target } from '../types.js';

/**
 * Questions planners ask of a page outline. Every rect here is in document coordinates; the page starts scrolled to
 * the top, and anything inside a sticky header (planned at scroll 0) stays where it is on screen.
 */

/** Space left above a section scrolled to, so its heading does not sit flush under the sticky header. */
export const SCROLL_MARGIN = 16;

export function maxScrollY(outline: PageOutline): number {
  return Math.max(0, Math.round(outline.documentHeight - outline.viewport.height));
}

export function clampScrollY(outline: PageOutline, y: number): number {
  if (!Number.isFinite(y)) return 0;
  return Math.min(maxScrollY(outline), Math.max(0, Math.round(y)));
}

/** The visible band of the viewport: below the sticky header, down to the bottom edge or a bar fixed there. */
export function bandHeight(outline: PageOutline): number {
  return Math.max(1, bandBottom(outline) - outline.stickyHeaderHeight);
}

/** Where the visible band ends, in viewport coordinates. */
export function bandBottom(outline: PageOutline): number {
  return outline.viewport.height - (outline.stickyFooterHeight ?? 0);
}

/** Scroll position that puts a rect's top just below the sticky header. */
export function scrollYForRect(outline: PageOutline, rect: Rect): number {
  return clampScrollY(outline, rect.y - outline.stickyHeaderHeight - SCROLL_MARGIN);
}

/**
 * Where a section is shown: its top just below the header; or, when its heading sits further down than the upper
 * part of the view would show (a heading under a tall featured image, "Why Choose TSME?" under its infographic), low
 * enough that the heading shows in the band's upper part with the image's end above it and the lines under it below.
 */
export function scrollYForSection(outline: PageOutline, section: OutlineSection): number {
  const atTop = scrollYForRect(outline, section.rect);
  const heading = section.headingRect;
  const band = bandHeight(outline);
  if (!heading || heading.y + heading.height <= atTop + outline.stickyHeaderHeight + band * LOW_HEADING_FROM) return atTop;
  // A part headed above it (a pricing band's title over the tiers whose price was taken for the heading) opens the
  // section: the top is where it starts.
  // So does an eyebrow over it, or a heading that is only a figure (a price, a phone number): a title above it, far
  // from it, is the section's own (Bella's "Get My Merch" over a card's "Fancy Yellow").
  if (section.parts?.some((part) => part.headingRect.y < heading.y - 1) || section.kicker || !/\p{L}{3}/u.test(section.heading ?? '')) return atTop;
  return clampScrollY(outline, Math.max(atTop, heading.y - outline.stickyHeaderHeight - band * LOW_HEADING_AT));
}

/** A heading whose bottom is further down the band than this share sits low in its section; it is shown this far down. */
const LOW_HEADING_FROM = 0.6;
const LOW_HEADING_AT = 0.3;

/** Scroll position that centres a rect in the visible band, or top-aligns it when it is taller than the band. */
export function revealY(outline: PageOutline, rect: Rect): number {
  const band = bandHeight(outline);
  if (rect.height > band - 2 * SCROLL_MARGIN) return scrollYForRect(outline, rect);
  return clampScrollY(outline, rect.y + rect.height / 2 - (outline.stickyHeaderHeight + band / 2));
}

/** Whether something planned at scroll 0 lives in the sticky header, and so is on screen at any scroll position. */
export function isFixed(outline: PageOutline, rect: Rect): boolean {
  return outline.stickyHeaderHeight > 0 && rect.y >= 0 && rect.y + rect.height <= outline.stickyHeaderHeight + 2;
}

/**
 * Whether a rect can be seen at this scroll position: wholly inside the band when it fits there, else with its
 * centre inside the band.
 */
export function isVisible(outline: PageOutline, rect: Rect, scrollY: number): boolean {
  if (isFixed(outline, rect)) return true;
  const top = rect.y - scrollY;
  const bottom = top + rect.height;
  const bandTop = outline.stickyHeaderHeight;
  const bandEnd = bandBottom(outline);
  if (rect.height <= bandEnd - bandTop) return top >= bandTop - 1 && bottom <= bandEnd + 1;
  const centre = (top + bottom) / 2;
  return centre >= bandTop && centre <= bandEnd;
}

export function centre(rect: Rect): { x: number; y: number } {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

export function containsPoint(rect: Rect, point: { x: number; y: number }): boolean {
  return point.x >= rect.x && point.x <= rect.x + rect.width && point.y >= rect.y && point.y <= rect.y + rect.height;
}

/** Sections in document order (the analyser usually gives them so; this makes sure). */
export function sectionsInOrder(outline: PageOutline): OutlineSection[] {
  return outline.sections
    .map((section, index) => ({ section, index }))
    .sort((a, b) => a.section.rect.y - b.section.rect.y || a.index - b.index)
    .map(({ section }) => section);
}

export function sectionsOfKind(outline: PageOutline, ...kinds: SectionKind[]): OutlineSection[] {
  return sectionsInOrder(outline).filter((section) => kinds.includes(section.kind));
}

export function findSection(outline: PageOutline, id: string): OutlineSection | null {
  return outline.sections.find((section) => section.id === id) ?? null;
}

/** Sections whose kind or heading says what they are about, in document order. */
export function sectionsAbout(outline: PageOutline, kinds: SectionKind[], heading: RegExp): OutlineSection[] {
  // Sections of the right kind first; a heading that merely matches ("Plan, track and ship…" for /plans?/) is a
  // weaker signal, used when no section has the kind, and never the hero's.
  const ordered = sectionsInOrder(outline);
  const byKind = ordered.filter((section) => kinds.includes(section.kind));
  const byHeading = ordered.filter(
    (section) => !kinds.includes(section.kind) && section.kind !== 'footer' && section.kind !== 'hero' && heading.test(section.heading ?? ''),
  );
  return [...byKind, ...byHeading];
}

/** The hero: a section of that kind, else the first section that starts on the first screen. */
export function heroSection(outline: PageOutline): OutlineSection | null {
  const ordered = sectionsInOrder(outline);
  return (
    ordered.find((section) => section.kind === 'hero') ??
    ordered.find((section) => section.kind !== 'footer' && section.rect.y < outline.viewport.height) ??
    null
  );
}

/** The section a rect sits in (the innermost, when sections nest). */
export function sectionAt(outline: PageOutline, rect: Rect): OutlineSection | null {
  const point = centre(rect);
  const holding = outline.sections.filter((section) => containsPoint(section.rect, point));
  holding.sort((a, b) => a.rect.height * a.rect.width - b.rect.height * b.rect.width);
  return holding[0] ?? null;
}

function readingOrder<T extends { rect: Rect }>(items: T[]): T[] {
  // Rows first (items within 24 px of each other's top are one row), then left to right.
  return [...items].sort((a, b) => (Math.abs(a.rect.y - b.rect.y) > 24 ? a.rect.y - b.rect.y : a.rect.x - b.rect.x));
}

/** Calls to action and buttons inside a section, in reading order. Navigation links are not the section's. */
export function actionsIn(outline: PageOutline, section: OutlineSection): OutlineAction[] {
  // A control that changes the section in place (a tab, the prices' switch) is clicked, not offered (Choreography.click);
  // so are the ones on its row, the same size (the other tabs, the carousel's previous arrow).
  const controls = section.controls ?? [];
  const aControl = (action: OutlineAction) =>
    controls.some((control) => Math.abs(control.rect.y - action.rect.y) <= 8 && Math.abs(control.rect.height - action.rect.height) <= control.rect.height * 0.3);
  return readingOrder(
    outline.actions.filter((action) => action.kind !== 'nav-link' && containsPoint(section.rect, centre(action.rect)) && !aControl(action)),
  );
}

export function mediaIn(outline: PageOutline, section: OutlineSection): PageOutline['media'] {
  return readingOrder(outline.media.filter((item) => containsPoint(section.rect, centre(item.rect))));
}

/** The page's main call to action: a primary one (highest on the page first), else any call to action. */
export function primaryCta(outline: PageOutline, options: { below?: number } = {}): OutlineAction | null {
  const below = options.below ?? -Infinity;
  const ranked = (kind: OutlineAction['kind']) =>
    outline.actions.filter((action) => action.kind === kind && action.rect.y >= below).sort((a, b) => a.rect.y - b.rect.y);
  return ranked('primary-cta')[0] ?? ranked('cta')[0] ?? null;
}

/**
 * The call to action to end on, from where the page is: of the primary calls to action and those of closing banners
 * (else any), the one the shortest scroll away.
 */
export function nearestCta(outline: PageOutline, scrollY: number): OutlineAction | null {
  const banners = sectionsOfKind(outline, 'cta');
  const strong = outline.actions.filter(
    (action) => action.kind === 'primary-cta' || (action.kind !== 'nav-link' && banners.some((banner) => containsPoint(banner.rect, centre(action.rect)))),
  );
  const pool = strong.length > 0 ? strong : outline.actions.filter((action) => action.kind === 'cta');
  const distance = (action: OutlineAction) => (isVisible(outline, action.rect, scrollY) ? 0 : Math.abs(revealY(outline, action.rect) - scrollY));
  return [...pool].sort((a, b) => distance(a) - distance(b) || a.rect.y - b.rect.y)[0] ?? null;
}

const fillableTypes = new Set(['text', 'email', 'tel', 'url', 'search', 'number', 'textarea', 'password', '']);

export function fillableFields(form: OutlineForm): OutlineForm['fields'] {
  return form.fields.filter((field) => fillableTypes.has(field.type.toLowerCase()));
}

/**
 * The form worth demonstrating: the one with the most fields a person would type into, an email field first. Of the
 * forms in sight: one behind a tab or a modal is for a flow that opens it (form-fill.ts).
 */
export function bestForm(outline: PageOutline, within: OutlineSection | null = null): OutlineForm | null {
  // A form inside the section the prompt named wins over a bigger one elsewhere (a newsletter box, not the contact form).
  const inside = within ? outline.forms.filter((form) => containsPoint(within.rect, centre(form.rect))) : [];
  const scored = (inside.some((form) => !form.opener && fillableFields(form).length > 0) ? inside : outline.forms)
    .filter((form) => !form.opener)
    .map((form, index) => {
      const fields = fillableFields(form);
      const hasEmail = fields.some((field) => field.type === 'email' || /e-?mail/i.test(`${field.name ?? ''} ${field.label}`));
      return { form, index, score: fields.length + (hasEmail ? 2 : 0) };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  return scored[0]?.form ?? null;
}

/** A display name for a section: its heading, else its kind. */
export function sectionName(section: OutlineSection): string {
  return clip(section.heading?.trim() || section.kind, 60);
}

export function clip(text: string, max: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= max ? single : `${single.slice(0, max - 1).trimEnd()}…`;
}

/** Only the Target members, so plans and scripts do not carry the analyser's extra fields. */
export function toTarget(target: Target, label?: string): Target {
  return {
    label: label ?? target.label,
    selector: target.selector,
    fallbackSelectors: [...target.fallbackSelectors],
    rect: { x: target.rect.x, y: target.rect.y, width: target.rect.width, height: target.rect.height },
  };
}

/** How much a section is worth showing: what it is, whether it is named, and how much there is to point at. */
export function sectionStrength(outline: PageOutline, section: OutlineSection): number {
  const rank: Record<SectionKind, number> = {
    features: 3, media: 2.6, pricing: 2.4, testimonials: 2.2, cta: 2, content: 1.8, form: 1.6, logos: 1.2, faq: 1,
    hero: 0.5, footer: 0,
  };
  return (
    rank[section.kind] +
    (section.heading ? 0.5 : 0) +
    Math.min(actionsIn(outline, section).length, 3) * 0.2 +
    Math.min(mediaIn(outline, section).length, 3) * 0.2
  );
}

/** The strongest section that is not the hero or the footer, if any. */
export function strongestSection(outline: PageOutline): OutlineSection | null {
  const hero = heroSection(outline);
  let best: OutlineSection | null = null;
  let bestScore = -Infinity;
  for (const section of sectionsInOrder(outline)) {
    if (section === hero || section.kind === 'footer') continue;
    const score = sectionStrength(outline, section);
    if (score > bestScore) {
      best = section;
      bestScore = score;
    }
  }
  return best;
}
