import type { OutlineSection } from '../../types.js';
import { heroSection, nearestCta, sectionName, sectionStrength, sectionsInOrder, strongestSection } from '../outline-query.js';
import { Choreography, chooseFitting, visitsFor, type Template } from './choreography.js';

/**
 * Cinematic: open on the hero, glide through the strongest sections (in page order, slow eased scrolls; the
 * pacing gives scrolls most of the spare time), dwell longest on the single strongest one, and end on the main call
 * to action (the nearest one: a bookend back at the hero, or the closing banner). As many sections as the budget allows, strongest first. On a page with one screen it becomes a hero
 * shot ending on the call to action.
 */
export const cinematic: Template = ({ outline, budgetMs }) => {
  const hero = heroSection(outline);
  const strongest = strongestSection(outline);
  const others = sectionsInOrder(outline).filter((section) => section !== hero && section.kind !== 'footer');
  const compose = (chosen: OutlineSection[]) => {
    const c = new Choreography(outline, budgetMs, 'cinematic');
    c.pause('Open on the page');
    if (hero) {
      c.scrollTo(hero);
      c.focus(hero, `Linger on the hero "${sectionName(hero)}"`);
    }
    for (const section of others.filter((section) => chosen.includes(section))) {
      c.scrollTo(section, `Glide to "${sectionName(section)}"`);
      if (section === strongest) {
        c.focus(section, `Dwell on "${sectionName(section)}"`);
        c.pause('Let the strongest section breathe');
      } else {
        c.pause(`Pause on "${sectionName(section)}"`);
      }
    }
    const cta = nearestCta(outline, c.y);
    if (cta) {
      c.hover(cta, `Hover the call to action "${cta.label}"`);
      c.pause('Hold on the call to action');
    }
    return c;
  };
  const ranked = others
    .map((section) => ({ section, score: sectionStrength(outline, section) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, Math.max(1, visitsFor(budgetMs) - 1))
    .map((entry) => entry.section);
  return compose(chooseFitting(ranked, compose)).done();
};
