import type { Page } from 'puppeteer-core';
import { evaluateInPage } from './in-page.js';

/**
 * Issue 55: a page that does not scroll itself but scrolls inside one large box (a split-layout portfolio's `<main>`
 * of 100vh with `overflow-y: auto` beside a fixed-height profile column; an app shell's content pane). The recorder,
 * the camera and the outline all move the document, which here stays still: every shot of such a page showed its
 * first screen. The box is released into the document instead, once, before the page is read or recorded (analysis,
 * recording and restyle all prepare the page so): the box and the boxes around it grow to their content and the
 * document scrolls; a column beside it as tall as the screen (the profile) sticks to the top, as it stood before, and
 * is read as furniture that stays on screen, as a fixed column is.
 *
 * Returns a description of the box released (for the log), or null when the page scrolls itself or has no such box.
 */
export async function releaseInnerScroller(page: Page): Promise<string | null> {
  return evaluateInPage(page, () => {
    const root = document.scrollingElement ?? document.documentElement;
    const vh = window.innerHeight;
    const vw = window.innerWidth;
    if (root.scrollHeight > vh + 40) return null;
    const scrolls = (el: Element) => {
      const overflow = getComputedStyle(el).overflowY;
      return (overflow === 'auto' || overflow === 'scroll') && el.scrollHeight > el.clientHeight + vh * 0.5;
    };
    let best: HTMLElement | null = null;
    for (const el of Array.from(document.body?.querySelectorAll('*') ?? [])) {
      if (!(el instanceof HTMLElement) || !scrolls(el)) continue;
      const r = el.getBoundingClientRect();
      // Most of the screen: a dropdown's list or a code sample that scrolls is no page.
      if (r.height < vh * 0.6 || r.width < vw * 0.4 || r.top > vh * 0.3) continue;
      if (!best || el.scrollHeight > best.scrollHeight) best = el;
    }
    if (!best) return null;
    const released = `${best.id ? `#${best.id}` : best.tagName.toLowerCase()} (${best.scrollHeight} px scrolled inside a ${best.clientHeight} px box)`;
    const grow = (el: HTMLElement) => {
      el.style.setProperty('height', 'auto', 'important');
      el.style.setProperty('max-height', 'none', 'important');
      el.style.setProperty('overflow-y', 'visible', 'important');
    };
    // The columns beside the box, from the box up: what stood as tall as the screen beside it stays in view.
    const pinned: HTMLElement[] = [];
    for (let el: HTMLElement | null = best; el && el !== document.documentElement; el = el.parentElement) {
      const parent: HTMLElement | null = el.parentElement;
      if (parent) {
        const box = el.getBoundingClientRect();
        for (const sibling of Array.from(parent.children)) {
          if (sibling === el || !(sibling instanceof HTMLElement)) continue;
          const r = sibling.getBoundingClientRect();
          const beside = r.width > 0 && r.height >= vh * 0.8 && (r.right <= box.left + 2 || r.left >= box.right - 2);
          if (beside && getComputedStyle(sibling).position !== 'fixed') pinned.push(sibling);
        }
      }
      if (el === document.body) break;
    }
    grow(best);
    for (let el: HTMLElement | null = best.parentElement; el && el !== document.documentElement; el = el.parentElement) {
      grow(el);
      el.style.setProperty('overflow-x', 'clip', 'important');
    }
    document.documentElement.style.setProperty('height', 'auto', 'important');
    document.documentElement.style.setProperty('overflow-y', 'auto', 'important');
    for (const column of pinned) {
      column.style.setProperty('position', 'sticky', 'important');
      column.style.setProperty('top', '0', 'important');
      column.style.setProperty('align-self', 'flex-start', 'important');
      column.style.setProperty('height', `${vh}px`, 'important');
      // Furniture that stays on screen, as a fixed column is: no part of the page (outline-kit's isFixed).
      column.setAttribute('data-showreel-pinned', '');
    }
    return released;
  }, null);
}
