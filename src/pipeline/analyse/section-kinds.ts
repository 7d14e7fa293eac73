import type { PageOutline } from '../types.js';
import type { PageControls } from './outline-actions.js';
import type { OutlineKit } from './outline-kit.js';
import type { RawSection } from './outline-sections.js';

type Rect = { x: number; y: number; width: number; height: number };
type Kind = PageOutline['sections'][number]['kind'];

/**
 * In the page: what each part found is (its kind: hero, pricing, FAQ, form, testimonials, logos, media, features,
 * call to action, content, footer), by its structure and words, and how the outline describes it: a stable id, its
 * heading and eyebrow, the widgets it holds, a summary and its whole text (with its images' alt texts).
 */
export function describeSections(kit: OutlineKit, kept: RawSection[], controls: Pick<PageControls, 'actionsRaw' | 'mediaEls' | 'fieldsIn'>): PageOutline['sections'] {
  const { vh, docH, norm, clip, css, box, docRect, visible, classAttr, levelOf, cleanText, readableText, selectorsFor, hasMajorHeading } = kit;
  const { actionsRaw, mediaEls, fieldsIn } = controls;
  // ---------- section kinds ----------
  const PRICE = /(?:[$€£¥₹]|\bUS\$|\b(?:USD|EUR|GBP)\s?)\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:€|£|\$|zł|kr\b|(?:USD|EUR|GBP|CHF)\b)/g;
  // Per period or per head: a SaaS plan, an event's pass ("€420 each", "per person"), a room ("per night").
  const PERIOD = /\/\s?(?:mo|month|yr|year|user|seat|editor|member|person|night)\b|\bper\s+(?:month|year|user|seat|editor|member|person|attendee|guest|night|ticket)|\bmonthly\b|\bannually\b|\bbilled\b|\/\s?(?:mo|yr)\b/i;
  // The hero is the first part tall enough to be one (a band above it does not take its place).
  // The first sizeable part near the top; a headed one before a bar with no heading above it (a tall header of logo
  // and menu, as its own section, took the hero's place and left the hero a plain part).
  const nearTop = kept.map((s, i) => (s.rect.y < vh * 0.6 && s.rect.height >= vh * 0.3 ? i : -1)).filter((i) => i >= 0);
  const firstContentIndex = nearTop.find((i) => kept[i]!.heading) ?? nearTop[0] ?? -1;
  // The level the page heads its parts with (most of them), when three or more are headed: a docs page may use h6
  // for every part, so "no h1 or h2" does not make its last part a footer.
  const levels = new Map<number, number>();
  for (const s of kept) if (s.heading) levels.set(levelOf(s.heading), (levels.get(levelOf(s.heading)) ?? 0) + 1);
  const [partLevel, parts] = [...levels].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [0, 0];
  /** Headed as the other parts are, by one heading alone on its row (a footer's column titles sit side by side). */
  const headedAsAPart = (s: RawSection): boolean => {
    if (!s.heading || s.virtual || parts < 3 || levelOf(s.heading) > partLevel) return false;
    const level = levelOf(s.heading);
    const top = s.heading.getBoundingClientRect().top;
    return !Array.from(s.el.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')).some(
      (h) => h !== s.heading && visible(h) && levelOf(h) === level && Math.abs(h.getBoundingClientRect().top - top) < 12,
    );
  };
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
    if (isLast && !s.virtual && !hasMajorHeading(el) && !headedAsAPart(s) && s.rect.y + s.rect.height >= docH - 120 && (links >= 3 || /©|copyright|all rights reserved/i.test(text)) && text.length < 1500)
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
    // A row of figures with an icon each ("1789 Total projects", "44 Countries") is a band of numbers, not a logo strip.
    const figures = (text.match(/(?:^|\s)[$€£]?\d[\d,.]*(?:\s?[%+kKmM])?(?=\s|$)/g) ?? []).length;
    if ((smallImages >= 4 && bodyLength < 250 && figures < 3) || (/\blogos?\b|trusted by|used by|customers|partners|clients|as seen|backed by|featured in/.test(key) && smallImages >= 3))
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
    // A short heading of its own right under the heading (an h3 under the h2): a subtitle that names what it shows.
    const next = s.heading?.nextElementSibling ?? null;
    const nextText = next && /^H[1-6]$/.test(next.tagName) ? readableText(next, 60) : '';
    const subtitle = nextText && nextText.length <= 40 && nextText.split(/\s+/).length <= 5 ? nextText : null;
    // Its heading one of a row of equals headed at a section's own level (service boxes, each with an h2): the first
    // is no title over the others, which name the section as much. (Cards headed h3 under no h2 are a grid's cards.)
    // A footer's columns too ("Locations", "Open Hours" side by side, each an h3): each names what it holds. In a row
    // of cards headed h3 or below with no title over them, the first card's heading is no more the section's than the
    // others' are (`cardHeading`); their words are its text's.
    const sameLevel = s.heading && !s.virtual ? Array.from(s.el.querySelectorAll(s.heading.tagName)).filter((h) => h !== s.heading && visible(h)) : [];
    const headingTop = s.heading ? s.heading.getBoundingClientRect().top : 0;
    const cardHeading = !!s.heading && levelOf(s.heading) > 2 && kind !== 'footer' && sameLevel.some((h) => Math.abs(h.getBoundingClientRect().top - headingTop) < 12);
    const peerHeadings = s.heading && (levelOf(s.heading) <= 2 || kind === 'footer')
      ? sameLevel.map((h) => clip(cleanText(h), 60)).filter((text) => text && text.split(/\s+/).length <= 6).slice(0, 8)
      : [];
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
      // A table of data (a comparison, a spec sheet): three rows or more, not a layout table of one row.
      const tables = Array.from(el.querySelectorAll('table, [role="table"], [role="grid"]')).filter((t) => visible(t));
      if (tables.some((t) => t.querySelectorAll('tr, [role="row"]').length >= 3)) widgets.push('table');
      // Fields to fill in, two or more: a form, whatever the section's kind ("the form where I can give money" is a
      // donation box of amounts and a Donate button, read as prices; no <form> around it).
      if (fieldsIn(el).filter((f) => !/^(checkbox|radio|search)$/.test((f as HTMLInputElement).type)).length >= 2) widgets.push('form');
      if (holdsCountdown(el)) widgets.push('countdown');
    }
    // Words a visitor reads that the rendered text lacks: image alt texts name what the pictures show (products,
    // partners' logos, the screens of an app); an <input> button's value says what a form is for ("Join the beta");
    // an icon button's or link's aria-label what it does. With a budget of their own, so that a long section's text
    // does not push them out. Not placeholders: as often a sample ("name@example.com") as what a field asks for, and
    // "example" sent a prompt's "examples of past work" to a contact form.
    const unrendered: string[] = [];
    if (!s.virtual) {
      for (const img of Array.from(s.el.querySelectorAll('img[alt]')).slice(0, 40)) unrendered.push(img.getAttribute('alt') ?? '');
      for (const button of Array.from(s.el.querySelectorAll('input[type="submit" i][value], input[type="button" i][value]')).slice(0, 10)) unrendered.push(button.getAttribute('value') ?? '');
      for (const control of Array.from(s.el.querySelectorAll('a[aria-label], button[aria-label]')).slice(0, 20)) {
        if (!norm((control as HTMLElement).innerText ?? '')) unrendered.push(control.getAttribute('aria-label') ?? '');
      }
    }
    const body = norm(`${summary.slice(0, 1500)} ${norm(unrendered.join(' ')).slice(0, 500)}`);
    const subParts = s.rect.height <= vh * 0.9 ? [] : s.virtual ? flatParts(s.rect, ownHeading) : headedParts(s.el, ownHeading);
    sections.push({ id, kind, heading, ...(kicker ? { kicker } : {}), ...(subtitle ? { subtitle } : {}), ...(peerHeadings.length > 0 ? { peerHeadings } : {}), ...(cardHeading ? { cardHeading } : {}), ...(headingRect && headingRect.height > 0 ? { headingRect } : {}), ...(widgets.length > 0 ? { widgets } : {}), text: clip(summary, 200), ...(body ? { body } : {}), ...(subParts.length > 0 ? { parts: subParts } : {}), label: heading ? clip(heading, 80) : KIND_LABEL[kind], rect: s.rect, ...sel });
  });
  return sections;

  /**
   * As headedParts (below), in a section read off a flat run of headings and paragraphs (a conference page's "Call
   * For Papers" h2 over its h4 "Important Dates", "Organization" over "Program Committee"): the headings a level down
   * inside its box, each part reaching to the next one (at most most of a screen), its text the blocks after it.
   */
  function flatParts(rect: { y: number; height: number; x: number; width: number }, own: Element | null): NonNullable<PageOutline['sections'][number]['parts']> {
    const ownLevel = own ? levelOf(own) : 1;
    const bottom = rect.y + rect.height;
    const headings = Array.from(document.querySelectorAll('h2, h3, h4, h5, h6')).filter((h) => {
      if (h === own || !visible(h) || levelOf(h) <= ownLevel) return false;
      const y = docRect(h).y;
      return y > rect.y && y < bottom - 20;
    });
    const found: NonNullable<PageOutline['sections'][number]['parts']> = [];
    for (const [i, h] of headings.slice(0, 30).entries()) {
      const heading = clip(cleanText(h), 80);
      const at = heading ? selectorsFor(h) : null;
      if (!heading || !at) continue;
      const headingRect = docRect(h);
      const next = headings[i + 1];
      const end = Math.min(next ? docRect(next).y : bottom, headingRect.y + vh * 0.8);
      let text = '';
      for (let n = h.nextElementSibling; n && !/^H[1-6]$/.test(n.tagName) && text.length < 300; n = n.nextElementSibling) text += ` ${(n as HTMLElement).innerText ?? ''}`;
      found.push({ heading, headingRect, rect: { x: rect.x, y: headingRect.y, width: rect.width, height: Math.max(headingRect.height, end - headingRect.y) }, text: clip(norm(text), 300), ...at, flat: true });
    }
    return found;
  }

  /**
   * A countdown to the end of an offer or to an event: three to five cells side by side, each a number of one to three
   * digits, alone or with its unit ("15 Days", "08 sec"), the units said by three cells' words or labels, or the
   * cells' box named for a countdown. What a prompt names as "the timer" or "the countdown", which the section's
   * words rarely say; a band of figures ("50+ clients") has no units of time.
   */
  function holdsCountdown(el: Element): boolean {
    const UNIT = /^(?:d|h|m|s|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)$/i;
    const boxes = Array.from(el.querySelectorAll('div, ul, p, span')).slice(0, 800);
    return boxes.some((box) => {
      const cells = Array.from(box.children).filter((cell) => visible(cell));
      if (cells.length < 3 || cells.length > 5) return false;
      const read = cells.map((cell) => /^(\d{1,3})\s*:?\s*([a-z]*)$/i.exec(norm((cell as HTMLElement).innerText ?? '')));
      if (read.filter((r) => r !== null).length < 3) return false;
      const units = read.filter((r, i) => r && (UNIT.test(r[2] ?? '') || UNIT.test(cells[i]!.getAttribute('aria-label') ?? ''))).length;
      return units >= 3 || /count-?down|timer/i.test(`${box.getAttribute('id') ?? ''} ${classAttr(box)}`);
    });
  }

  /**
   * Issue 55: the parts with a heading of their own inside a section taller than the screen (a card of a services
   * grid, a step, an entry), each with its box: the largest block around its heading that holds no other heading and
   * fits in the screen. A beat that names one ("a car battery that keeps going flat" → "BATTERY REPAIR") is shown
   * by it; a section's top showed its heading and first row, and the card two rows down never came into view.
   */
  function headedParts(el: Element, own: Element | null): NonNullable<PageOutline['sections'][number]['parts']> {
    const found: NonNullable<PageOutline['sections'][number]['parts']> = [];
    const headings = Array.from(el.querySelectorAll('h2, h3, h4, h5, h6')).filter((h) => h !== own && visible(h) && !(own && own.contains(h)));
    for (const h of headings.slice(0, 30)) {
      const heading = clip(cleanText(h), 80);
      if (!heading) continue;
      let card: Element = h;
      for (let a = h.parentElement; a && a !== el; a = a.parentElement) {
        if (a.querySelectorAll('h2, h3, h4, h5, h6').length > 1 || a.getBoundingClientRect().height > vh * 0.8) break;
        card = a;
      }
      const at = selectorsFor(h);
      if (!at) continue;
      found.push({ heading, headingRect: docRect(h), rect: docRect(card), text: clip(norm((card as HTMLElement).innerText ?? ''), 300), ...at });
    }
    return found;
  }
}
