import type { Page } from 'puppeteer-core';
import type { PageOutline } from '../types.js';
import { evaluateInPage } from './in-page.js';

export interface ExtractOutlineOptions {
  /** Descriptions of the overlays dismissed before extraction (copied into the outline). */
  dismissedOverlays?: string[];
  maxSections?: number;
  maxActions?: number;
  maxNavigation?: number;
  maxMedia?: number;
}

export interface OutlineInPageOptions {
  dismissedOverlays: string[];
  maxSections: number;
  maxActions: number;
  maxNavigation: number;
  maxMedia: number;
}

/**
 * Reads the page as it is now (no scrolling, no clicking) into a PageOutline. analysePage prepares the page first
 * (overlays dismissed, lazy content loaded, back at the top); an agent-mode planner can call this after each step.
 */
export async function extractOutline(page: Page, options: ExtractOutlineOptions = {}): Promise<PageOutline> {
  return evaluateInPage(page, extractOutlineInPage, {
    dismissedOverlays: options.dismissedOverlays ?? [],
    maxSections: options.maxSections ?? 60,
    maxActions: options.maxActions ?? 40,
    maxNavigation: options.maxNavigation ?? 40,
    maxMedia: options.maxMedia ?? 40,
  });
}

/**
 * The in-page extraction. Self-contained: it is serialised and run in the page, so it may use only the DOM and its
 * argument. Rects are document coordinates (scroll position added); every selector is checked to match exactly its
 * element when it is produced.
 */
export function extractOutlineInPage(options: OutlineInPageOptions): PageOutline {
  type Rect = { x: number; y: number; width: number; height: number };
  type Kind = PageOutline['sections'][number]['kind'];
  type ActionKind = PageOutline['actions'][number]['kind'];

  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const sx = window.scrollX;
  const sy = window.scrollY;
  const scroller = document.scrollingElement ?? document.documentElement;
  const docW = Math.max(scroller.scrollWidth, vw);
  const docH = Math.max(scroller.scrollHeight, document.body?.scrollHeight ?? 0, document.documentElement.scrollHeight);

  // ---------- small helpers ----------
  const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  const clip = (text: string, max: number) => {
    if (text.length <= max) return text;
    const cut = text.slice(0, max - 1);
    const space = cut.lastIndexOf(' ');
    return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
  };
  const styles = new Map<Element, CSSStyleDeclaration>();
  const css = (el: Element) => {
    let s = styles.get(el);
    if (!s) {
      s = getComputedStyle(el);
      styles.set(el, s);
    }
    return s;
  };
  const box = (el: Element) => el.getBoundingClientRect();
  const docRect = (el: Element): Rect => {
    const r = box(el);
    return { x: Math.round(r.left + sx), y: Math.round(r.top + sy), width: Math.round(r.width), height: Math.round(r.height) };
  };
  const visibleCache = new Map<Element, boolean>();
  const visible = (el: Element): boolean => {
    const cached = visibleCache.get(el);
    if (cached !== undefined) return cached;
    let ok = true;
    const r = box(el);
    if (r.width < 1 || r.height < 1) ok = false;
    else if (typeof el.checkVisibility === 'function') ok = el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
    else ok = css(el).display !== 'none' && css(el).visibility !== 'hidden';
    // Off the page on purpose (skip links at left: -9999px and the like).
    if (ok && (r.right + sx <= 0 || r.bottom + sy <= 0 || r.left + sx >= docW)) ok = false;
    visibleCache.set(el, ok);
    return ok;
  };
  const tagOf = (el: Element) => el.tagName.toLowerCase();
  const classAttr = (el: Element) => el.getAttribute('class') ?? '';
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
  const levelOf = (h: Element) => (/^H[1-6]$/.test(h.tagName) ? Number(h.tagName[1]) : Number(h.getAttribute('aria-level') ?? 2) || 2);
  const textOf = (el: Element) => norm((el as HTMLElement).innerText ?? el.textContent);
  /** Source text (not text-transformed) without decorations hidden from assistive tech (heading anchors, icons). */
  const cleanText = (el: Element) => {
    const parts: string[] = [];
    const walk = (node: Node, depth: number) => {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === Node.TEXT_NODE) parts.push(c.nodeValue ?? '');
        else if (c.nodeType === Node.ELEMENT_NODE && depth < 30) {
          const e = c as Element;
          if (e.getAttribute('aria-hidden') === 'true' || /^(SCRIPT|STYLE|TEMPLATE|svg)$/.test(e.tagName)) continue;
          const block = /^(BR|P|DIV|LI|H[1-6]|TD|TH|DT|DD|SECTION|ARTICLE)$/.test(e.tagName);
          if (block) parts.push(' ');
          walk(e, depth + 1);
          if (block) parts.push(' ');
        }
      }
    };
    walk(el, 0);
    return norm(parts.join(''));
  };
  /** Rendered text (innerText) minus what is hidden from assistive tech. */
  const readableText = (el: Element, max: number) => {
    let text = ((el as HTMLElement).innerText ?? el.textContent ?? '').slice(0, max * 2);
    for (const hidden of Array.from(el.querySelectorAll('[aria-hidden="true"]')).slice(0, 80)) {
      const t = (hidden as HTMLElement).innerText;
      if (t && t.trim()) text = text.replace(t, ' ');
    }
    return norm(text).slice(0, max);
  };
  // ---------- selectors ----------
  const cssString = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}"`;
  const unique = (selector: string, el: Element) => {
    try {
      const all = document.querySelectorAll(selector);
      return all.length === 1 && all[0] === el;
    } catch {
      return false;
    }
  };
  const GENERATED_ID = /^\d|[:]|\d{5,}|^(ember|react-|radix-|headlessui-|mui-|rc-|yui_|ext-gen|j_id|__[a-z]+\d)/i;
  const idSelector = (el: Element) => {
    const id = el.getAttribute('id');
    if (!id || id.length > 80 || GENERATED_ID.test(id)) return null;
    const sel = `#${CSS.escape(id)}`;
    return unique(sel, el) ? sel : null;
  };
  const STATE_CLASS =
    /^(is-|has-|js-|ng-|aos-|wow|animate|fade|slide-in|in-view|inview)|^(active|current|selected|open|opened|closed|show|shown|hide|hidden|visible|invisible|animated|focus|focused|hover|hovered|loaded|loading|lazy|lazyload|lazyloaded|collapsed|expanded|sticky|fixed|scrolled|revealed|filtered-out|disabled|enabled|in|out|on|off)$/i;
  const stableClasses = (el: Element) =>
    Array.from(el.classList).filter(
      (c) =>
        c.length <= 40 &&
        !STATE_CLASS.test(c) &&
        !/^(css|sc|jsx|emotion|tw|svelte)-[a-z0-9]+$/i.test(c) &&
        !/__[a-z0-9]{5,}$|^_[a-z0-9]{5,}$/i.test(c) &&
        !(/\d/.test(c) && /[a-z]{1,3}[-_][a-z0-9]{5,}$/i.test(c) && /[A-Z].*\d|\d.*[A-Z]/.test(c)),
    );
  const segment = (el: Element) => {
    const tag = tagOf(el);
    const parent = el.parentElement;
    if (!parent) return tag;
    const same = Array.from(parent.children).filter((c) => c.tagName === el.tagName);
    return same.length === 1 ? tag : `${tag}:nth-of-type(${same.indexOf(el) + 1})`;
  };
  const anchorOf = (el: Element) => {
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const sel = idSelector(a);
      if (sel) return { el: a, sel };
    }
    return null;
  };
  const chainTo = (el: Element, stop: Element | null) => {
    const chain: string[] = [];
    for (let n: Element | null = el; n && n !== stop && n !== document.body && n !== document.documentElement; n = n.parentElement) chain.push(segment(n));
    return chain;
  };
  /** The shortest nth-of-type path from the nearest ancestor with an id (or from the top) that matches only el. */
  const pathSelector = (el: Element) => {
    const anchor = anchorOf(el);
    const chain = chainTo(el, anchor?.el ?? null);
    for (let k = 1; k <= chain.length; k++) {
      const part = chain.slice(0, k).reverse().join(' > ');
      const sel = anchor ? `${anchor.sel} ${part}` : part;
      if (unique(sel, el)) return sel;
    }
    const full = anchor ? `${anchor.sel} > ${chain.slice().reverse().join(' > ')}` : `body > ${chain.slice().reverse().join(' > ')}`;
    return unique(full, el) ? full : null;
  };
  const absoluteSelector = (el: Element) => {
    const sel = `body > ${chainTo(el, null).reverse().join(' > ')}`;
    return unique(sel, el) ? sel : null;
  };
  const TEST_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];
  const selectorsCache = new Map<Element, { selector: string; fallbackSelectors: string[] } | null>();
  /** A primary selector (#id, then data-testid, then a short path) and up to two different fallbacks. */
  const selectorsFor = (el: Element): { selector: string; fallbackSelectors: string[] } | null => {
    if (selectorsCache.has(el)) return selectorsCache.get(el) ?? null;
    const tag = tagOf(el);
    const primaries: Array<string | null> = [idSelector(el)];
    for (const attr of TEST_ATTRS) {
      const value = el.getAttribute(attr);
      if (value) primaries.push(`[${attr}=${cssString(value)}]`);
    }
    const classes = stableClasses(el).map((c) => `.${CSS.escape(c)}`);
    let classSelector: string | null = null;
    for (const c of classes) {
      if (unique(`${tag}${c}`, el)) {
        classSelector = `${tag}${c}`;
        break;
      }
    }
    for (let n = 2; !classSelector && n <= Math.min(3, classes.length); n++) {
      const sel = `${tag}${classes.slice(0, n).join('')}`;
      if (unique(sel, el)) classSelector = sel;
    }
    const path = pathSelector(el);
    const pathLength = path ? path.split(/\s*>\s*|\s+/).length : 99;
    // #id, then a test id, then a short path; a distinctive class beats a long path.
    const first =
      primaries.find((s) => s && unique(s, el)) ?? (pathLength <= 3 ? path : null) ?? classSelector ?? path;
    if (!first) {
      selectorsCache.set(el, null);
      return null;
    }
    const extra: Array<string | null> = [...primaries];
    const scoped = (sel: string) => {
      if (unique(sel, el)) return sel;
      const anchor = anchorOf(el);
      return anchor && unique(`${anchor.sel} ${sel}`, el) ? `${anchor.sel} ${sel}` : null;
    };
    const aria = el.getAttribute('aria-label');
    if (aria) extra.push(scoped(`${tag}[aria-label=${cssString(aria)}]`));
    const href = el.getAttribute('href');
    if (tag === 'a' && href && href.length <= 200) extra.push(scoped(`a[href=${cssString(href)}]`));
    const name = el.getAttribute('name');
    if (name && /^(input|select|textarea|button|form)$/.test(tag)) {
      const form = (el as HTMLInputElement).form;
      const formSel = form && form !== el ? idSelector(form) : null;
      extra.push(scoped(`${tag}[name=${cssString(name)}]`));
      if (formSel) extra.push(`${formSel} ${tag}[name=${cssString(name)}]`);
    }
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) extra.push(scoped(`${tag}[aria-labelledby=${cssString(labelledBy)}]`));
    extra.push(classSelector, path);
    if (classes.length > 0 && el.parentElement) {
      const parentClasses = stableClasses(el.parentElement).slice(0, 1).map((c) => `.${CSS.escape(c)}`);
      if (parentClasses.length > 0) extra.push(scoped(`${tagOf(el.parentElement)}${parentClasses[0]} > ${segment(el)}`));
    }
    extra.push(absoluteSelector(el));
    const fallbackSelectors: string[] = [];
    for (const sel of extra) {
      if (!sel || sel === first || fallbackSelectors.includes(sel) || !unique(sel, el)) continue;
      fallbackSelectors.push(sel);
      if (fallbackSelectors.length === 2) break;
    }
    const result = { selector: first, fallbackSelectors };
    selectorsCache.set(el, result);
    return result;
  };

  // ---------- colours and buttons ----------
  const parseColor = (value: string) => {
    const m = value.match(/rgba?\(([^)]+)\)/);
    if (!m || !m[1]) return { r: 0, g: 0, b: 0, a: 0 };
    const parts = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: parts[0] ?? 0, g: parts[1] ?? 0, b: parts[2] ?? 0, a: parts.length > 3 ? (parts[3] ?? 1) : 1 };
  };
  const backgroundBehind = (el: Element) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      const c = parseColor(css(a).backgroundColor);
      if (c.a >= 0.5) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  /** How much an element looks like a button: 0 (plain text) … 2.5 (filled with a colour that stands out). */
  const buttonLook = (el: Element) => {
    const s = css(el);
    const bg = parseColor(s.backgroundColor);
    const padded = parseFloat(s.paddingLeft) >= 8 || parseFloat(s.paddingTop) >= 6;
    const gradient = s.backgroundImage.includes('gradient');
    const radius = parseFloat(s.borderTopLeftRadius) || 0;
    const border = parseFloat(s.borderTopWidth) >= 1 && s.borderTopStyle !== 'none' && parseColor(s.borderTopColor).a > 0.2;
    if ((bg.a >= 0.5 || gradient) && padded) {
      const behind = backgroundBehind(el);
      const contrast = Math.abs(bg.r - behind.r) + Math.abs(bg.g - behind.g) + Math.abs(bg.b - behind.b);
      if (gradient || contrast > 90) return 2.5;
      return s.boxShadow !== 'none' || radius >= 4 ? 1.8 : 1.4;
    }
    if (border && padded && radius >= 2) return 1.2;
    return 0;
  };

  // ---------- sections ----------
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'LINK', 'META', 'BR', 'HR', 'DIALOG']);
  const LEAF_TAGS = new Set([
    'HEADER', 'FOOTER', 'ASIDE', 'FORM', 'NAV', 'FIGURE', 'UL', 'OL', 'DL', 'TABLE', 'DETAILS', 'BLOCKQUOTE', 'P', 'PRE', 'A',
    'BUTTON', 'IMG', 'PICTURE', 'VIDEO', 'CANVAS', 'IFRAME', 'svg', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
  ]);
  const isFixed = (el: Element) => css(el).position === 'fixed';
  const significantChildren = (container: Element) => {
    const kids = Array.from(container.children).filter((c) => !SKIP.has(c.tagName) && !isFixed(c) && visible(c));
    const maxW = Math.max(0, ...kids.map((k) => box(k).width));
    return kids.filter((k) => {
      const r = box(k);
      // A narrow but tall column (a docs page's text column under a full-width header) is most of the page.
      const column = r.height >= vh && r.width >= Math.min(0.3 * vw, 320);
      return r.height >= 24 && (column || r.width >= Math.max(0.45 * maxW, Math.min(0.3 * vw, 320)));
    });
  };
  const topHeadingLevel = (el: Element) => {
    let best = 99;
    const list = el.matches(HEADINGS) ? [el] : Array.from(el.querySelectorAll(HEADINGS));
    for (const h of list) {
      if (!visible(h)) continue;
      best = Math.min(best, Math.max(2, levelOf(h)));
      if (best === 2) break;
    }
    return best;
  };
  const hasMajorHeading = (el: Element) => Array.from(el.querySelectorAll('h1, h2')).some((h) => visible(h));
  const isRootish = (el: Element) =>
    el === document.body || el.tagName === 'MAIN' || el.getAttribute('role') === 'main' || box(el).height >= docH * 0.8;
  const isNavBar = (el: Element) => {
    const r = box(el);
    if (r.height > Math.max(160, vh * 0.22) || r.top + sy > vh * 0.25) return false;
    const navish =
      el.matches('nav, [role="navigation"], header, [role="banner"]') ||
      !!el.querySelector('nav, [role="navigation"]') ||
      el.querySelectorAll('a[href]').length >= 3;
    return navish && !hasMajorHeading(el);
  };
  /** The direct h2 children (or h3, when there is no h2) a flat block should be split by. */
  // The headings a flat run is split by: the highest level among its direct headings, when it has three or more. An
  // h1 or two above them is a title, not a split (a docs page's markdown may use h1 for every part, or h6).
  const flatHeadings = (el: Element) => {
    const direct = Array.from(el.children).filter((c) => /^H[1-6]$/.test(c.tagName) && visible(c));
    for (const level of ['H1', 'H2', 'H3', 'H4', 'H5', 'H6']) {
      const at = direct.filter((h) => h.tagName === level);
      if (at.length >= 3) return at;
      if (at.length > 0 && level !== 'H1') return [];
    }
    return [];
  };
  const shouldDescend = (el: Element, depth: number) => {
    if (depth > 10) return false;
    const kids = significantChildren(el);
    if (kids.length === 0) return false;
    // Headings straight inside: a flat run of headings and paragraphs, split by heading later, not by child.
    if (flatHeadings(el).length >= 3) return false;
    if (isRootish(el)) return true;
    if (el.tagName === 'SECTION' || el.tagName === 'ARTICLE') {
      const width = box(el).width;
      const inner = Array.from(el.querySelectorAll('section, article')).filter(
        (s) => visible(s) && box(s).height >= 120 && box(s).width >= 0.5 * width,
      );
      return inner.filter((s) => !inner.some((o) => o !== s && o.contains(s))).length >= 2;
    }
    if (LEAF_TAGS.has(el.tagName)) return false;
    if (kids.length === 1) return true;
    const levels = kids.map(topHeadingLevel);
    const minLevel = Math.min(...levels);
    const height = box(el).height;
    if (minLevel < 99 && levels.filter((l) => l === minLevel).length >= 2 && height >= vh * 0.9) return true;
    return kids.filter((k) => box(k).height >= vh * 0.5).length >= 2 && height >= vh * 1.2;
  };
  const blocks: Element[] = [];
  const visit = (el: Element, depth: number): void => {
    if (el !== document.body && isNavBar(el)) return;
    if (!shouldDescend(el, depth)) {
      blocks.push(el);
      return;
    }
    let kids = significantChildren(el);
    let d = depth;
    if (kids.length === 1 && !isRootish(el)) {
      // A chain of wrappers: the section is the outermost one unless something inside splits into sections.
      let inner = kids[0] as Element;
      for (;;) {
        d++;
        if (!shouldDescend(inner, d)) {
          blocks.push(el);
          return;
        }
        const innerKids = significantChildren(inner);
        if (innerKids.length !== 1 || isRootish(inner)) {
          kids = innerKids;
          break;
        }
        inner = innerKids[0] as Element;
      }
    }
    for (const kid of kids) visit(kid, d + 1);
  };
  if (document.body) visit(document.body, 0);

  interface RawSection {
    el: Element;
    rect: Rect;
    heading: Element | null;
    text: string;
    virtual: boolean;
  }
  const headingIn = (el: Element): Element | null => {
    let best: Element | null = null;
    let bestLevel = 99;
    for (const h of Array.from(el.querySelectorAll(HEADINGS))) {
      if (!visible(h) || !cleanText(h)) continue;
      const level = levelOf(h);
      if (level < bestLevel) {
        best = h;
        bestLevel = level;
      }
    }
    return best;
  };
  const raw: RawSection[] = [];
  for (const el of blocks) {
    const rect = docRect(el);
    // A long flat block of headings and paragraphs (an article, a docs page): one section per heading.
    const splitBy = flatHeadings(el);
    if (splitBy.length >= 3 && rect.height > vh * 1.5) {
      // What comes before the first split heading (a title and an intro) is a section when it has a heading.
      const firstSplit = splitBy[0] as Element;
      const lead = Array.from(el.children)
        .slice(0, Array.from(el.children).indexOf(firstSplit))
        .find((c) => /^H[1-6]$/.test(c.tagName) && visible(c));
      if (lead) {
        const top = docRect(lead).y;
        let text = '';
        for (let n = lead.nextElementSibling; n && n !== firstSplit && text.length < 2000; n = n.nextElementSibling) text += ` ${readableText(n, 2000)}`;
        raw.push({ el: lead, rect: { x: rect.x, y: top, width: rect.width, height: Math.max(1, docRect(firstSplit).y - top) }, heading: lead, text: norm(text), virtual: true });
      }
      splitBy.forEach((h, i) => {
        const top = docRect(h).y;
        const next = splitBy[i + 1];
        const bottom = next ? docRect(next).y : rect.y + rect.height;
        let text = '';
        for (let n = h.nextElementSibling; n && n !== next && text.length < 2000; n = n.nextElementSibling) text += ` ${readableText(n, 2000)}`;
        raw.push({ el: h, rect: { x: rect.x, y: top, width: rect.width, height: Math.max(1, bottom - top) }, heading: h, text: norm(text), virtual: true });
      });
      continue;
    }
    raw.push({ el, rect, heading: headingIn(el), text: readableText(el, 5000), virtual: false });
  }
  const kept = raw
    .filter((s) => {
      if (s.rect.height < 40 && !s.virtual) return false;
      // A thin band without a heading (an announcement bar above the header: "Free delivery over £50", "Same-day
      // emergency slots") is furniture, not a part of the page a video would show; it also stood in the hero's place.
      if (!s.virtual && !s.heading && s.rect.height < 64) return false;
      const hasContent = s.heading || s.text.length >= 20 || s.el.querySelector('img, video, canvas, iframe, svg, form, input');
      return !!hasContent;
    })
    .sort((a, b) => a.rect.y - b.rect.y)
    .slice(0, options.maxSections);

  // ---------- actions and navigation ----------
  const UTILITY = /^(copy|copied|close|×|✕|menu|toggle|search|prev|previous|next|yes|no|share|like|more|expand|collapse|show|hide|play|pause|mute|unmute|submit search)$/i;
  const CTA_VERB =
    /^(start|get|try|sign ?up|join|book|request|schedule|contact|talk|see|watch|explore|learn|discover|download|create|buy|order|subscribe|claim|upgrade|install|begin|apply|register|view|shop|let'?s|go)\b/i;
  const stuckContainerCache = new Map<Element, Element | null>();
  const stuckContainer = (el: Element): Element | null => {
    if (stuckContainerCache.has(el)) return stuckContainerCache.get(el) ?? null;
    let found: Element | null = null;
    for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
      const p = css(a).position;
      if (p === 'fixed' || p === 'sticky') {
        found = a;
        break;
      }
    }
    stuckContainerCache.set(el, found);
    return found;
  };
  const labelFor = (el: Element) =>
    clip(
      norm(
        el.getAttribute('aria-label') ||
          (el as HTMLElement).innerText ||
          (el as HTMLInputElement).value ||
          el.getAttribute('title') ||
          el.querySelector('img[alt]')?.getAttribute('alt') ||
          '',
      ),
      80,
    );
  const inFooter = (el: Element) =>
    !!el.closest('footer, [role="contentinfo"]') && !el.closest('main, [role="main"], article, section');
  const inNavigation = (el: Element) => {
    if (el.closest('nav, [role="navigation"], [role="menubar"], [role="menu"]')) return true;
    const stuck = stuckContainer(el);
    if (stuck && stuck.querySelectorAll('a[href]').length >= 3) return true;
    const header = el.closest('header, [role="banner"]');
    return !!header && !header.closest('main, article, section') && box(header).height < vh * 0.3;
  };
  const inlineInText = (el: Element) => {
    const p = el.closest('p, li, td, dd, span');
    if (!p) return false;
    return textOf(p).length > textOf(el).length + 20;
  };
  interface RawAction {
    el: Element;
    kind: ActionKind;
    label: string;
    href: string | null;
    rect: Rect;
    score: number;
    nav: boolean;
  }
  const actionsRaw: RawAction[] = [];
  const seen = new Set<Element>();
  for (const el of Array.from(document.querySelectorAll('a[href], button, [role="button"], input[type="submit"], input[type="button"]'))) {
    if (seen.has(el) || !visible(el) || el.closest('[aria-hidden="true"], [inert]')) continue;
    // A button inside a link (or the reverse) is one action.
    const outer = el.parentElement?.closest('a[href], button, [role="button"]');
    if (outer) continue;
    seen.add(el);
    const r = box(el);
    if (r.width < 8 || r.height < 8) continue;
    const label = labelFor(el);
    if (!label) continue;
    const tag = el.tagName;
    const look = buttonLook(el);
    const nav = inNavigation(el);
    const area = r.width * r.height;
    let kind: ActionKind | null = null;
    // In a nav bar, only a strong button (or a button-like link with a call-to-action verb) is a CTA; a highlighted
    // "current page" link is still navigation.
    const ctaLook = nav ? look >= 2.5 || (look > 0 && CTA_VERB.test(label)) : look > 0;
    if (ctaLook && area >= 1200 && !UTILITY.test(label) && label.length <= 60) kind = 'cta';
    else if (tag === 'A' && nav) kind = 'nav-link';
    else if (tag === 'A') {
      if (!inFooter(el) && CTA_VERB.test(label) && label.split(' ').length <= 6 && !inlineInText(el)) kind = 'cta';
    } else kind = 'button';
    if (!kind) continue;
    const rawHref = el.getAttribute('href');
    const href = tag === 'A' && rawHref ? (el as HTMLAnchorElement).href : null;
    const score =
      area * Math.max(1, look) * (CTA_VERB.test(label) ? 1.3 : 1) * (nav || stuckContainer(el) ? 0.5 : 1) * (inFooter(el) ? 0.3 : 1);
    actionsRaw.push({ el, kind, label, href, rect: docRect(el), score, nav });
  }
  const ctas = actionsRaw.filter((a) => a.kind === 'cta');
  const aboveFold = ctas.filter((a) => a.rect.y < vh && a.rect.y + a.rect.height > 0);
  const primaryPool = aboveFold.length > 0 ? aboveFold : ctas.map((a) => ({ ...a, score: a.score / (1 + a.rect.y / vh) }));
  const primary = primaryPool.reduce<RawAction | null>((best, a) => (!best || a.score > best.score ? a : best), null);
  if (primary) {
    const original = actionsRaw.find((a) => a.el === primary.el);
    if (original) original.kind = 'primary-cta';
  }
  const toAction = (a: RawAction) => {
    const sel = selectorsFor(a.el);
    return sel ? { label: a.label, kind: a.kind, href: a.href, rect: a.rect, ...sel } : null;
  };
  const navigation: PageOutline['navigation'] = [];
  const navSeen = new Set<string>();
  for (const a of actionsRaw) {
    if (a.kind !== 'nav-link' || navigation.length >= options.maxNavigation) continue;
    const key = `${a.label}|${a.href}`;
    if (navSeen.has(key)) continue;
    navSeen.add(key);
    const action = toAction(a);
    if (action) navigation.push(action);
  }
  const ranked = actionsRaw
    .filter((a) => a.kind !== 'nav-link')
    .sort((a, b) => (a.kind === 'primary-cta' ? -1 : b.kind === 'primary-cta' ? 1 : (a.kind === 'cta' ? 0 : 1) - (b.kind === 'cta' ? 0 : 1)))
    .slice(0, options.maxActions)
    .sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x);
  const actions: PageOutline['actions'] = [];
  for (const a of ranked) {
    const action = toAction(a);
    if (action) actions.push(action);
  }

  // ---------- forms ----------
  const FIELD_SKIP = /^(hidden|submit|button|reset|image)$/i;
  const fieldsIn = (container: Element) =>
    Array.from(container.querySelectorAll('input, select, textarea')).filter(
      (f) => !FIELD_SKIP.test((f as HTMLInputElement).type || '') && visible(f),
    ) as Array<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>;
  const fieldLabel = (f: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement) => {
    const label = f.labels && f.labels[0];
    if (label) {
      const t = norm(label.innerText);
      if (t) return t;
    }
    const labelledBy = f.getAttribute('aria-labelledby');
    if (labelledBy) {
      const t = norm(
        labelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      if (t) return t;
    }
    return norm(f.getAttribute('aria-label') || f.getAttribute('placeholder') || f.getAttribute('title') || f.getAttribute('name') || f.type);
  };
  const formContainers: Element[] = Array.from(document.forms).filter((f) => visible(f) && fieldsIn(f).length > 0);
  for (const f of Array.from(document.querySelectorAll('input, select, textarea'))) {
    if ((f as HTMLInputElement).form || FIELD_SKIP.test((f as HTMLInputElement).type || '') || !visible(f)) continue;
    if (formContainers.some((c) => c.contains(f))) continue;
    // A form without <form>: the nearest ancestor (a few levels up) that also holds a button.
    let container: Element = f.parentElement ?? f;
    for (let a = f.parentElement, i = 0; a && a !== document.body && i < 4; a = a.parentElement, i++) {
      if (a.querySelector('button, [type="submit"], [role="button"]')) {
        container = a;
        break;
      }
    }
    if (!formContainers.includes(container)) formContainers.push(container);
  }
  const forms: PageOutline['forms'] = [];
  for (const container of formContainers) {
    const fields: PageOutline['forms'][number]['fields'] = [];
    for (const f of fieldsIn(container)) {
      const sel = selectorsFor(f);
      if (!sel) continue;
      fields.push({
        label: clip(fieldLabel(f), 80),
        name: f.getAttribute('name'),
        type: f.tagName === 'INPUT' ? (f as HTMLInputElement).type || 'text' : tagOf(f),
        rect: docRect(f),
        ...sel,
      });
    }
    if (fields.length === 0) continue;
    const submitEl =
      Array.from(container.querySelectorAll('button[type="submit"], input[type="submit"], button:not([type])')).find((b) => visible(b)) ??
      (container.tagName === 'FORM' ? null : Array.from(container.querySelectorAll('button, [role="button"]')).find((b) => visible(b))) ??
      null;
    let submit: PageOutline['forms'][number]['submit'] = null;
    if (submitEl) {
      const known = actionsRaw.find((a) => a.el === submitEl);
      const sel = selectorsFor(submitEl);
      if (sel) {
        submit = {
          label: labelFor(submitEl) || 'Submit',
          kind: known && known.kind !== 'nav-link' ? known.kind : 'button',
          href: null,
          rect: docRect(submitEl),
          ...sel,
        };
      }
    }
    const sel = selectorsFor(container);
    if (!sel) continue;
    const named = container.getAttribute('aria-label') || container.getAttribute('name') || headingIn(container)?.textContent;
    forms.push({ label: clip(norm(named) || fields.map((f) => f.label).join(', '), 80), rect: docRect(container), fields, submit, ...sel });
  }

  // ---------- media ----------
  const media: PageOutline['media'] = [];
  const mediaEls = Array.from(document.querySelectorAll('img, video, canvas, iframe')).filter((m) => {
    if (!visible(m)) return false;
    const r = box(m);
    return r.width >= 120 && r.height >= 80;
  });
  for (const m of mediaEls) {
    if (media.length >= options.maxMedia) break;
    const sel = selectorsFor(m);
    if (!sel) continue;
    const kind = m.tagName === 'IMG' ? 'image' : m.tagName === 'VIDEO' ? 'video' : m.tagName === 'CANVAS' ? 'canvas' : 'iframe';
    media.push({ kind, selector: sel.selector, rect: docRect(m) });
  }

  // ---------- section kinds ----------
  const PRICE = /(?:[$€£¥₹]|\bUS\$|\b(?:USD|EUR|GBP)\s?)\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:€|£|\$|zł|kr\b|(?:USD|EUR|GBP|CHF)\b)/g;
  // Per period or per head: a SaaS plan, an event's pass ("€420 each", "per person"), a room ("per night").
  const PERIOD = /\/\s?(?:mo|month|yr|year|user|seat|editor|member|person|night)\b|\bper\s+(?:month|year|user|seat|editor|member|person|attendee|guest|night|ticket)|\bmonthly\b|\bannually\b|\bbilled\b|\/\s?(?:mo|yr)\b/i;
  // The hero is the first part tall enough to be one (a band above it does not take its place).
  const firstContentIndex = kept.findIndex((s) => s.rect.y < vh * 0.6 && s.rect.height >= vh * 0.3);
  const sectionKind = (s: RawSection, index: number): Kind => {
    const el = s.el;
    const tag = el.tagName;
    const role = el.getAttribute('role');
    const heading = s.heading ? cleanText(s.heading).toLowerCase() : '';
    const idc = `${el.getAttribute('id') ?? ''} ${classAttr(el)} ${el.getAttribute('aria-label') ?? ''}`.toLowerCase();
    const key = `${heading} ${idc}`;
    const text = s.text;
    const isLast = index === kept.length - 1;
    const links = s.virtual ? 0 : el.querySelectorAll('a[href]').length;
    const area = Math.max(1, s.rect.width * s.rect.height);
    const inside = (r: Rect) => r.y >= s.rect.y - 1 && r.y + r.height <= s.rect.y + s.rect.height + 1 && r.x >= s.rect.x - 1 && r.x + r.width <= s.rect.x + s.rect.width + 1;
    const contains = (other: Element) => (s.virtual ? inside(docRect(other)) : el.contains(other));
    const sectionActions = actionsRaw.filter((a) => (a.kind === 'cta' || a.kind === 'primary-cta') && contains(a.el));

    if (!s.virtual && (tag === 'FOOTER' || role === 'contentinfo' || /\b(site-|page-)?footer\b/.test(idc))) return 'footer';
    if (isLast && !s.virtual && !hasMajorHeading(el) && s.rect.y + s.rect.height >= docH - 120 && (links >= 3 || /©|copyright|all rights reserved/i.test(text)) && text.length < 1500)
      return 'footer';

    const prices = (text.match(PRICE) ?? []).length;
    if ((prices >= 2 && (PERIOD.test(text) || /pric|plan|ticket|\bpass(?:es)?\b|admission/.test(key))) || (/\bpricing\b|\bplans?\b|\btickets?\b/.test(key) && prices >= 1)) return 'pricing';

    const details = s.virtual ? 0 : el.querySelectorAll('details').length;
    const expanders = s.virtual ? 0 : el.querySelectorAll('[aria-expanded]').length;
    const questions = (text.match(/\?/g) ?? []).length;
    if (details >= 2 || /\bfaqs?\b|frequently asked|common questions|\bquestions\b/.test(key) || (expanders >= 3 && questions >= 3)) return 'faq';

    const fields = s.virtual ? [] : fieldsIn(el).filter((f) => !/^(checkbox|radio|search)$/.test((f as HTMLInputElement).type));
    const formEls = s.virtual ? [] : Array.from(el.querySelectorAll('form')).filter((f) => visible(f));
    const formArea = formEls.reduce((sum, f) => sum + box(f).width * box(f).height, 0);
    if (fields.length >= 2 && formArea >= 0.3 * area) return 'form';

    const h1 = !s.virtual && Array.from(el.querySelectorAll('h1')).some((h) => visible(h));
    const headingFont = s.heading ? parseFloat(css(s.heading).fontSize) : 0;
    const sectionMedia = mediaEls.filter((m) => contains(m));
    if (
      index === firstContentIndex &&
      s.rect.height >= vh * 0.3 &&
      (h1 || headingFont >= 36) &&
      (sectionActions.length > 0 || sectionMedia.length > 0 || s.rect.height >= vh * 0.5)
    )
      return 'hero';

    const quotes = s.virtual ? 0 : el.querySelectorAll('blockquote, q').length;
    const quoted = (text.match(/[“"«„][^”"»“]{20,}[”"»“]/g) ?? []).length;
    if (quotes >= 2 || /testimonial|what .{0,30} say|loved by|\breviews?\b|customer stories|wall of love|kind words/.test(key) || (quotes >= 1 && quoted >= 1))
      return 'testimonials';

    const smallImages = s.virtual
      ? 0
      : Array.from(el.querySelectorAll('img, svg')).filter((m) => {
          if (!visible(m) || m.parentElement?.closest('svg')) return false;
          const r = box(m);
          return r.height >= 14 && r.height <= 120 && r.width >= 40 && r.width <= 320;
        }).length;
    const headingText = s.heading ? cleanText(s.heading) : '';
    const bodyLength = Math.max(0, text.length - headingText.length);
    if ((smallImages >= 4 && bodyLength < 250) || (/\blogos?\b|trusted by|used by|customers|partners|clients|as seen|backed by|featured in/.test(key) && smallImages >= 3))
      return 'logos';

    if (fields.length >= 2) return 'form';

    const mediaArea = sectionMedia.reduce((sum, m) => sum + box(m).width * box(m).height, 0);
    const largeMedia = sectionMedia.filter((m) => box(m).width >= 300).length;
    if ((mediaArea / area >= 0.5 && bodyLength < 300) || (/\bwork\b|case stud|portfolio|gallery|showcase|projects|screenshots/.test(key) && largeMedia >= 2))
      return 'media';

    let cards = 0;
    if (!s.virtual) {
      for (const c of [el, ...Array.from(el.querySelectorAll('div, ul, ol'))].slice(0, 400)) {
        const kids = Array.from(c.children).filter((k) => visible(k));
        if (kids.length < 3) continue;
        const withHeading = kids.filter((k) => k.querySelector('h3, h4, h5, h6, [role="heading"]') || /^H[3-6]$/.test(k.tagName));
        if (withHeading.length < 3) continue;
        const tops = withHeading.map((k) => Math.round(box(k).top));
        const sideBySide = tops.some((t, i) => tops.some((u, j) => j !== i && Math.abs(t - u) < 4));
        if (sideBySide) cards = Math.max(cards, withHeading.length);
      }
    }
    if (cards >= 3 || /feature|benefit|\bwhy\b|how it works|what we do|services|capabilit|everything you need|integrations/.test(key)) return 'features';

    if (s.heading && bodyLength < 450 && sectionActions.length >= 1 && sectionActions.length <= 3 && s.rect.height < vh * 0.9 && fields.length <= 1)
      return 'cta';
    return 'content';
  };

  const KIND_LABEL: Record<Kind, string> = {
    hero: 'Hero', features: 'Features', pricing: 'Pricing', testimonials: 'Testimonials', logos: 'Logos', faq: 'FAQ',
    cta: 'Call to action', form: 'Form', media: 'Media', content: 'Content', footer: 'Footer',
  };
  const slug = (value: string) =>
    value
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/[\s_-]+/g, '-')
      .slice(0, 40)
      .replace(/-+$/, '');
  const usedIds = new Set<string>();
  const sections: PageOutline['sections'] = [];
  kept.forEach((s, index) => {
    const sel = selectorsFor(s.el);
    if (!sel) return;
    const kind = sectionKind(s, index);
    // A footer's first heading is a column title ("Product"), not the section's.
    const ownHeading = s.heading && (kind !== 'footer' || levelOf(s.heading) <= 3) ? s.heading : null;
    const headingText = ownHeading ? clip(cleanText(ownHeading), 120) : null;
    const fallbackHeading = s.virtual ? null : norm(s.el.getAttribute('aria-label')) || null;
    const heading = headingText || fallbackHeading;
    let summary = s.text;
    let kicker: string | null = null;
    if (s.heading) {
      const shown = readableText(s.heading, 300);
      const at = shown ? summary.indexOf(shown) : -1;
      if (at >= 0 && at < 80) {
        // A few words just above the heading ("PRICING", "Line-up", "Getting here"): the eyebrow many sites label a
        // section with when the heading itself is a slogan.
        const before = summary.slice(0, at).trim();
        if (before && before.length <= 40 && before.split(/\s+/).length <= 5) kicker = before;
        summary = `${summary.slice(0, at)} ${summary.slice(at + shown.length)}`.trim();
      }
    }
    const elementId = s.virtual ? null : s.el.getAttribute('id');
    const headingWords = heading ? heading.split(/\s+/).slice(0, 6).join(' ') : '';
    const base = slug(elementId || (kind === 'hero' || kind === 'footer' ? kind : headingWords || kind)) || kind;
    let id = base;
    for (let n = 2; usedIds.has(id); n++) id = `${base}-${n}`;
    usedIds.add(id);
    const headingRect = ownHeading ? docRect(ownHeading) : null;
    // The widgets a section holds, which people name a section by ("the interest slider", "the FAQ accordion",
    // "the product carousel"): by role and structure, not by class names.
    const widgets: NonNullable<PageOutline['sections'][number]['widgets']> = [];
    if (!s.virtual) {
      const el = s.el;
      if (el.querySelector('input[type="range"], [role="slider"]')) widgets.push('slider');
      if (el.querySelectorAll('details > summary, button[aria-expanded]').length >= 2) widgets.push('accordion');
      if (el.querySelectorAll('[role="tab"]').length >= 2) widgets.push('tabs');
      if (el.querySelector('[role="switch"]')) widgets.push('toggle');
      let carousel = el.querySelector('[aria-roledescription="carousel" i]') !== null;
      const inner = el.querySelectorAll('*');
      for (let i = 0; !carousel && i < inner.length && i < 1500; i++) {
        const child = inner[i] as HTMLElement;
        if (child.clientWidth < 200 || child.scrollWidth <= child.clientWidth + 40) continue;
        const overflow = getComputedStyle(child).overflowX;
        carousel = overflow === 'auto' || overflow === 'scroll';
      }
      if (carousel) widgets.push('carousel');
    }
    // Image alt texts name what the pictures show (products, partners' logos, the screens of an app).
    const alts = s.virtual ? '' : Array.from(s.el.querySelectorAll('img[alt]')).slice(0, 40).map((img) => img.getAttribute('alt') ?? '').join(' ');
    const body = norm(`${summary} ${alts}`).slice(0, 1500);
    sections.push({ id, kind, heading, ...(kicker ? { kicker } : {}), ...(headingRect && headingRect.height > 0 ? { headingRect } : {}), ...(widgets.length > 0 ? { widgets } : {}), text: clip(summary, 200), ...(body ? { body } : {}), label: heading ? clip(heading, 80) : KIND_LABEL[kind], rect: s.rect, ...sel });
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
    sections,
    actions,
    forms,
    media,
    dismissedOverlays: options.dismissedOverlays,
  };
}
