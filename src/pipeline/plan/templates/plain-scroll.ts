import { maxScrollY } from '../outline-query.js';
import { Choreography, type Template } from './choreography.js';
import { heroSpotlight } from './hero-spotlight.js';

/**
 * Plain scroll: top to bottom in one steady scroll, with a beat at each end. One scroll rather than one per section:
 * the recorder eases every scroll, so segments would stop and start. A page that does not scroll gets the hero
 * spotlight instead.
 */
export const plainScroll: Template = (context) => {
  const { outline, budgetMs } = context;
  const bottom = maxScrollY(outline);
  if (bottom <= 0) return heroSpotlight(context);
  return new Choreography(outline, budgetMs, 'plain-scroll')
    .pause('Start at the top')
    .scrollToY(bottom, 'Scroll steadily to the bottom')
    .pause('Rest at the bottom')
    .done();
};
