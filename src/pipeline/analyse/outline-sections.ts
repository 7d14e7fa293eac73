import type { OutlineKit } from './outline-kit.js';

type Rect = { x: number; y: number; width: number; height: number };

/** A part of the page as found, before it is classified and described (section-kinds.ts). */
export interface RawSection {
  el: Element;
  rect: Rect;
  heading: Element | null;
  text: string;
  virtual: boolean;
}

/**
 * In the page: the parts a visitor would call sections. Descends from the body through wrappers while a block splits
 * into parts of its own (several headings of one level, tall children), skipping the nav bar; a long flat run of
 * headings and paragraphs (an article, a docs page) is one part per heading. Sorted top to bottom.
 */
export function findSections(kit: OutlineKit, maxSections: number): RawSection[] {
  const { vw, vh, sy, docH, norm, css, box, docRect, visible, HEADINGS, levelOf, readableText, SKIP, isFixed, hasMajorHeading, headingIn, isNumeral } = kit;
  // ---------- sections ----------
  const LEAF_TAGS = new Set([
    'HEADER', 'FOOTER', 'ASIDE', 'FORM', 'NAV', 'FIGURE', 'UL', 'OL', 'DL', 'TABLE', 'DETAILS', 'BLOCKQUOTE', 'P', 'PRE', 'A',
    'BUTTON', 'IMG', 'PICTURE', 'VIDEO', 'CANVAS', 'IFRAME', 'svg', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
  ]);
  const significantChildren = (container: Element) => {
    const kids = Array.from(container.children).filter((c) => !SKIP.has(c.tagName) && !isFixed(c) && visible(c));
    const maxW = Math.max(0, ...kids.map((k) => box(k).width));
    const outer = box(container);
    return kids.filter((k) => {
      const r = box(k);
      // A narrow but tall column (a docs page's text column under a full-width header) is most of the page.
      const column = r.height >= vh && r.width >= Math.min(0.3 * vw, 320);
      // A narrow block centred under full-width ones, with a heading of its own (an FAQ in a `max-w-xl` column
      // between full-width bands) is a part of the page, not a side column.
      const centredPart =
        r.height >= 120 && r.width >= Math.min(0.3 * vw, 320) && Math.abs(r.left + r.width / 2 - (outer.left + outer.width / 2)) <= 0.05 * outer.width && topHeadingLevel(k) <= 3;
      // A sidebar of widgets beside the main column (a blog's "Topics", "Tags", "Newsletter", each under an h2), as
      // tall as the column: its parts are the page's too, though narrow.
      // So is a résumé's side column of h3-headed parts ("Skills", "Education", "Awards", "Interests").
      const sidebar = r.height >= vh && r.width >= 200 && (headingsUpTo(k, 2) >= 2 || headingsUpTo(k, 3) >= 3);
      // Inside a narrow column (that sidebar), a block as wide as the column is one of its parts.
      const least = outer.width < Math.min(0.3 * vw, 320) ? 0.8 * outer.width : Math.min(0.3 * vw, 320);
      return r.height >= 24 && (column || centredPart || sidebar || r.width >= Math.max(0.45 * maxW, least));
    });
  };
  /** How many visible headings of this level or higher a block holds. */
  const headingsUpTo = (el: Element, level: number) =>
    Array.from(el.querySelectorAll(HEADINGS)).filter((h) => visible(h) && !isNumeral(h) && levelOf(h) <= level).length;
  const topHeadingLevel = (el: Element) => {
    let best = 99;
    const list = el.matches(HEADINGS) ? [el] : Array.from(el.querySelectorAll(HEADINGS));
    for (const h of list) {
      // A slide's number is no heading of a part: a demo's carousel of <h1>1</h1>… slides beside its <h2> title is one part.
      if (!visible(h) || isNumeral(h)) continue;
      best = Math.min(best, Math.max(2, levelOf(h)));
      if (best === 2) break;
    }
    return best;
  };
  // A panel one screen tall whose content runs on down the page (an admin template's `.main-panel { height: 100vh }`
  // with its overflow shown): the page is in it, whatever its own box says.
  const isRootish = (el: Element) =>
    el === document.body || el.tagName === 'MAIN' || el.getAttribute('role') === 'main' || box(el).height >= docH * 0.8 || (docH > vh * 1.5 && el.scrollHeight >= docH * 0.8 && css(el).overflowY === 'visible');
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
  /**
   * A flat run's children, with those of a plain wrapper inside it that carries on the same run: a docs page that
   * wraps part of its text in a <div> (underscore's `#documentation` after "Engine Compatibility", balloon.css's
   * `.samples` before "How to use") has headings of one level both beside the wrapper and straight inside it. Without
   * this, the part before the wrapper ran on to its end (a 50,000 px "Engine Compatibility"), or the headings after
   * it were loose blocks too short to be sections. Only a <div> (not a section, an article or a landmark, which are
   * parts of their own) whose own headings share a level with the run's.
   */
  const flatChildren = (el: Element, depth = 0): Element[] => {
    const kids = Array.from(el.children);
    const levels = new Set(kids.filter((c) => /^H[1-6]$/.test(c.tagName) && visible(c)).map((c) => c.tagName));
    if (levels.size === 0 || depth > 2) return kids;
    return kids.flatMap((c) =>
      c.tagName === 'DIV' && visible(c) && !isFixed(c) && Array.from(c.children).some((h) => levels.has(h.tagName) && visible(h)) ? flatChildren(c, depth + 1) : [c],
    );
  };
  const flatHeadings = (el: Element, least = 3) => {
    const children = flatChildren(el);
    const direct = children.filter((c) => /^H[1-6]$/.test(c.tagName) && visible(c));
    // Loose headings a level below those of the <section>s beside them (a docs page's three h4 notes between its h2
    // sections) are sub-parts, not the run's parts: split by them, the sections before the first were lost and the
    // last ran on over every section after it.
    const boxed = Math.min(99, ...children.filter((c) => (c.tagName === 'SECTION' || c.tagName === 'ARTICLE') && visible(c)).map(topHeadingLevel));
    for (const level of ['H1', 'H2', 'H3', 'H4', 'H5', 'H6']) {
      const at = direct.filter((h) => h.tagName === level);
      if (at.length >= least) return boxed < levelOf(at[0]!) ? [] : at;
      if (at.length > 0 && level !== 'H1') return [];
    }
    return [];
  };
  /**
   * A <section> that is a stack of parts each with its own heading (a "showcase" of image-and-text rows, a column of
   * feature rows each headed by an h3) and no title above them: the parts are the sections a visitor would name.
   * Looks through wrappers with one child. Side-by-side cards (a features grid) are not a stack, and a section that
   * opens with its title (a heading over the rows) stays whole.
   */
  const stackOfHeadedParts = (el: Element) => {
    let inner = el;
    for (let i = 0; i < 4; i++) {
      const only = significantChildren(inner);
      if (only.length !== 1) break;
      inner = only[0] as Element;
    }
    // Decoration without words (a wave drawn above the content) is not a part.
    const kids = significantChildren(inner).filter((k) => norm(k.textContent).length > 0);
    if (kids.length < 2) return false;
    const width = box(el).width;
    const rects = kids.map((k) => box(k));
    const stacked = rects.every((r, i) => r.width >= width * 0.8 && (i === 0 || r.top >= rects[i - 1]!.bottom - 2));
    if (!stacked) return false;
    const headedPart = (k: Element, r: DOMRect) => r.height >= vh * 0.3 && topHeadingLevel(k) < 99 && !/^H[1-6]$/.test(k.tagName);
    const parts = kids.filter((k, i) => headedPart(k, rects[i]!));
    return parts.length >= 2 && parts[0] === kids[0];
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
      const innermost = inner.filter((s) => !inner.some((o) => o !== s && o.contains(s)));
      // Cards side by side (a portfolio's articles two to a row) are a grid inside one section, read as its parts;
      // only sections one above the other are sections of their own.
      const rows = innermost.map((s) => box(s));
      const alone = innermost.filter((_, i) => !rows.some((o, j) => j !== i && o.top < rows[i]!.bottom - 2 && rows[i]!.top < o.bottom - 2));
      return alone.length >= 2 || stackOfHeadedParts(el);
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

  // A part that opens with its title over tall rows is read row by row: its title alone is no part (too thin, it was
  // dropped) and the row after it lost its name (a docs page's "Creating Layouts" over its intro and its examples).
  // The title names the block that follows it, when that block has no heading of its own as high.
  const titled = new Map<Element, Element>();
  /**
   * The heading a block opens with as a whole: not one inside a tab's panel or a carousel's slide, which names that
   * panel only (a restaurant's "Our Upcoming Events" over tabs whose first panel says "Every Tuesday we offer…").
   */
  const ownHeading = (el: Element) => {
    const heading = headingIn(el);
    const panel = heading?.closest('[role="tabpanel"], .tab-pane, .carousel-item, .swiper-slide, .slick-slide');
    return panel && panel !== el && el.contains(panel) ? null : heading;
  };
  const MAX_HEADED_RUNS = 6;
  /** How much a title band may say besides its heading: a line or two under it, not a part's own text. */
  const TITLE_BAND_WORDS = 200;
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    if (!next || !/^H[1-6]$/.test(block.tagName) || next.parentElement !== block.parentElement || !visible(block) || !norm(block.textContent)) return;
    // Only the title a part opens with: a heading in the middle of a long flat run is read with the run.
    if (!block.parentElement || significantChildren(block.parentElement)[0] !== block) return;
    const own = ownHeading(next);
    if (!own || levelOf(own) > levelOf(block)) titled.set(next, block);
  });
  // A band that holds only a part's title (its heading, an ornament, a line under it) in a row of its own over the
  // row that holds the part (a wedding page's "Our Love Story" over its timeline, "The Groomsmen" over their photos):
  // alone, the band was a part with nothing in it and the row below was named by its first entry ("First We Meet").
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    const parent = block.parentElement;
    if (!next || !parent || titled.has(next) || /^H[1-6]$/.test(block.tagName) || next.parentElement !== parent) return;
    // Bands one under the other in the page itself are parts of their own (a "Partners" strip over the footer); a
    // title band shares its part's wrapper.
    if (isRootish(parent) || next.matches('footer, [role="contentinfo"]')) return;
    if (box(block).height > vh * 0.75 || block.querySelector('form, input, table, ul a[href]')) return;
    // The part is the row under the band, as wide: one column of a gallery beside others is not it.
    const [band, below] = [box(block), box(next)];
    if (below.top < band.bottom - 2 || below.width < band.width * 0.6) return;
    const heading = headingIn(block);
    if (!heading || isNumeral(heading)) return;
    if (readableText(block, 1000).length - readableText(heading, 1000).length > TITLE_BAND_WORDS) return;
    const own = ownHeading(next);
    if (!own || levelOf(own) > levelOf(heading)) titled.set(next, block);
  });
  const titles = new Set(titled.values());
  // A heading between blocks of a page laid out flat (an academic conference's body: a banner, a table of links, then
  // "What is This Website?" over three paragraphs and "Organizers" over a paragraph and a table of sponsors' logos)
  // titles the blocks after it up to the next heading as high: alone, the heading was too thin to be a part and the
  // paragraphs under it were parts without a name.
  const headedRuns = new Map<Element, Element[]>();
  const inRun = new Set<Element>();
  // A release log's dozens of version headings are no parts of their own (as in a flat run, below): a few headings only.
  const peers = (h: Element) => blocks.filter((b) => b.tagName === h.tagName && b.parentElement === h.parentElement).length;
  blocks.forEach((block, i) => {
    if (titles.has(block) || !/^H[1-6]$/.test(block.tagName) || !visible(block) || !norm(block.textContent) || peers(block) > MAX_HEADED_RUNS) return;
    const followers: Element[] = [];
    for (const next of blocks.slice(i + 1)) {
      if (next.parentElement !== block.parentElement || /^H[1-6]$/.test(next.tagName) || titled.has(next)) break;
      const own = headingIn(next);
      if (own && levelOf(own) <= levelOf(block)) break;
      followers.push(next);
    }
    if (followers.length < 2) {
      if (followers.length === 1 && !titled.has(followers[0]!)) titled.set(followers[0]!, block);
      return;
    }
    headedRuns.set(block, followers);
    for (const follower of followers) inRun.add(follower);
  });
  for (const title of titled.values()) titles.add(title);

  const raw: RawSection[] = [];
  // A block of a screen's height whose content runs on below it (a full-screen ".section { height: 100vh }" over a
  // docs page's five headed parts) reaches as far as its content does, up to the next block: its box alone cut the
  // parts below the fold off the section and kept the run from being read part by part.
  const reach = (el: Element, index: number) => {
    const rect = docRect(el);
    const content = el.scrollHeight;
    if (css(el).overflowY !== 'visible' || content <= rect.height + 40) return rect;
    const next = Math.min(docH, ...blocks.slice(index + 1).map((b) => docRect(b).y).filter((y) => y > rect.y + rect.height - 1));
    return { ...rect, height: Math.max(rect.height, Math.min(content, next - rect.y)) };
  };
  for (const [index, el] of blocks.entries()) {
    if (titles.has(el) || inRun.has(el)) continue;
    const rect = reach(el, index);
    const followers = headedRuns.get(el);
    if (followers) {
      const boxes = followers.map((f) => docRect(f));
      const bottom = Math.max(...boxes.map((r) => r.y + r.height));
      let text = '';
      for (const f of followers) if (text.length < 5000) text += ` ${readableText(f, 5000)}`;
      raw.push({ el, rect: { x: Math.min(rect.x, ...boxes.map((r) => r.x)), y: rect.y, width: Math.max(rect.width, ...boxes.map((r) => r.width)), height: bottom - rect.y }, heading: el, text: norm(text), virtual: true });
      continue;
    }
    // A long flat block of headings and paragraphs (an article, a docs page): one section per heading.
    // Two headings split it too when it is long (a blog post of a few screens with two parts): each is a place a
    // prompt may ask for ("down to the part about …").
    // The run may sit inside wrappers with one child each (an article's container, row and column).
    let run = el;
    for (let i = 0; i < 4 && flatHeadings(run, 2).length === 0; i++) {
      const only = significantChildren(run);
      if (only.length !== 1) break;
      run = only[0] as Element;
    }
    const splitBy = rect.height > vh * 2.5 ? flatHeadings(run, 2) : flatHeadings(run);
    if (splitBy.length >= 2 && rect.height > vh * 1.5) {
      // The run in reading order, a wrapper that carries it on read through (flatChildren).
      const sequence = flatChildren(run);
      const after = (from: Element, until: Element | null | undefined) => {
        const start = sequence.indexOf(from);
        const stop = until ? sequence.indexOf(until) : -1;
        return sequence.slice(start + 1, stop > start ? stop : undefined);
      };
      // What comes before the first split heading (a title and an intro) is a section when it has a heading.
      const firstSplit = splitBy[0] as Element;
      const before = sequence.slice(0, sequence.indexOf(firstSplit));
      const lead = before.find((c) => /^H[1-6]$/.test(c.tagName) && visible(c));
      if (lead) {
        const top = docRect(lead).y;
        let text = '';
        for (const n of after(lead, firstSplit)) if (text.length < 2000) text += ` ${readableText(n, 2000)}`;
        raw.push({ el: lead, rect: { x: rect.x, y: top, width: rect.width, height: Math.max(1, docRect(firstSplit).y - top) }, heading: lead, text: norm(text), virtual: true });
      } else if (sequence.some((c) => c.parentElement !== run)) {
        // A block before the run's first heading that holds a heading of its own (a docs page's header block, its
        // title and buttons, beside the wrapped text): a section as itself, as it was before the run was read through.
        for (const block of before) {
          const heading = visible(block) && !/^H[1-6]$/.test(block.tagName) && box(block).height >= 40 ? headingIn(block) : null;
          if (heading) raw.push({ el: block, rect: docRect(block), heading, text: readableText(block, 5000), virtual: false });
        }
      }
      const part = (h: Element, next: Element | undefined, end: number) => {
        const top = docRect(h).y;
        const bottom = next ? docRect(next).y : end;
        let text = '';
        for (const n of after(h, next)) if (text.length < 2000) text += ` ${readableText(n, 2000)}`;
        raw.push({ el: h, rect: { x: rect.x, y: top, width: rect.width, height: Math.max(1, bottom - top) }, heading: h, text: norm(text), virtual: true });
      };
      splitBy.forEach((h, i) => {
        const next = splitBy[i + 1];
        const end = next ? docRect(next).y : rect.y + rect.height;
        // A part of several screens with headings of its own a level down (a docs page's "Usage" over "Options",
        // "Methods", "Usage with jQuery"): one part each too, under the part's own title and intro; a prompt asks for
        // one of them, and the camera cannot hold five screens.
        // The next level down that the part uses: a page may skip one (an h2 "Components" over h4 "Table", "Alerts").
        const below = after(h, next).filter((n) => /^H[1-6]$/.test(n.tagName) && visible(n) && levelOf(n) > levelOf(h));
        const subLevel = Math.min(...below.map(levelOf));
        const subs = below.filter((n) => levelOf(n) === subLevel);
        // A release log's dozen short entries are not parts of their own: each sub-part must be a good part of a screen.
        const height = end - docRect(h).y;
        // Or its parts are boxes, each a <section> or an <article> that opens with a heading of its own (system.css's
        // "Components": one <section class="component"> each for Buttons, Menu Bar, Windows, Dialogs, under an h3 or an
        // h2 alike): each box is a part as itself, named by its first heading (a sample window's <h1> title inside it is
        // not its name).
        const boxes = after(h, next).flatMap((n) => {
          if ((n.tagName !== 'SECTION' && n.tagName !== 'ARTICLE') || !visible(n) || box(n).height < 40) return [];
          const first = Array.from(n.querySelectorAll(HEADINGS)).find((x) => visible(x) && !isNumeral(x) && norm(x.textContent));
          return first ? [{ el: n, heading: first }] : [];
        });
        if (height > vh * 2.5 && subs.length < 2 && boxes.length >= 2 && height / boxes.length >= vh * 0.35) {
          part(h, boxes[0]!.el, end);
          for (const b of boxes) raw.push({ el: b.el, rect: docRect(b.el), heading: b.heading, text: readableText(b.el, 5000), virtual: false });
          return;
        }
        if (height <= vh * 2.5 || subs.length < 2 || height / subs.length < vh * 0.35) {
          part(h, next, end);
          return;
        }
        part(h, subs[0], end);
        subs.forEach((sub, j) => part(sub, subs[j + 1] ?? next, end));
      });
      continue;
    }
    const title = titled.get(el);
    if (title) {
      const top = docRect(title).y;
      // A title band's line under its heading is the part's introduction; a bare heading adds nothing to the text.
      const band = /^H[1-6]$/.test(title.tagName) ? null : title;
      const heading = band ? headingIn(band) : title;
      const intro = band && heading ? readableText(band, 1000).replace(readableText(heading, 1000), '').trim() : '';
      const text = intro ? `${intro} ${readableText(el, 5000)}` : readableText(el, 5000);
      // A wrapper that holds just the band and its part is the part as a whole: the recorder finds it, and its heading
      // in it, by that element (the row alone framed its first entry, the title cut off above).
      const whole = band && band.parentElement && significantChildren(band.parentElement).length === 2 ? band.parentElement : null;
      if (whole) {
        raw.push({ el: whole, rect: docRect(whole), heading, text, virtual: false });
        continue;
      }
      raw.push({ el, rect: { x: rect.x, y: top, width: rect.width, height: rect.y + rect.height - top }, heading, text, virtual: false });
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
    .sort((a, b) => a.rect.y - b.rect.y);
  if (kept.length <= maxSections) return kept;
  // A very long page (a docs page of tens of thousands of pixels) has more parts than the outline holds. Its parts
  // without a heading (a code sample's block between two headings) name nothing a prompt can ask for: they give way
  // first, the smallest first, so that the parts further down that a heading names are not cut off.
  const spare = new Set(kept.filter((s) => !s.heading).sort((a, b) => a.rect.height - b.rect.height).slice(0, kept.length - maxSections));
  return kept.filter((s) => !spare.has(s)).slice(0, maxSections);
}
