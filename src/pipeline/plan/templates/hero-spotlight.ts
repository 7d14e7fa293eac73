import type { OutlineAction } from '../../types.js';
import { actionsIn, heroSection, primaryCta, sectionName } from '../outline-query.js';
import { headlineTarget } from '../targets.js';
import { Choreography, chooseFitting, type Template } from './choreography.js';

/**
 * Hero spotlight: stay on the first screen. Trace the headline, glance at secondary buttons (as many as there is
 * time for), then move to the primary call to action and rest there. Emphasis only: nothing is clicked.
 */
export const heroSpotlight: Template = ({ outline, budgetMs }) => {
  const hero = heroSection(outline);
  const inHero = hero ? actionsIn(outline, hero) : [];
  const fallback = primaryCta(outline);
  const primary =
    inHero.find((action) => action.kind === 'primary-cta') ??
    inHero.find((action) => action.kind === 'cta') ??
    // A call to action outside the hero only counts when it is on the first screen: this template does not scroll.
    (fallback && fallback.rect.y + fallback.rect.height <= outline.viewport.height ? fallback : undefined);
  const compose = (secondary: OutlineAction[]) => {
    const c = new Choreography(outline, budgetMs);
    c.pause('Open on the hero');
    if (hero) {
      c.scrollTo(hero);
      c.hover(headlineTarget(hero), 'Trace the headline');
    }
    for (const action of secondary) c.hover(action, `Glance at "${action.label}"`);
    if (primary) {
      c.hover(primary, `Move to the call to action "${primary.label}"`);
      c.pause('Let the call to action sink in');
    } else if (hero) {
      c.focus(hero, `Rest on "${sectionName(hero)}"`);
    }
    c.pause('Hold on the hero');
    return c;
  };
  // The headline and the call to action are always shown; secondary buttons only with time to spare.
  const secondary = chooseFitting(inHero.filter((action) => action !== primary).slice(0, 3), compose, false);
  return compose(secondary).done();
};
