import type { OutlineControl } from '../types.js';
import type { OutlineKit } from './outline-kit.js';

/**
 * In the page: the controls of a section that change it in place, which a demo clicks so the viewer sees the page
 * answer (issue 33, item 3): a tab not yet shown, a question not yet opened, the monthly/yearly switch of the
 * prices, the arrow to the next slide. Found by role and structure (ARIA, <details>) and by the markup of the usual
 * toolkits (Bootstrap's toggles, the carousels' arrows), not by a page's own class names.
 *
 * A control must stay on the page: a link is one only when a script drives it (a `data-toggle` or `role="tab"`) or
 * it points nowhere (`#`); a submit button, a link elsewhere, or a disabled control never is. The menu's toggler
 * lives in the header, not in a section, so it is not met here. At most one control of each kind, in reading order.
 */
export function inPlaceControls(kit: OutlineKit, section: Element): OutlineControl[] {
  const { norm, clip, docRect, visible, selectorsFor } = kit;
  const found: OutlineControl[] = [];
  const staysOnPage = (el: Element): boolean => {
    if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') return false;
    const scripted = (e: Element) => e.hasAttribute('data-toggle') || e.hasAttribute('data-bs-toggle');
    // A form's button submits it (its default type), unless a toolkit's script drives it.
    if (el instanceof HTMLButtonElement && el.type === 'submit' && el.closest('form') && !scripted(el)) return false;
    const link = el.closest('a[href]');
    if (!link) return true;
    const href = link.getAttribute('href') ?? '';
    const driven = scripted(link) || link.getAttribute('role') === 'tab';
    return href === '#' || href === '' || (driven && href.startsWith('#'));
  };
  const labelOf = (el: Element, fallback: string): string =>
    clip(norm(el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.getAttribute('title') || fallback), 60) || fallback;
  const add = (kind: OutlineControl['kind'], candidates: Element[], fallback: string) => {
    for (const el of candidates) {
      if (!visible(el) || !staysOnPage(el)) continue;
      const selectors = selectorsFor(el);
      if (!selectors) continue;
      found.push({ kind, label: labelOf(el, fallback), rect: docRect(el), ...selectors });
      return;
    }
  };
  const all = (selector: string) => Array.from(section.querySelectorAll(selector));

  // A tab not yet shown: ARIA tabs, or the toolkits' tab and pill links.
  add('tab', all('[role="tab"], [data-toggle="tab"], [data-bs-toggle="tab"], [data-toggle="pill"], [data-bs-toggle="pill"]').filter(
    (el) => el.getAttribute('aria-selected') !== 'true' && !el.classList.contains('active'),
  ), 'Next tab');

  // A question not yet opened: <details>, or a button that expands a part of this section (aria-expanded with what it
  // controls here, or a toolkit's collapse toggle).
  const expands = (el: Element): boolean => {
    if (el.getAttribute('aria-expanded') !== 'false') return false;
    const id = el.getAttribute('aria-controls') ?? (el.getAttribute('data-bs-target') ?? el.getAttribute('data-target') ?? el.getAttribute('href') ?? '').replace(/^#/, '');
    const target = id && /^[\w-]+$/.test(id) ? document.getElementById(id) : null;
    return target !== null && section.contains(target);
  };
  add('disclosure', [...all('details:not([open]) > summary'), ...all('[aria-expanded="false"]').filter(expands)].sort(
    (a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1),
  ), 'Open the answer');

  // The prices' period switch: a switch, a checkbox beside "monthly"/"yearly", or a pressed-button pair.
  const period = /\b(month|monthly|year|yearly|annual|annually)\b/i;
  const besidePeriod = (el: Element): boolean => {
    const around = el.closest('label') ?? el.parentElement?.parentElement ?? el.parentElement;
    const text = around ? norm((around as HTMLElement).innerText) : '';
    return text.length <= 80 && period.test(text);
  };
  add('switch', [
    ...all('[role="switch"]'),
    ...all('input[type="checkbox"]').filter(besidePeriod).map((input) => (visible(input) ? input : (input.closest('label') ?? input))),
    ...all('button[aria-pressed="false"]').filter((el) => period.test(norm((el as HTMLElement).innerText))),
  ], 'Switch the billing period');

  // The next slide of a carousel: an arrow named "next" by its label or by the usual toolkits.
  add('next-slide', all('button, a, [role="button"]').filter((el) => {
    const named = `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''} ${el.getAttribute('data-slide') ?? ''} ${el.getAttribute('data-bs-slide') ?? ''}`;
    return /\bnext\b/i.test(named) || el.matches('.carousel-control-next, .swiper-button-next, .slick-next, .owl-next, .glide__arrow--right, .splide__arrow--next');
  }), 'Next slide');

  return found;
}
