import type { Page } from 'puppeteer-core';
import { evaluateInPage, sleep } from '../analyse/in-page.js';
import type { PageOutline } from '../types.js';
import { differenceHash } from './perceptual-hash.js';

/** Sections hashed at most: a long page's tail is rarely in a demo, and each frame costs a scroll and a screenshot. */
const MAX_SECTIONS = 16;

/**
 * The perceptual hash of each section's resting frame: the section scrolled to the top of the screen (below a
 * sticky header), as a shot shows it, then one viewport screenshot. Done on the analysed page before planning, so
 * every section a plan may pick has one; the page is left at the top, where a recording starts.
 * A frame that cannot be taken is left out (the fingerprint then compares words and figures only).
 */
export async function hashSectionFrames(page: Page, outline: PageOutline): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const section of outline.sections.slice(0, MAX_SECTIONS)) {
    try {
      const y = Math.max(0, Math.round(section.rect.y - outline.stickyHeaderHeight));
      await evaluateInPage(page, (top: number) => (document.scrollingElement ?? document.documentElement).scrollTo({ top, behavior: 'instant' }), y);
      await sleep(120);
      const png = Buffer.from(await page.screenshot({ type: 'png', captureBeyondViewport: false }));
      hashes.set(section.id, differenceHash(png));
    } catch {
      // A page that navigated away or a screenshot that failed: this section is compared without its picture.
    }
  }
  await evaluateInPage(page, () => (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, behavior: 'instant' }), null).catch(() => undefined);
  return hashes;
}
