import type { Page } from 'puppeteer-core';
import { evaluateInPage, sleep } from './in-page.js';

/**
 * The height of a header that only sticks once the page scrolls. Many real pages start with a header in the flow
 * (or transparent over the hero) and fix it to the top when the visitor scrolls (a class a scroll handler adds), so
 * the outline, read at the top of the page, saw no sticky header, and every shot put its heading under the bar.
 * Scrolls a screen and a half down, lets the handler and its transition run, measures the bars fixed to the top
 * edge, and scrolls back to the top.
 */
export async function headerHeightAfterScroll(page: Page, settleMs = 450): Promise<number> {
  const scrolled = await evaluateInPage(page, (_: null) => {
    const y = Math.min(window.innerHeight * 1.5, Math.max(0, document.documentElement.scrollHeight - window.innerHeight));
    (document.scrollingElement ?? document.documentElement).scrollTo({ top: y, behavior: 'instant' });
    return y > 0;
  }, null);
  if (!scrolled) return 0;
  await sleep(settleMs);
  const height = await evaluateInPage(page, (_: null) => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    let bottom = 0;
    for (const el of Array.from(document.body ? document.body.querySelectorAll('*') : [])) {
      const style = getComputedStyle(el);
      if (style.position !== 'fixed' && style.position !== 'sticky') continue;
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) < 0.1) continue;
      const r = el.getBoundingClientRect();
      // A bar across the top edge: not a side menu, a chat bubble or a full-screen layer.
      if (r.width < vw * 0.5 || r.height <= 0 || r.height > vh * 0.3 || r.top > 2 || r.bottom <= 0) continue;
      bottom = Math.max(bottom, Math.round(r.bottom));
    }
    (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, behavior: 'instant' });
    return bottom;
  }, null);
  await sleep(Math.round(settleMs / 2));
  return height;
}
