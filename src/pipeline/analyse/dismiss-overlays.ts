import type { Page } from 'puppeteer-core';
import { evaluateInPage, retryAfterNavigation, sleep } from './in-page.js';

export interface DismissOverlaysOptions {
  /**
   * Popups that appear shortly after arrival (newsletter modals, consent banners sliding in) are waited for until
   * the page is this old, measured from the start of its navigation. 0 makes a single pass. Default 1200 ms.
   */
  settleMs?: number;
  /** Stop polling for delayed popups after this long whatever the page's age. Default 1500 ms. */
  maxWaitMs?: number;
}

export interface DismissPassResult {
  /** One description per overlay dealt with, e.g. `cookie banner "We use cookies…": clicked "Accept"`. */
  dismissed: string[];
  /** performance.now() in the page: how long ago its navigation started. */
  pageAgeMs: number;
}

/**
 * Dismisses cookie banners, consent bars, modal popups and other overlays that cover the page, the way a person
 * would: by clicking their accept/close button; when there is none (or it does nothing), by hiding the element.
 * Polls briefly for popups that appear after a delay. Returns a description of each overlay dismissed.
 */
export async function dismissOverlays(page: Page, options: DismissOverlaysOptions = {}): Promise<string[]> {
  const settleMs = options.settleMs ?? 1200;
  const maxWaitMs = options.maxWaitMs ?? 1500;
  const started = Date.now();
  const dismissed: string[] = [];
  for (let pass = 0; pass < 12; pass++) {
    const result = await retryAfterNavigation(page, () => evaluateInPage(page, dismissOverlaysInPage, null));
    dismissed.push(...result.dismissed);
    const waited = Date.now() - started;
    if (result.pageAgeMs >= settleMs || waited >= maxWaitMs) {
      // One more look right after a dismissal: closing one overlay can reveal the next (modal after banner).
      if (result.dismissed.length === 0) break;
      continue;
    }
    await sleep(Math.min(250, settleMs - result.pageAgeMs, maxWaitMs - waited));
  }
  return dismissed;
}

/**
 * One in-page pass: finds the overlays now covering the page and dismisses each. Self-contained (runs in the page).
 */
export async function dismissOverlaysInPage(): Promise<DismissPassResult> {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  const COOKIE = /\bcookies?\b|\bconsent\b|\bgdpr\b|tracking technolog|datenschutz|privacy (settings|preferences|choices)/i;
  const POSITIVE_COOKIE: Array<[RegExp, number]> = [
    [/^(accept|allow|agree to) all( cookies)?$/, 10],
    [/^(accept|allow|agree|i agree|i accept|accept cookies|allow cookies|accept and (close|continue)|yes,? i agree)$/, 9],
    [/^(got it|ok|okay|understood|i understand|continue|sounds good|fine)!?$/, 8],
    [/^(close|dismiss|×|✕|✖|x|╳)$/, 6],
    [/^(reject all|decline|deny|only (necessary|essential)|necessary only|essential only|reject)( cookies)?$/, 5],
  ];
  const POSITIVE_DIALOG: Array<[RegExp, number]> = [
    [/^(close|close (dialog|modal|popup|this)|dismiss|×|✕|✖|x|╳)$/, 10],
    [/^(no,? thanks|no thank you|not now|maybe later|skip|not interested|later|continue to (site|website))!?$/, 9],
    [/^(got it|ok|okay|understood|continue)!?$/, 7],
    [/^(accept|accept all|agree|allow)$/, 6],
  ];
  const NEVER = /subscribe|sign ?up|register|buy|purchase|checkout|download|learn more|settings|preferences|customi[sz]e|manage|more options|read more|log ?in|sign ?in/i;

  const isShown = (el: Element): boolean => {
    if (!el.isConnected) return false;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) < 0.05) return false;
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    // On screen at all? (A banner translated below the fold is on its way in or out, not covering anything.)
    return r.bottom > 1 && r.right > 1 && r.top < vh - 1 && r.left < vw - 1;
  };
  const coverage = (el: Element) => {
    const r = el.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    return (w * h) / (vw * vh);
  };
  const labelOf = (el: Element) =>
    norm(
      el.getAttribute('aria-label') ||
        (el as HTMLElement).innerText ||
        (el as HTMLInputElement).value ||
        el.getAttribute('title') ||
        el.querySelector('img[alt]')?.getAttribute('alt') ||
        '',
    ).toLowerCase();

  // Fixed/sticky elements and dialogs on screen, outermost only.
  const found: Element[] = [];
  for (const el of Array.from(document.body ? document.body.querySelectorAll('*') : [])) {
    const tag = el.tagName;
    if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'svg' || tag === 'path' || tag === 'TEMPLATE' || tag === 'NOSCRIPT') continue;
    const style = getComputedStyle(el);
    const role = el.getAttribute('role');
    const dialogish =
      role === 'dialog' || role === 'alertdialog' || el.getAttribute('aria-modal') === 'true' || (tag === 'DIALOG' && (el as HTMLDialogElement).open);
    if (style.position !== 'fixed' && style.position !== 'sticky' && !dialogish) continue;
    if (!isShown(el)) continue;
    if (found.some((outer) => outer.contains(el))) continue;
    found.push(el);
  }

  const dismissed: string[] = [];
  let dismissedModal = false;
  for (const el of found) {
    // A popup that is still fading or sliding in has buttons at opacity 0 or off screen: let it arrive first.
    const entering =
      typeof el.getAnimations === 'function'
        ? el.getAnimations({ subtree: true }).filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        : [];
    if (entering.length > 0) await Promise.race([Promise.all(entering.map((a) => a.finished.catch(() => undefined))), wait(700)]);
    if (!isShown(el)) continue;
    const style = getComputedStyle(el);
    const text = norm((el as HTMLElement).innerText).slice(0, 2000);
    const role = el.getAttribute('role');
    const dialogish =
      role === 'dialog' || role === 'alertdialog' || el.getAttribute('aria-modal') === 'true' || (el.tagName === 'DIALOG' && (el as HTMLDialogElement).open) ||
      !!el.querySelector('[role="dialog"], [role="alertdialog"], [aria-modal="true"], dialog[open]');
    const r = el.getBoundingClientRect();
    const cover = coverage(el);
    const links = el.querySelectorAll('a[href]').length;
    const navLike =
      el.tagName === 'HEADER' || el.tagName === 'NAV' || role === 'banner' || role === 'navigation' || !!el.querySelector('nav, [role="navigation"]') || links >= 5;
    const cookie = COOKIE.test(text) && text.length < 1500;
    const fixed = style.position === 'fixed';
    const atBottom = r.bottom >= vh - 4 && r.top > vh * 0.35;

    const candidates = Array.from(
      el.querySelectorAll('button, a, [role="button"], input[type="button"], input[type="submit"], [aria-label], [data-dismiss], [data-close], .close'),
    ).filter((c) => isShown(c));
    const ranked = candidates
      .map((c) => {
        const label = labelOf(c);
        if (!label || label.length > 40 || NEVER.test(label)) return { c, label, score: 0 };
        const href = c.getAttribute('href');
        if (c.tagName === 'A' && href && !/^(#|javascript:)/i.test(href)) return { c, label, score: 0 };
        let score = 0;
        for (const [pattern, value] of cookie ? POSITIVE_COOKIE : POSITIVE_DIALOG) {
          if (pattern.test(label)) {
            score = value;
            break;
          }
        }
        if (!score && /\bclose\b|\bdismiss\b/.test(label)) score = 5;
        if (!score && (c.hasAttribute('data-dismiss') || c.hasAttribute('data-close') || c.classList.contains('close'))) score = 4;
        return { c, label, score };
      })
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score);

    const overlay =
      cookie ||
      (dialogish && cover > 0.02) ||
      (fixed && cover > 0.2 && !navLike) ||
      (fixed && atBottom && cover > 0.05 && !navLike && ranked.length > 0);
    if (!overlay) continue;

    const kind = cookie ? 'cookie banner' : dialogish || cover > 0.5 ? 'dialog' : 'overlay';
    const snippet = text.length > 60 ? `${text.slice(0, 57)}…` : text;
    const gone = () => !isShown(el) || coverage(el) < 0.001;
    const waitGone = async (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        if (gone()) return true;
        await wait(50);
      }
      return gone();
    };

    let how = '';
    for (const { c, label } of ranked.slice(0, 2)) {
      (c as HTMLElement).click();
      if (await waitGone(800)) {
        how = `clicked "${label}"`;
        break;
      }
    }
    if (!how && (dialogish || kind === 'dialog')) {
      for (const target of [el, document]) {
        target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', keyCode: 27, bubbles: true } as KeyboardEventInit));
      }
      if (el.tagName === 'DIALOG') (el as HTMLDialogElement).close();
      if (await waitGone(300)) how = 'pressed Escape';
    }
    if (!how) {
      (el as HTMLElement).style.setProperty('display', 'none', 'important');
      how = 'hidden';
    }
    if (kind !== 'cookie banner') dismissedModal = true;
    dismissed.push(`${kind}${snippet ? ` "${snippet}"` : ''}: ${how}`);
  }

  // A modal often locks scrolling on <html>/<body>; give scrolling back if closing it did not.
  if (dismissedModal) {
    for (const root of [document.documentElement, document.body]) {
      if (root && getComputedStyle(root).overflowY === 'hidden') root.style.setProperty('overflow', 'auto', 'important');
    }
  }
  return { dismissed, pageAgeMs: performance.now() };
}
