import type { OutlineAction, OutlineSection, PageOutline } from '../../types.js';
import { heroSection, isFixed, sectionName, sectionsInOrder } from '../outline-query.js';
import { matchSection } from '../text-match.js';
import { Choreography, chooseFitting, visitsFor, type Template } from './choreography.js';
import { plainScroll } from './plain-scroll.js';

/** The section a navigation link leads to: by its #fragment, else by its label matching a heading. */
export function sectionForLink(outline: PageOutline, link: OutlineAction): OutlineSection | null {
  const href = link.href ?? '';
  const hash = href.includes('#') ? safeDecode(href.slice(href.indexOf('#') + 1)) : '';
  if (hash) {
    const byHash = outline.sections.find(
      (section) => section.id === hash || section.selector === `#${hash}` || section.fallbackSelectors.includes(`#${hash}`),
    );
    if (byHash) return byHash;
  }
  const match = matchSection(outline, link.label);
  return match && match.score >= 0.7 ? match.section : null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface Stop {
  link: OutlineAction | null;
  section: OutlineSection;
}

/**
 * Guided tour: driven by the navigation, in menu order, as many stops as the budget allows. With a sticky header,
 * each stop points at its navigation item and then scrolls to the section; with a header that scrolls away, the tour
 * points at the items first (while they are on screen) and then visits the sections. Without usable navigation it
 * tours the named sections in page order; a page without named sections gets a plain scroll.
 */
export const guidedTour: Template = (context) => {
  const { outline, budgetMs } = context;
  const hero = heroSection(outline);
  let stops: Stop[] = [];
  for (const link of outline.navigation) {
    const section = sectionForLink(outline, link);
    if (!section || section === hero || stops.some((stop) => stop.section === section)) continue;
    stops.push({ link, section });
  }
  if (stops.length === 0) {
    stops = sectionsInOrder(outline)
      .filter((section) => section.heading && section !== hero && section.kind !== 'footer')
      .map((section) => ({ link: null, section }));
  }
  if (stops.length === 0) return plainScroll(context);
  const sticky = stops.every((stop) => stop.link && isFixed(outline, stop.link.rect));
  const compose = (chosen: Stop[]) => {
    const c = new Choreography(outline, budgetMs);
    c.pause('Open on the page');
    if (!sticky) {
      for (const { link } of chosen.slice(0, 3)) if (link) c.hover(link, `Point at "${link.label}" in the navigation`);
    }
    for (const { link, section } of chosen) {
      if (sticky && link) c.hover(link, `Point at "${link.label}" in the navigation`);
      c.scrollTo(section, `Go to "${sectionName(section)}"`);
      c.focus(section);
    }
    c.pause('End of the tour');
    return c;
  };
  return compose(chooseFitting(stops.slice(0, visitsFor(budgetMs)), compose)).done();
};
