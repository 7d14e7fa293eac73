import type { PageOutline } from '../types.js';
import type { hiddenForms as findHiddenForms } from './hidden-forms.js';
import type { OutlineKit } from './outline-kit.js';

type Rect = { x: number; y: number; width: number; height: number };
type ActionKind = PageOutline['actions'][number]['kind'];

/** A button or link as found, before it becomes an action of the outline. */
export interface RawAction {
  el: Element;
  kind: ActionKind;
  label: string;
  href: string | null;
  rect: Rect;
  score: number;
  nav: boolean;
}

export interface PageControls {
  actionsRaw: RawAction[];
  navigation: PageOutline['navigation'];
  menuLinks: NonNullable<PageOutline['menuLinks']>;
  contentLinks: NonNullable<PageOutline['contentLinks']>;
  actions: PageOutline['actions'];
  forms: PageOutline['forms'];
  media: PageOutline['media'];
  /** every large image, video, canvas and frame (the sections' kinds weigh them) */
  mediaEls: Element[];
  fieldsIn: (container: Element) => Array<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>;
}

/**
 * In the page: what a visitor can do and see besides reading. Buttons and links sorted into calls to action (the
 * primary one: the strongest above the fold), navigation and plain buttons; forms with their fields' labels (with or
 * without a <form>); large media.
 */
export function readControls(
  kit: OutlineKit,
  limits: { maxActions: number; maxNavigation: number; maxMedia: number; maxContentLinks: number },
  hiddenForms: typeof findHiddenForms,
): PageControls {
  const { vh, norm, clip, css, box, docRect, visible, tagOf, textOf, selectorsFor, buttonLook, headingIn } = kit;
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
  // Folded by a box that clips it to nothing (a CSS accordion's body at max-height 0): the link itself looks shown.
  const clippedAway = (el: Element): boolean => {
    for (let a = el.parentElement, depth = 0; a && a !== document.body && depth < 6; a = a.parentElement, depth++) {
      if (a.getBoundingClientRect().height < 2 && css(a).overflowY !== 'visible') return true;
    }
    return false;
  };
  // A link with no words of its own laid over a whole card (a docs home's "Quick Start" tile, its <a> an empty box
  // stretched over the card): the card's one heading is what it says.
  // A menu's link that is only an icon (a cart, a user, a bell: `<img src="images/cart.svg">`, `<i class="fa
  // fa-shopping-cart">`, an svg's title): named by its picture, as a visitor reads it ("go to my cart").
  const ICON_CLASS = /^(?:fa|fas|far|fal|fab|bi|mdi|ti|la|las|lar|icon|ion|ionicons|glyphicon|feather|bx|bxs|ri|icofont|lnr|pe-7s|uil|ph)-([a-z][a-z-]{1,30})$/;
  const ICON_NOISE = /^(?:fw|lg|xs|sm|md|xl|\dx|solid|regular|light|outline|outlined|fill|filled|line|alt|o|thin|duotone|sharp|round|rounded|spin|pulse|border|flip|rotate)$/;
  const iconLinkLabel = (el: Element): string => {
    const words = (name: string) => name.replace(/\.[a-z0-9]{2,4}$/i, '').replace(/[-_]+/g, ' ').replace(/\b(?:icon|ico|img|image|svg|\d+x?|white|black|dark|light)\b/gi, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
    const svgTitle = el.querySelector('svg title')?.textContent?.trim();
    if (svgTitle) return clip(norm(svgTitle), 40);
    const src = el.querySelector('img[src]')?.getAttribute('src')?.split(/[?#]/)[0]?.split('/').at(-1);
    if (src && /^[a-z][\w-]{1,30}\.(?:svg|png|gif|webp|jpe?g)$/i.test(src)) return clip(words(src), 40);
    for (const icon of Array.from(el.querySelectorAll('i[class], span[class], svg[class]'))) {
      for (const token of Array.from(icon.classList)) {
        const name = ICON_CLASS.exec(token)?.[1];
        if (name && !ICON_NOISE.test(name)) return clip(words(name.split('-').filter((part) => !ICON_NOISE.test(part)).join(' ')), 40);
      }
    }
    const used = el.querySelector('svg use')?.getAttribute('href') ?? el.querySelector('svg use')?.getAttribute('xlink:href');
    const symbol = used?.split('#')[1];
    return symbol && /^[a-z][\w-]{1,30}$/i.test(symbol) ? clip(words(symbol), 40) : '';
  };
  const cardLinkLabel = (el: Element): string => {
    if (el.tagName !== 'A') return '';
    const own = box(el);
    for (let card = el.parentElement, depth = 0; card && depth < 3; card = card.parentElement, depth++) {
      const headings = card.querySelectorAll('h1, h2, h3, h4, h5, h6');
      if (headings.length > 1) return '';
      if (headings.length === 0) continue;
      const area = box(card);
      if (own.width * own.height < 0.5 * area.width * area.height) return '';
      return clip(norm((headings[0] as HTMLElement).innerText ?? ''), 60);
    }
    return '';
  };
  // Issue 56: a button whose own click handler opens another page (`onclick="window.location='checkout.html'"`, a
  // shop's "Proceed To Checkout") goes there as a link does: its address is read from the handler, so the flow can
  // follow it. Only a literal address; a handler that computes one is left alone.
  const SCRIPTED_ADDRESS =
    /(?:^|[\s;{(])(?:(?:window|document|self|top)\.)?location(?:\.href)?\s*=\s*(['"])([^'"\s]+)\1|location\.(?:assign|replace)\(\s*(['"])([^'"\s]+)\3\s*\)/;
  // A button that commits something ("Place Order", "Pay now") is not followed even so: by default a demo ends on
  // it hovered, as on a form's submit (issue 56, point 3).
  const COMMITS = /\b(?:place (?:my |the |your |an )?order|pay|submit|confirm|delete|remove|purchase|buy|send|complete (?:my |the |your )?(?:order|purchase|payment))\b/i;
  const scriptedHref = (el: Element, label: string): string | null => {
    if (COMMITS.test(label)) return null;
    const found = SCRIPTED_ADDRESS.exec(el.getAttribute('onclick') ?? '');
    const address = found ? (found[2] ?? found[4] ?? '') : '';
    if (!address || /^(javascript|data|mailto|tel):/i.test(address)) return null;
    // Resolved as a link's own address is (an <a> made for it), whatever the page's base.
    const resolver = document.createElement('a');
    resolver.setAttribute('href', address);
    return resolver.href || null;
  };
  const actionsRaw: RawAction[] = [];
  // Links that are neither navigation nor a call to action, outside the footer: kept apart (`contentLinks`).
  const plainLinks: RawAction[] = [];
  const seen = new Set<Element>();
  for (const el of Array.from(document.querySelectorAll('a[href], button, [role="button"], input[type="submit"], input[type="button"]'))) {
    // A link folded away in a closed menu (a sidebar's list at max-height 0) is not in sight: it is a menu link, opened
    // first (below). Taken for one in sight, its click landed on whatever the clipped list lies over.
    if (seen.has(el) || !visible(el) || el.closest('[aria-hidden="true"], [inert]') || clippedAway(el)) continue;
    // A button inside a link (or the reverse) is one action.
    const outer = el.parentElement?.closest('a[href], button, [role="button"]');
    if (outer) continue;
    seen.add(el);
    const r = box(el);
    if (r.width < 8 || r.height < 8) continue;
    const label = labelFor(el) || cardLinkLabel(el) || (el.tagName === 'A' && inNavigation(el) ? iconLinkLabel(el) : '');
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
    if (!kind) {
      if (tag === 'A' && !inFooter(el) && label.length <= 60 && /\p{L}{2}/u.test(label) && plainLinks.length < limits.maxContentLinks) {
        plainLinks.push({ el, kind: 'nav-link', label, href: (el as HTMLAnchorElement).href, rect: docRect(el), score: 0, nav: false });
      }
      continue;
    }
    const rawHref = el.getAttribute('href');
    const href = tag === 'A' && rawHref ? (el as HTMLAnchorElement).href : tag === 'A' ? null : scriptedHref(el, label);
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
  // Issue 56: the heading of the card a link sits in ("Site Reliability Engineer" for its "Apply Now"): the smallest
  // box around the link, a few levels up, that has a heading and no more than three links, so a prompt can open the
  // item it names. Not for navigation, whose labels say where they go.
  const cardHeading = (el: Element): string | null => {
    let node: Element | null = el.parentElement;
    for (let depth = 0; node && node !== document.body && depth < 6; depth++, node = node.parentElement) {
      if (node.querySelectorAll('a[href]').length > 3) return null;
      const heading = node.querySelector('h1, h2, h3, h4, h5, h6');
      const text = heading ? textOf(heading) : '';
      if (text && text.length <= 100) return text;
    }
    return null;
  };
  const toAction = (a: RawAction) => {
    const sel = selectorsFor(a.el);
    if (!sel) return null;
    const context = a.nav ? null : cardHeading(a.el);
    return { label: a.label, kind: a.kind, href: a.href, rect: a.rect, ...sel, ...(context && context !== a.label ? { context } : {}) };
  };
  const navigation: PageOutline['navigation'] = [];
  const navSeen = new Set<string>();
  for (const a of actionsRaw) {
    if (a.kind !== 'nav-link' || navigation.length >= limits.maxNavigation) continue;
    const key = `${a.label}|${a.href}`;
    if (navSeen.has(key)) continue;
    navSeen.add(key);
    const action = toAction(a);
    if (action) navigation.push(action);
  }
  const ranked = actionsRaw
    .filter((a) => a.kind !== 'nav-link')
    .sort((a, b) => (a.kind === 'primary-cta' ? -1 : b.kind === 'primary-cta' ? 1 : (a.kind === 'cta' ? 0 : 1) - (b.kind === 'cta' ? 0 : 1)))
    .slice(0, limits.maxActions)
    .sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x);
  const actions: PageOutline['actions'] = [];
  for (const a of ranked) {
    const action = toAction(a);
    if (action) actions.push(action);
  }

  const contentLinks: PageOutline['actions'] = [];
  for (const a of plainLinks) {
    const action = toAction(a);
    if (action) contentLinks.push(action);
  }

  // ---------- links in closed menus ----------
  // A link hidden until a menu opens (a dropdown, a folded sidebar, a hamburger): kept with the control that opens it,
  // found by what points at the menu (data-target, data-bs-target, aria-controls, href="#menu") or by the toggle
  // beside it (aria-haspopup, aria-expanded, data-toggle, a dropdown toggle). No named functions: see outline-kit.
  const menuLinks: NonNullable<PageOutline['menuLinks']> = [];
  // Found once, when a link of the navigation has no opener of its own (cheap tests first: most pages never ask).
  let hamburger: Element | null | undefined;
  const checkboxLabel = (el: Element): boolean => {
    const id = el.tagName === 'LABEL' ? el.getAttribute('for') : null;
    return !!id && !!document.getElementById(id)?.matches('input[type="checkbox"], input[type="radio"]');
  };
  const findHamburger = (): Element | null =>
    Array.from(document.querySelectorAll('button, [role="button"], span, div, a:not([href]), i, ul')).find((c) => {
      const looks = /burger|nav-trigger|menu-trigger|nav-toggle|menu-toggle|navbar-toggler|menu-btn|menu-button/i.test(c.getAttribute('class') ?? '') || /menu/i.test(c.getAttribute('aria-label') ?? '');
      const says = !looks && c.children.length <= 2 && /^\s*(?:menu|☰)\s*$/i.test(c.textContent ?? '');
      // Or drawn: two or three empty bars of one kind and nothing else, small (zsoft's <ul class="m_bar"><li></li><li></li></ul>).
      const bars = Array.from(c.children);
      const drawn = !looks && !says && bars.length >= 2 && bars.length <= 3 && !(c.textContent ?? '').trim() && bars.every((bar) => bar.tagName === bars[0]!.tagName && bar.children.length === 0) && box(c).width <= 80 && box(c).height <= 80;
      return (looks || says || drawn) && !c.closest('a[href]') && visible(c) && box(c).top < vh * 0.25;
    }) ?? null;
  const menuSeen = new Set<string>();
  for (const link of Array.from(document.querySelectorAll('a[href]'))) {
    if (menuLinks.length >= 200) break;
    if ((visible(link) && !clippedAway(link)) || link.closest('[aria-hidden="true"][inert], template')) continue;
    const href = (link as HTMLAnchorElement).href;
    const label = clip(norm(link.getAttribute('aria-label') || link.textContent || link.getAttribute('title') || ''), 80);
    if (!label || !href || menuSeen.has(`${label}|${href}`)) continue;
    let opener: Element | null = null;
    let byHover = false;
    // A menu inside a closed menu ("Pages" → "Authentication" → "Sign In"): its own control, hidden too, is opened
    // after the outer one.
    const inner: Element[] = [];
    for (let a: Element | null = link.parentElement, depth = 0; a && a !== document.body && depth < 10 && !opener; a = a.parentElement, depth++) {
      if (a.id) {
        const id = CSS.escape(a.id);
        const pointing = Array.from(document.querySelectorAll(`[data-target="#${id}"], [data-bs-target="#${id}"], [aria-controls="${id}"], a[href="#${id}"]`));
        const shown = pointing.find((c) => visible(c));
        if (shown) opener = shown;
        else if (pointing[0] && inner.length < 2) inner.push(pointing[0]);
      }
      if (!opener && a.parentElement && (!visible(a) || a.getBoundingClientRect().height < 2)) {
        const toggle = Array.from(a.parentElement.children).find(
          // A control that says it toggles (menu-toggle, submenu-toggle…), a link beside the list that goes nowhere, or
          // the label of a hidden checkbox beside it (a CSS-only accordion: a docs sidebar's "Experimentals"), or the
          // summary of a closed <details> (a docs sidebar's "Components" group). A link with no address at all is one
          // that goes nowhere too (an accordion's header a script wires: a docs sidebar's "CSS", "Forms"), and so is one
          // whose address is empty (href="": this very page; a top navbar's "Pages" over its hidden sub-menu).
          (c) => c !== a && visible(c) && (c.matches('[data-toggle], [data-bs-toggle], [aria-haspopup], [aria-expanded], .dropdown-toggle, .navbar-toggler, [class*="toggle"], a[href="#"], a[href=""], a[href^="javascript:"], a:not([href]), button, [role="button"], details:not([open]) > summary') || checkboxLabel(c)),
        );
        if (toggle) opener = toggle;
        // Or a dropdown that a CSS :hover opens: the list item's own link beside the hidden list ("Categories" over
        // "Anime Details", "Blog Details"), which leads somewhere itself, so it is hovered, never clicked.
        const beside = toggle || a.parentElement.tagName !== 'LI' ? undefined : Array.from(a.parentElement.children).find((c) => c !== a && visible(c) && c.matches('a[href]'));
        if (beside) {
          opener = beside;
          byHover = true;
        }
      }
      if (visible(a) && !clippedAway(a)) break;
    }
    // A site's menu button that nothing ties to its menu but its looks (a "Menu" span, a hamburger icon): for the
    // links of the page's navigation, or of a hidden menu outside it (zsoft's `.fullscreen-menu` after its header).
    if (!opener && link.closest('nav, [role="navigation"], header, [class*="menu" i]')) {
      if (hamburger === undefined) hamburger = findHamburger();
      opener = hamburger;
    }
    if (!opener) continue;
    const openerSel = selectorsFor(opener);
    const linkSel = selectorsFor(link);
    if (!openerSel || !linkSel) continue;
    const innerTargets = inner.reverse().flatMap((control) => {
      const sel = selectorsFor(control);
      const r = docRect(opener!);
      return sel ? [{ label: clip(norm(control.textContent || 'Menu'), 80) || 'Menu', rect: { x: r.x, y: r.y + r.height + 8, width: Math.max(r.width, 80), height: 28 }, ...sel }] : [];
    });
    menuSeen.add(`${label}|${href}`);
    const at = docRect(opener);
    const openerLabel = clip(norm(opener.getAttribute('aria-label') || (opener as HTMLElement).innerText || opener.getAttribute('title') || 'Menu'), 80) || 'Menu';
    menuLinks.push({
      label, kind: 'nav-link', href,
      // Where it will be once its menu is open is not known yet: just below the control that opens it.
      rect: { x: at.x, y: at.y + at.height + 8, width: Math.max(at.width, 80), height: 28 },
      ...linkSel,
      opener: { label: openerLabel, rect: at, ...openerSel, ...(byHover ? { hover: true as const } : {}) },
      ...(innerTargets.length > 0 ? { thenOpen: innerTargets } : {}),
    });
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
      // A label that wraps its field: its own words, not the choices of the drop-down inside it ("Day 1 2 3 …").
      let t = norm(label.innerText);
      if (label.contains(f)) {
        const words = label.cloneNode(true) as Element;
        for (const control of Array.from(words.querySelectorAll('select, textarea, input, option'))) control.remove();
        t = norm(words.textContent);
      }
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
    // A <label> beside its field without `for` (Bootstrap's form groups: the label, then the input, in one box), or
    // whose `for` names no element at all (a template's field renamed, its label left pointing at the old id).
    // Or in a column of its own beside the field's column (a horizontal form's row: `<label class="col-md-1">Subject`
    // then `<div class="col-md-11"><input>`): up to the box that holds this field only.
    const pointsNowhere = (c: Element) => !c.hasAttribute('for') || !document.getElementById(c.getAttribute('for') ?? '');
    const lonely = (c: Element) => c.tagName === 'LABEL' && pointsNowhere(c) && !c.querySelector('input, select, textarea');
    for (let group = f.parentElement, depth = 0; group && depth < 3; group = group.parentElement, depth++) {
      if (group.querySelectorAll('input, select, textarea').length !== 1) break;
      const beside = Array.from(group.children).find((c) => !c.contains(f) && (lonely(c) || (c.children.length === 1 && lonely(c.children[0]!) && !norm(c.textContent).replace(norm(c.children[0]!.textContent), ''))));
      const t = beside ? norm(beside.textContent) : '';
      if (t) return t;
    }
    const said = f.getAttribute('aria-label') || f.getAttribute('placeholder') || f.getAttribute('title') || f.getAttribute('name');
    return norm(said || textJustAbove(f) || f.type);
  };
  /**
   * A field with no label nor any name of its own, under a heading or a line of text that asks for it ("please enter
   * your budget" in an <h5> over a bare input): that text is its label. The box above is the field's own or its
   * wrapper's (a form group holding this field only) previous sibling, with no field in it, short, and close above.
   */
  const textJustAbove = (f: Element): string => {
    for (let el: Element | null = f, i = 0; el && el.parentElement && i < 3; el = el.parentElement, i++) {
      if (el !== f && el.querySelectorAll('input, select, textarea').length > 1) return '';
      const above = el.previousElementSibling;
      if (!above) continue;
      if (above.querySelector('input, select, textarea, button') || !/^(?:H[1-6]|LABEL|P|SPAN|DIV|LEGEND|STRONG|B)$/.test(above.tagName)) return '';
      const text = norm((above as HTMLElement).innerText || above.textContent);
      const gap = f.getBoundingClientRect().top - above.getBoundingClientRect().bottom;
      return text && text.length <= 60 && gap >= -2 && gap <= 48 ? text : '';
    }
    return '';
  };
  const formContainers: Element[] = Array.from(document.forms).filter((f) => visible(f) && fieldsIn(f).length > 0);
  const loose = Array.from(document.querySelectorAll('input, select, textarea')).filter(
    (f) => !(f as HTMLInputElement).form && !FIELD_SKIP.test((f as HTMLInputElement).type || '') && visible(f),
  );
  // Containers found by fields alone (no button near them): a later, wider one takes their place.
  const buttonless = new Set<Element>();
  for (const f of loose) {
    if (formContainers.some((c) => c.contains(f))) continue;
    // A form without <form>: the nearest ancestor (a few levels up) that also holds a button.
    let container: Element = f.parentElement ?? f;
    let found = false;
    for (let a = f.parentElement, i = 0; a && a !== document.body && i < 4; a = a.parentElement, i++) {
      if (a.querySelector('button, [type="submit"], [role="button"]')) {
        container = a;
        found = true;
        break;
      }
    }
    if (!found) {
      // No button at all (a checkout whose "Place order" is a link, fields saved by script): the fields that sit
      // together are one form, not one form each: the nearest ancestor, a few levels up, that holds another loose
      // field and no form with a button of its own. A field further down joins the form above it by the same rule
      // (the wider container takes the narrower one's place).
      for (let a = f.parentElement, i = 0; a && a !== document.body && i < 5; a = a.parentElement, i++) {
        if (formContainers.some((c) => !buttonless.has(c) && (a.contains(c) || c.contains(a)))) break;
        if (loose.some((o) => o !== f && a.contains(o))) {
          container = a;
          break;
        }
      }
    }
    for (const c of [...buttonless]) {
      if (c !== container && container.contains(c)) {
        buttonless.delete(c);
        formContainers.splice(formContainers.indexOf(c), 1);
      }
    }
    if (!formContainers.includes(container)) {
      formContainers.push(container);
      if (!found) buttonless.add(container);
    }
  }
  const hidden = hiddenForms(kit, formContainers);
  const forms: PageOutline['forms'] = [];
  for (const container of [...formContainers, ...hidden.keys()]) {
    const opener = hidden.get(container);
    const openerTarget = opener ? selectorsFor(opener.control) : null;
    if (opener && !openerTarget) continue;
    // Where a hidden form will show, as far as the page tells before it opens.
    const at = (el: Element) => (opener ? opener.rect : docRect(el));
    const fields: PageOutline['forms'][number]['fields'] = [];
    for (const f of opener ? opener.fields : fieldsIn(container)) {
      const sel = selectorsFor(f);
      if (!sel) continue;
      fields.push({
        label: clip(fieldLabel(f), 80),
        name: f.getAttribute('name'),
        type: f.tagName === 'INPUT' ? (f as HTMLInputElement).type || 'text' : tagOf(f),
        ...(f.required || f.getAttribute('aria-required') === 'true' ? { required: true } : {}),
        ...(f.tagName === 'INPUT' && /^(?:checkbox|radio)$/i.test((f as HTMLInputElement).type) && (f as HTMLInputElement).checked ? { checked: true } : {}),
        ...((f.tagName === 'TEXTAREA' || (f.tagName === 'INPUT' && !/^(?:checkbox|radio|file|range|color)$/i.test((f as HTMLInputElement).type))) && (f as HTMLInputElement).value.trim() !== '' ? { filled: true } : {}),
        // What a list offers, so a prompt's "mark that I've started reading it" can pick "Reading".
        ...(f.tagName === 'SELECT' ? { options: Array.from((f as HTMLSelectElement).options).map((option) => clip(option.text.trim(), 60)).filter(Boolean).slice(0, 30) } : {}),
        rect: at(f),
        ...sel,
      });
    }
    if (fields.length === 0) continue;
    const submitEl = opener
      ? opener.submit
      : (Array.from(container.querySelectorAll('button[type="submit"], input[type="submit"], button:not([type])')).find((b) => visible(b)) ??
        // A <form> sent by a script has only a plain button ("Subscribe" of type="button"): its one button is its submit.
        (container.tagName === 'FORM'
          ? ((shown) => (shown.length === 1 ? shown[0] : null))(Array.from(container.querySelectorAll('button, input[type="button"]')).filter((b) => visible(b)))
          : Array.from(container.querySelectorAll('button, [role="button"]')).find((b) => visible(b))) ??
        null);
    const sel = selectorsFor(container);
    if (!sel) continue;
    let submit: PageOutline['forms'][number]['submit'] = null;
    if (submitEl) {
      const known = actionsRaw.find((a) => a.el === submitEl);
      const own = selectorsFor(submitEl);
      if (own) {
        // Within its form: a bare "button", unique while the page is new, is an app's first "Delete" once it has
        // items (the second note's "Create" pressed the first note's "Delete").
        const scoped = /^[#\[]/.test(own.selector) ? own : { selector: `${sel.selector} ${own.selector}`, fallbackSelectors: [own.selector, ...own.fallbackSelectors] };
        submit = {
          label: labelFor(submitEl) || 'Submit',
          kind: known && known.kind !== 'nav-link' ? known.kind : 'button',
          href: null,
          rect: at(submitEl),
          ...scoped,
        };
      }
    }
    const named = container.getAttribute('aria-label') || container.getAttribute('name') || headingIn(container)?.textContent;
    // How it sends (a <form> without `method` sends a GET); a form built of divs sends by script: not known.
    const method = container.tagName === 'FORM' ? (container.getAttribute('method') || 'get').toLowerCase() : null;
    // Where it sends, when it names a place ("#" and "javascript:" name none: a script takes the form).
    const actionSaid = container.tagName === 'FORM' ? (container.getAttribute('action') ?? '').trim() : '';
    const action = actionSaid && !/^(?:#|javascript:)/i.test(actionSaid) ? (container as HTMLFormElement).action || actionSaid : null;
    forms.push({
      label: clip(norm(named) || fields.map((f) => f.label).join(', '), 80),
      rect: at(container),
      fields,
      submit,
      ...(method ? { method } : {}),
      ...(action ? { action } : {}),
      ...sel,
      ...(opener && openerTarget ? { opener: { label: labelFor(opener.control) || 'Open the form', rect: docRect(opener.control), ...openerTarget } } : {}),
    });
  }

  // ---------- media ----------
  const media: PageOutline['media'] = [];
  const mediaEls = Array.from(document.querySelectorAll('img, video, canvas, iframe')).filter((m) => {
    if (!visible(m)) return false;
    const r = box(m);
    return r.width >= 120 && r.height >= 80;
  });
  for (const m of mediaEls) {
    if (media.length >= limits.maxMedia) break;
    const sel = selectorsFor(m);
    if (!sel) continue;
    const kind = m.tagName === 'IMG' ? 'image' : m.tagName === 'VIDEO' ? 'video' : m.tagName === 'CANVAS' ? 'canvas' : 'iframe';
    media.push({ kind, selector: sel.selector, rect: docRect(m) });
  }

  return { actionsRaw, navigation, menuLinks, contentLinks, actions, forms, media, mediaEls, fieldsIn };
}
