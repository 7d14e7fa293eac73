import type { Page } from 'puppeteer-core';
import { evaluateInPage, sleep } from '../analyse/in-page.js';
import type { PageOutline } from '../types.js';
import { differenceHash } from './perceptual-hash.js';

/** Sections hashed at most: a long page's tail is rarely in a demo, and each frame costs a scroll and a screenshot. */
const MAX_SECTIONS = 16;

/** how long a section rests on screen before its frame is taken: the page's own reaction to the scroll settles */
const SETTLE_MS = 120;

/**
 * The perceptual hash of each section's resting frame: the section scrolled to the top of the screen (below a
 * sticky header), as a shot shows it, then one viewport screenshot. Done on the analysed page before planning, so
 * every section a plan may pick has one; the page is left at the top, where a recording starts.
 * A frame that cannot be taken is left out (the fingerprint then compares words and figures only).
 *
 * It runs before every recording of the service, so its time is the demo's: 2.7–2.8 s on two real pages of 8 and 10
 * sections. The screenshots are encoded for speed: the same pixels (a PNG is lossless), so the same hashes, and
 * 1.3 s → 0.7 s of screenshots on sb-agency. Hashing a section while the next one settles would hide its ~60 ms too,
 * but it holds node, and with it the page's frames (frame-control.ts): a section's picture then came out different
 * from one run to the next.
 */
export async function hashSectionFrames(page: Page, outline: PageOutline): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const sections = outline.sections.slice(0, MAX_SECTIONS);
  const scrollTo = (top: number) => evaluateInPage(page, (y: number) => (document.scrollingElement ?? document.documentElement).scrollTo({ top: y, behavior: 'instant' }), top);
  for (const section of sections) {
    try {
      await scrollTo(Math.max(0, Math.round(section.rect.y - outline.stickyHeaderHeight)));
      await sleep(SETTLE_MS);
      const png = Buffer.from(await page.screenshot({ type: 'png', captureBeyondViewport: false, optimizeForSpeed: true }));
      hashes.set(section.id, differenceHash(png));
    } catch {
      // A page that navigated away or a screenshot that failed: this section is compared without its picture.
    }
  }
  await scrollTo(0).catch(() => undefined);
  return hashes;
}
