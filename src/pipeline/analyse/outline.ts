import type { Page } from 'puppeteer-core';
import type { PageOutline } from '../types.js';
import { evaluateComposedInPage } from './in-page.js';
import { readControls } from './outline-actions.js';
import { outlineKit } from './outline-kit.js';
import { findSections } from './outline-sections.js';
import { hiddenForms } from './hidden-forms.js';
import { inPlaceControls } from './section-controls.js';
import { describeSections } from './section-kinds.js';

export interface ExtractOutlineOptions {
  /** Descriptions of the overlays dismissed before extraction (copied into the outline). */
  dismissedOverlays?: string[];
  maxSections?: number;
  maxActions?: number;
  maxNavigation?: number;
  maxMedia?: number;
  maxContentLinks?: number;
}

export interface OutlineInPageOptions {
  dismissedOverlays: string[];
  maxSections: number;
  maxActions: number;
  maxNavigation: number;
  maxMedia: number;
  maxContentLinks: number;
}

/** The in-page parts of the reading, sent with it: each is serialised on its own (in-page.ts). */
const parts = { outlineKit, findSections, readControls, describeSections, inPlaceControls, hiddenForms };
type OutlineParts = typeof parts;

/**
 * Reads the page as it is now (no scrolling, no clicking) into a PageOutline. analysePage prepares the page first
 * (overlays dismissed, lazy content loaded, back at the top); an agent-mode planner can call this after each step.
 */
export async function extractOutline(page: Page, options: ExtractOutlineOptions = {}): Promise<PageOutline> {
  return evaluateComposedInPage(page, extractOutlineInPage, parts, {
    dismissedOverlays: options.dismissedOverlays ?? [],
    maxSections: options.maxSections ?? 60,
    maxActions: options.maxActions ?? 40,
    maxNavigation: options.maxNavigation ?? 40,
    maxMedia: options.maxMedia ?? 40,
    maxContentLinks: options.maxContentLinks ?? 60,
  });
}

/**
 * The in-page extraction, in the order a reader would take it: the shared toolkit (outline-kit.ts), the page's parts
 * (outline-sections.ts), what can be done on it (outline-actions.ts), what each part is (section-kinds.ts), and the
 * bars that stay on screen (below). Rects are document coordinates (scroll position added); every selector is
 * checked to match exactly its element when it is produced. Runs in the page: the parts come in as an argument.
 */
export function extractOutlineInPage(options: OutlineInPageOptions, part: OutlineParts): PageOutline {
  const kit = part.outlineKit();
  const { SKIP, box, clip, css, docH, norm, vh, visible, vw } = kit;
  const kept = part.findSections(kit, options.maxSections);
  const controls = part.readControls(kit, options, part.hiddenForms);
  const { navigation, menuLinks, contentLinks, actions, forms, media } = controls;
  const sections = part.describeSections(kit, kept, controls).map((section) => {
    // What changes it in place, read from the element the section's selector names.
    const el = document.querySelector(section.selector);
    const within = (r: { y: number; height: number }) => r.y >= section.rect.y && r.y + r.height <= section.rect.y + section.rect.height;
    const inPlace = el && section.kind !== 'footer' && section.kind !== 'hero' ? part.inPlaceControls(kit, el).filter((c) => within(c.rect)) : [];
    return inPlace.length > 0 ? { ...section, controls: inPlace } : section;
  });

  // ---------- sticky header (and a bar fixed to the bottom edge) ----------
  let stickyHeaderHeight = 0;
  let stickyFooterHeight = 0;
  for (const el of Array.from(document.body ? document.body.querySelectorAll('*') : [])) {
    if (SKIP.has(el.tagName)) continue;
    const s = css(el);
    const sticky = s.position === 'sticky' && s.top !== 'auto' && parseFloat(s.top) <= 2;
    if (s.position !== 'fixed' && !sticky) continue;
    if (!visible(el)) continue;
    const r = box(el);
    if (r.width < vw * 0.5 || r.height > vh * 0.3 || r.bottom <= 0) continue;
    // "Early-bird ends Friday — get your pass", a cart total: it covers the bottom of every screen.
    if (s.position === 'fixed' && r.bottom >= vh - 2 && r.top > vh * 0.6) {
      stickyFooterHeight = Math.max(stickyFooterHeight, Math.round(vh - r.top));
      continue;
    }
    if (r.top <= 2) {
      stickyHeaderHeight = Math.max(stickyHeaderHeight, Math.round(r.bottom));
      continue;
    }
    // A sticky header under an announcement bar starts lower and sticks at its `top` once the bar scrolls away,
    // for the whole page when its container is (a sticky table head or section menu further down is not).
    const container = el.parentElement;
    const spansPage = container !== null && container.getBoundingClientRect().height >= document.documentElement.scrollHeight * 0.8;
    if (sticky && spansPage && r.top < vh * 0.3) stickyHeaderHeight = Math.max(stickyHeaderHeight, Math.round(parseFloat(s.top) + r.height));
  }

  const description =
    document.querySelector('meta[name="description"]')?.getAttribute('content') ??
    document.querySelector('meta[property="og:description"]')?.getAttribute('content') ??
    null;

  return {
    url: location.href,
    title: norm(document.title),
    description: description ? clip(norm(description), 300) : null,
    viewport: { width: vw, height: vh },
    documentHeight: Math.round(docH),
    stickyHeaderHeight,
    ...(stickyFooterHeight > 0 ? { stickyFooterHeight } : {}),
    navigation,
    ...(menuLinks.length > 0 ? { menuLinks } : {}),
    ...(contentLinks.length > 0 ? { contentLinks } : {}),
    sections,
    actions,
    forms,
    media,
    dismissedOverlays: options.dismissedOverlays,
  };
}
