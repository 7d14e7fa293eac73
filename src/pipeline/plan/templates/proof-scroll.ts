import type { OutlineSection } from '../../types.js';
import { nearestCta, sectionName, sectionsAbout } from '../outline-query.js';
import { itemTargets } from '../targets.js';
import { cinematic } from './cinematic.js';
import { Choreography, chooseFitting, controlInView, visitsFor, type Template } from './choreography.js';

const proofHeading = /testimonial|customer|loved by|trusted|review|what (people|our users|teams) say|wall of love|case stud/i;

/**
 * Proof scroll: the social proof in page order. Testimonials get their quotes hovered one by one; logo strips get a
 * resting cursor and a pause so the names register; with time left it ends on the nearest call to action. Without
 * proof on the page it is cinematic.
 */
export const proofScroll: Template = (context) => {
  const { outline, budgetMs } = context;
  const proof = sectionsAbout(outline, ['testimonials', 'logos'], proofHeading).filter((section) => section.kind !== 'hero');
  if (proof.length === 0) return cinematic(context);
  const compose = (chosen: Array<OutlineSection | 'closing'>, quotes = 1) => {
    const c = new Choreography(outline, budgetMs);
    if (budgetMs >= 10_000) c.pause('Open on the page');
    for (const section of proof.filter((section) => chosen.includes(section))) {
      const name = sectionName(section);
      c.scrollTo(section, `Scroll to "${name}"`);
      if (section.kind === 'logos') {
        c.focus(section, `Rest on the logos of "${name}"`);
        c.pause('Let the names register');
      } else {
        // Framed whole first: the camera keeps the heading in view while it zooms on a quote.
        c.focus(section, `Frame "${name}"`);
        for (const quote of itemTargets(outline, section, quotes, 'Quote')) c.hover(quote, `Linger on ${quote.label}`);
        // A carousel of quotes turns to the next one, with the pointer on its arrow.
        const next = controlInView(outline, section, c.y, ['next-slide']);
        if (next) c.click(next);
        c.pause(`Read "${name}"`);
      }
    }
    const cta = chosen.includes('closing') ? nearestCta(outline, c.y) : null;
    if (cta) c.hover(cta, `End on "${cta.label}"`);
    return c;
  };
  // Testimonials before logos when there is not time for both: quotes are the stronger proof.
  const priority = [...proof].sort((a, b) => Number(a.kind === 'logos') - Number(b.kind === 'logos'));
  const chosen = chooseFitting<OutlineSection | 'closing'>(priority.slice(0, visitsFor(budgetMs)), (trial) => compose(trial));
  let quotes = 1;
  while (quotes < 4 && compose(chosen, quotes + 1).fits()) quotes++;
  // With time left, proof leads to the call to action.
  const closing = chooseFitting<OutlineSection | 'closing'>([...chosen, 'closing'], (trial) => compose(trial, quotes));
  return compose(closing, quotes).done();
};
