import type { Page } from 'puppeteer-core';
import { dismissOverlays } from '../analyse/dismiss-overlays.js';
import { evaluateInPage } from '../analyse/in-page.js';

/**
 * Keeps overlays that open while the page is being recorded off the video: a newsletter modal a few seconds after
 * load, a chat bubble that slides in, a toast, an exit-intent popup, a cookie bar injected late. The analysis
 * dismissed what was there before the recording; this covers what comes after.
 *
 * In the page, a MutationObserver looks at every element that is added or changes its class, style or `open`
 * attribute. One that now covers the page (fixed or absolute, above the content, a large share of the viewport), a
 * modal <dialog>, or a bar fixed to an edge that talks about cookies, newsletters or offers, is hidden before the
 * next frame is painted (observer callbacks run before rendering), and a scroll lock it put on the page is lifted.
 * What was on screen when the guard was installed (the page's own sticky header, a bar the analysis left alone) is
 * never touched, so the page looks as it did when it was planned; but what covers the page when the guard is
 * installed, having opened since the analysis looked, is dismissed first, and an element that is laid out but
 * invisible then (a modal at opacity 0 waiting for its class) is not counted as on screen.
 */
export async function installOverlayGuard(page: Page): Promise<string[]> {
  // The guard watches from now on; a popup that opened after the analysis's last look (a modal three seconds after
  // load, on a page analysed in two) is on screen already, and the guard counts it as the page's own. So it is
  // dismissed next, as the analysis dismisses what it finds. In this order nothing falls between the two: dismissing
  // first left a gap in which a popup opening was neither dismissed nor watched (seen in a test that opens one then).
  await evaluateInPage(page, guardInPage, null);
  return dismissOverlays(page, { settleMs: 0, maxWaitMs: 0 }).catch(() => []);
}

/** The descriptions of the overlays the guard hid during the recording (for the recording log). */
export async function overlaysHidden(page: Page): Promise<string[]> {
  return evaluateInPage(page, (_: null) => {
    const found = (window as unknown as { __showreelOverlaysHidden?: string[] }).__showreelOverlaysHidden;
    return Array.isArray(found) ? found.slice(0, 20) : [];
  }, null).catch(() => []);
}

function guardInPage(_: null): void {
  const w = window as unknown as { __showreelOverlayGuard?: boolean; __showreelOverlaysHidden?: string[] };
  if (w.__showreelOverlayGuard) return;
  w.__showreelOverlayGuard = true;
  w.__showreelOverlaysHidden = [];
  const PROMO = /\b(cookies?|consent|newsletter|subscribe|sign up for|join our|discount|% off|coupon|offer|don'?t miss|before you go|wait!|chat with us|how can we help|notifications?)\b/i;
  const vw = () => window.innerWidth;
  const vh = () => window.innerHeight;
  // What is already on screen is the page as planned: its header, its own fixed bars.
  // Only what can be seen counts: a modal laid out at opacity 0 or hidden, waiting for a class to fade it in, is not
  // part of the page as planned, though it has a box.
  const present = new WeakSet<Element>();
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) present.add(el);
  }
  const hide = (el: HTMLElement, why: string) => {
    el.style.setProperty('display', 'none', 'important');
    if (el instanceof HTMLDialogElement && el.open) el.close();
    // A modal locks the page's scroll while it is open; the recording scrolls.
    for (const root of [document.documentElement, document.body]) {
      if (root && getComputedStyle(root).overflowY === 'hidden') root.style.setProperty('overflow', 'visible', 'important');
    }
    const text = (el.innerText || el.getAttribute('aria-label') || el.tagName.toLowerCase()).replace(/\s+/g, ' ').trim().slice(0, 60);
    w.__showreelOverlaysHidden!.push(`${why} "${text}"`);
  };
  const fadingIn = (el: Element): boolean =>
    el.getAnimations().some((animation) => {
      if (animation.playState !== 'running' || !(animation.effect instanceof KeyframeEffect)) return false;
      const last = animation.effect.getKeyframes().at(-1);
      return !!last && ((last.opacity !== undefined && Number(last.opacity) >= 0.05) || last.visibility === 'visible');
    });
  const isOverlay = (el: Element): string | null => {
    if (!(el instanceof HTMLElement) || el === document.body || el === document.documentElement) return null;
    if (el instanceof HTMLDialogElement && el.open && el.matches(':modal')) return 'a modal dialog';
    const style = getComputedStyle(el);
    if (style.display === 'none') return null;
    // A layer that is fading in (a class whose opacity or visibility has a transition, as Bootstrap's modals do) is
    // still transparent when its class changes: it is judged by where it is going, not by its first frame.
    if ((style.visibility === 'hidden' || Number(style.opacity) < 0.05) && !fadingIn(el)) return null;
    if (style.position !== 'fixed' && style.position !== 'absolute') return null;
    const r = el.getBoundingClientRect();
    if (r.width < 40 || r.height < 24) return null;
    const shownW = Math.max(0, Math.min(r.right, vw()) - Math.max(r.left, 0));
    const shownH = Math.max(0, Math.min(r.bottom, vh()) - Math.max(r.top, 0));
    const share = (shownW * shownH) / (vw() * vh());
    const z = Number.parseInt(style.zIndex, 10);
    // A layer over the page: fixed (or absolute on the body) with a large share of the view, above the content.
    if (style.position === 'fixed' && share >= 0.25 && (Number.isNaN(z) || z > 0)) return 'a popup';
    if (style.position === 'absolute' && share >= 0.5 && z >= 100) return 'a popup';
    // A bar or bubble fixed to an edge that talks about cookies, newsletters, offers or chat.
    if (style.position === 'fixed' && share > 0 && PROMO.test(el.innerText || '')) return 'a late banner';
    return null;
  };
  // What opens because the recording clicked or typed (a lightbox, a menu, an accordion) is the demo, not an intrusion.
  let lastInput = -Infinity;
  for (const type of ['pointerdown', 'click', 'keydown']) {
    window.addEventListener(type, (event) => {
      if (event.isTrusted) lastInput = performance.now();
    }, { capture: true });
  }
  const check = (el: Element) => {
    if (present.has(el) || performance.now() - lastInput < 1500) return;
    const why = isOverlay(el);
    if (why) hide(el as HTMLElement, why);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') check(record.target as Element);
      for (const node of Array.from(record.addedNodes)) {
        if (!(node instanceof Element)) continue;
        check(node);
        // A container added with its popup inside it.
        for (const child of Array.from(node.querySelectorAll('*')).slice(0, 200)) check(child);
      }
    }
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style', 'open', 'hidden'] });
}
