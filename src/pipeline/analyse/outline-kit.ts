/**
 * The toolkit every part of the outline's reading shares, in the page: the viewport and document sizes, text as a
 * reader sees it, boxes in document coordinates, visibility, and a selector that matches exactly one element. Like
 * every in-page part (outline.ts says how they travel), self-contained: only the DOM, no closure over Node.
 */
export function outlineKit() {
  type Rect = { x: number; y: number; width: number; height: number };

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


  // ---------- shared by the parts ----------
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'LINK', 'META', 'BR', 'HR', 'DIALOG']);
  // (A column pinned beside a box released into the document, inner-scroller.ts, stays on screen as a fixed one does.)
  const isFixed = (el: Element) => css(el).position === 'fixed' || el.hasAttribute('data-showreel-pinned');
  const hasMajorHeading = (el: Element) => Array.from(el.querySelectorAll('h1, h2')).some((h) => visible(h));
  /**
   * A heading that is a bare number ("1", "02."): a carousel's slide numbers (glider's demos, an <h1> on each slide) or a
   * step's numeral. It names no part; a worded heading beside it does ("Single Item" over its slides "1" to "10").
   */
  const isNumeral = (h: Element) => /^\d{1,3}\.?$/.test(cleanText(h));
  const headingIn = (el: Element): Element | null => {
    let best: Element | null = null;
    let bestLevel = 99;
    for (const h of Array.from(el.querySelectorAll(HEADINGS))) {
      if (!visible(h) || !cleanText(h)) continue;
      // A numeral only when nothing else heads it.
      const level = levelOf(h) + (isNumeral(h) ? 10 : 0);
      if (level < bestLevel) {
        best = h;
        bestLevel = level;
      }
    }
    return best;
  };

  return { vw, vh, sx, sy, docW, docH, norm, clip, css, box, docRect, visible, tagOf, classAttr, HEADINGS, levelOf, textOf, cleanText, readableText, selectorsFor, buttonLook, SKIP, isFixed, hasMajorHeading, headingIn, isNumeral };
}

export type OutlineKit = ReturnType<typeof outlineKit>;
