import type { OutlineAction, OutlineSection } from '../../types.js';
import { heroSection, nearestCta, sectionName, sectionsAbout, sectionsOfKind } from '../outline-query.js';
import { itemTargets } from '../targets.js';
import { cinematic } from './cinematic.js';
import { Choreography, chooseFitting, visitsFor, type Template } from './choreography.js';

const featureHeading = /feature|capabilit|why\b|how it works|benefit|what you get|built for|everything you need/i;

/**
 * Feature sweep: scroll through the features sections in page order and hover their cards one after another. The
 * features sections come first, one card each; with time left, the content and media sections join the sweep, each
 * section gets more cards, and the sweep ends on the nearest call to action. Pages without a features section sweep
 * their content and media sections; pages with neither get the cinematic template.
 */
export const featureSweep: Template = (context) => {
  const { outline, budgetMs } = context;
  const hero = heroSection(outline);
  const features = sectionsAbout(outline, ['features'], featureHeading).filter((section) => section !== hero);
  const others = sectionsOfKind(outline, 'content', 'media').filter((section) => section !== hero && !features.includes(section));
  const all = [...features, ...others];
  if (all.length === 0) return cinematic(context);
  const inPageOrder = all.slice().sort((a, b) => a.rect.y - b.rect.y);
  type Extra = OutlineSection | 'closing';
  const compose = (chosen: Extra[], cards = 1) => {
    const c = new Choreography(outline, budgetMs);
    c.pause('Open on the page');
    for (const section of inPageOrder.filter((section) => chosen.includes(section))) {
      c.scrollTo(section, `Sweep to "${sectionName(section)}"`);
      // Framed whole first: the camera keeps this heading in view while it zooms on the cards.
      c.focus(section, `Frame "${sectionName(section)}"`);
      for (const card of itemTargets(outline, section, cards, 'Feature')) c.hover(card, `Hover "${card.label}"`);
      c.pause(`Take in "${sectionName(section)}"`);
    }
    const cta: OutlineAction | null = chosen.includes('closing') ? nearestCta(outline, c.y) : null;
    if (cta) c.hover(cta, `End on "${cta.label}"`);
    return c;
  };
  const chosen = chooseFitting<Extra>(features.length > 0 ? features.slice(0, visitsFor(budgetMs)) : others.slice(0, visitsFor(budgetMs)), compose);
  let cards = 1;
  while (cards < 4 && compose(chosen, cards + 1).fits()) cards++;
  const more = chooseFitting<Extra>([...chosen, ...(features.length > 0 ? others : []).slice(0, 3), 'closing'], (trial) => compose(trial, cards));
  return compose(more, cards).done();
};
