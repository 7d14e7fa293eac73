import type { Page } from 'puppeteer-core';
import type { ScriptStep } from '../types.js';
import { locateTarget } from './steps.js';

type NavigateStep = Extract<ScriptStep, { kind: 'navigate' }>;

export interface FollowedLink {
  /** the page's address afterwards */
  url: string;
  /** how it got there: the link clicked; its address opened (the link was gone, or its click led nowhere) */
  how: 'click' | 'address';
  /** a click that changed the page in place only (a menu opened): the next leg goes on on the same document */
  sameDocument: boolean;
}

/** How long a click may take to start a navigation, and the new page to load. */
const NAVIGATION_START_MS = 4_000;
const LOAD_MS = 20_000;

/**
 * Issue 56: between two legs of a recording, the link of a `navigate` step is followed for real, off camera: the
 * video showed the cursor go to it and the click; the next leg starts on the new page once it has loaded, so no
 * blank or half-painted frame is ever captured (the compositor dissolves from the one page to the other, cuts.ts).
 *
 * The click is a real click (a page's own script may route it: pushState and hash routes count as navigations); a
 * link that would open a new tab opens in this one. Where the link is gone, or its click leads nowhere, the address it
 * had when planned is opened, when it is on the same site as the page (`sameSite`). A destination elsewhere is an error.
 */
export async function followLink(page: Page, step: NavigateStep, sameSite: (url: string) => boolean): Promise<FollowedLink> {
  const before = page.url();
  const found = await locateTarget(page, step.target);
  if (found) {
    // A new tab would leave the recording behind on this page.
    await page.evaluate((selector: string) => {
      const element = document.querySelector(selector);
      const link = element?.closest('a') ?? (element instanceof HTMLAnchorElement ? element : null);
      link?.removeAttribute('target');
    }, found.selector).catch(() => undefined);
    const navigation = page.waitForNavigation({ waitUntil: 'load', timeout: NAVIGATION_START_MS + LOAD_MS }).catch(() => null);
    const x = found.aim.x + found.aim.width / 2;
    const y = found.aim.y + found.aim.height / 2;
    await page.mouse.click(x, y);
    // A search box without a button is sent as a person sends it: Enter, in the box just clicked.
    if (await isTextBox(page, found.selector)) await page.keyboard.press('Enter');
    const started = await Promise.race([navigation.then(() => true), delay(NAVIGATION_START_MS).then(() => false)]);
    if (started) {
      await navigation;
      await settle(page);
      return { url: page.url(), how: 'click', sameDocument: false };
    }
    if (page.url() !== before) {
      await settle(page);
      return { url: page.url(), how: 'click', sameDocument: true };
    }
  }
  const href = step.href ? new URL(step.href, before).href : null;
  if (href && sameSite(href) && (stripHash(href) !== stripHash(before) || (/#[!/]/.test(href) && href !== before))) {
    await page.goto(href, { waitUntil: 'load', timeout: LOAD_MS });
    await settle(page);
    return { url: page.url(), how: 'address', sameDocument: false };
  }
  if (found) return { url: page.url(), how: 'click', sameDocument: true };
  throw new Error(`The link "${step.target.label}" is not on the page any more, and it had no address to open.`);
}

/** The new page quiet enough to look at: its requests done (or 3 s passed) and its fonts in. */
async function settle(page: Page): Promise<void> {
  await page.waitForNetworkIdle({ idleTime: 300, timeout: 3_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts?.ready.then(() => undefined)).catch(() => undefined);
}

function stripHash(url: string): string {
  return url.replace(/#.*$/, '');
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function isTextBox(page: Page, selector: string): Promise<boolean> {
  return page
    .evaluate((css: string) => {
      const element = document.querySelector(css);
      return element instanceof HTMLInputElement && !/^(?:submit|button|image|reset|checkbox|radio|file|range|color)$/i.test(element.type);
    }, selector)
    .catch(() => false);
}
