import type { Page } from 'puppeteer-core';
import type { LinkedPage, OutlineAction, PageOutline } from '../types.js';
import { evaluateInPage } from './in-page.js';

/**
 * Issue 56: what the pages the menu links to say, read before the plan is made. "What time does the cafe open on
 * Saturdays?" on a café's home page whose opening hours are on its "Store" page: no link says "hours", the page
 * behind one does. Each page is fetched as a visitor's click would load it (a GET of the same site, with its
 * cookies) and read as text, its scripts never run: its headings, each with the words under it. Nothing is sent
 * but GETs, so the page behind the link is not changed; a page that answers late or not at all is left out.
 */
export interface LinkedPagesOptions {
  /** at most this many pages are read (the menu's first ones) */
  max?: number;
  /** all of them within this time; those still loading are left out */
  timeoutMs?: number;
}

const MAX_PAGES = 16;
const TIMEOUT_MS = 3_000;
/** Addresses that are files to download, not pages to read. */
const NOT_A_PAGE = /\.(?:pdf|zip|gz|tar|dmg|exe|pkg|msi|apk|png|jpe?g|gif|webp|svg|mp4|webm|mp3|docx?|xlsx?|pptx?|csv|json|xml|rss|atom)(?:$|[?#])/i;

/** The links that lead to another page of the same site, the menu's first, each address once. */
export function linkedPageCandidates(outline: PageOutline, sameSite: (url: string) => boolean, max = MAX_PAGES): OutlineAction[] {
  const here = outline.url.replace(/#.*$/, '');
  const seen = new Set<string>([here]);
  const picked: OutlineAction[] = [];
  // The menu's first; then the links of the page's own parts: a docs home's cards that each lead into its docs page.
  const inParts = [...outline.actions.filter((action) => action.kind !== 'nav-link'), ...(outline.contentLinks ?? [])];
  for (const link of [...outline.navigation, ...(outline.menuLinks ?? []), ...inParts]) {
    if (!link.href || picked.length >= max) continue;
    let url: URL;
    try {
      url = new URL(link.href, outline.url);
    } catch {
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !sameSite(url.href) || NOT_A_PAGE.test(url.pathname)) continue;
    // "#/settings" is an app's screen that the document alone does not hold: not readable without running it.
    if (url.hash && url.href.replace(/#.*$/, '') === here) continue;
    const key = url.href.replace(/#.*$/, '');
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push(link);
  }
  return picked;
}

export async function readLinkedPages(
  page: Page,
  outline: PageOutline,
  sameSite: (url: string) => boolean,
  options: LinkedPagesOptions = {},
): Promise<LinkedPage[]> {
  const links = linkedPageCandidates(outline, sameSite, options.max ?? MAX_PAGES);
  if (links.length === 0) return [];
  const read = await evaluateInPage(page, readInPage, {
    hrefs: links.map((link) => new URL(link.href!, outline.url).href.replace(/#.*$/, '')),
    timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
  }).catch(() => [] as Array<Omit<LinkedPage, 'label' | 'href'> | null>);
  const pages: LinkedPage[] = [];
  read.forEach((found, index) => {
    if (found && found.parts.length > 0) pages.push({ href: links[index]!.href!, label: links[index]!.label, ...found });
  });
  return pages;
}

/** In the page: each address fetched and parsed, its headings with the text under each (see evaluateInPage's rule). */
async function readInPage(arg: { hrefs: string[]; timeoutMs: number }): Promise<Array<Omit<LinkedPage, 'label' | 'href'> | null>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), arg.timeoutMs);
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  const hereHeadings = new Set(Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((el) => squash(el.textContent ?? '').toLowerCase()).filter(Boolean));
  const readOne = async (href: string): Promise<Omit<LinkedPage, 'label' | 'href'> | null> => {
    const response = await fetch(href, { method: 'GET', credentials: 'same-origin', redirect: 'follow', signal: controller.signal });
    if (!response.ok || !/html/i.test(response.headers.get('content-type') ?? '')) return null;
    // A redirect to another site (a sign-in provider) is not a page of this one.
    if (new URL(response.url).origin !== location.origin) return null;
    const html = (await response.text()).slice(0, 600_000);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    doc.querySelectorAll('script, style, noscript, template, svg, nav, [role="navigation"], [hidden], [aria-hidden="true"]').forEach((el) => el.remove());
    const parts: Array<{ heading: string; text: string; footer: boolean; minor?: boolean }> = [];
    let current: { heading: string; text: string[]; footer: boolean; minor: boolean; size: number } | null = null;
    const flush = () => {
      if (current && current.heading) parts.push({ heading: current.heading, text: squash(current.text.join(' ')).slice(0, 1_500), footer: current.footer, ...(current.minor ? { minor: true } : {}) });
    };
    const walker = doc.createTreeWalker(doc.body ?? doc.documentElement, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        const el = node as Element;
        // An admin page's cards are headed by an h5 ("Blockquotes", "Text Color"): every level counts.
        if (/^H[1-6]$/.test(el.tagName)) {
          const heading = squash(el.textContent ?? '');
          if (!heading || heading.length > 120) continue;
          flush();
          current = { heading, text: [], footer: !!el.closest('footer'), minor: /^H[56]$/.test(el.tagName), size: 0 };
          // Its own words are its heading, not its text: skip past them.
          let last: Node = el;
          while (last.lastChild) last = last.lastChild;
          walker.currentNode = last;
        }
        continue;
      }
      if (!current || current.size > 1_500) continue;
      const text = squash(node.textContent ?? '');
      if (text) {
        current.text.push(text);
        current.size += text.length + 1;
      }
    }
    flush();
    // What this page shows too is not what the other page adds (the site's name over each page, a contact block
    // every page repeats); a page that repeats most of this one is a variant of it ("Homepage 2"), no other place,
    // unless it opens with a title of its own: a category's page ("Romance") over the same cards as the home page.
    const own = parts.filter((part) => !hereHeadings.has(part.heading.toLowerCase()));
    const titled = parts[0] !== undefined && own[0] === parts[0] && !parts[0].footer;
    if (own.length < parts.length * 0.5 && own.length < 3 && !titled) return null;
    return { title: squash(doc.title ?? ''), parts: own.slice(0, 40) };
  };
  try {
    return await Promise.all(arg.hrefs.map((href) => readOne(href).catch(() => null)));
  } finally {
    clearTimeout(timer);
  }
}
