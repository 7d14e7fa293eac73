import type { OutlineAction, OutlineSection, PageOutline, Target } from '../../types.js';
import { actionsIn, centre, isVisible, sectionName, sectionsAbout, toTarget } from '../outline-query.js';
import { regionTargets } from '../targets.js';
import { keywords, matchSection } from '../text-match.js';
import { cinematic } from './cinematic.js';
import { Choreography, controlInView, type Template } from './choreography.js';

const pricingHeading = /pric|plans?\b|tiers?\b/i;
const highlight = /most popular|popular|recommended|best value|best deal|favou?rite/i;

/** One target per tier, left to right: the top-most button of each column, else spots across the section. */
export function tierTargets(outline: PageOutline, section: OutlineSection): Target[] {
  const columns: OutlineAction[] = [];
  for (const action of [...actionsIn(outline, section)].sort((a, b) => a.rect.y - b.rect.y)) {
    const x = centre(action.rect).x;
    if (!columns.some((column) => Math.abs(centre(column.rect).x - x) < Math.max(40, column.rect.width / 2))) columns.push(action);
  }
  columns.sort((a, b) => a.rect.x - b.rect.x);
  return columns.length >= 2 ? columns.map((action) => toTarget(action)) : regionTargets(outline, section, 3, 'Tier');
}

/**
 * The highlighted tier: one whose button says so, else one whose words sit next to "most popular" in the section's
 * text, else the middle of three or more (where pricing pages put it), else the last.
 */
export function popularTier(section: OutlineSection, tiers: Target[]): Target | null {
  const flagged = tiers.find((tier) => highlight.test(tier.label));
  if (flagged) return flagged;
  const at = section.text.search(highlight);
  if (at >= 0) {
    const near = new Set(keywords(section.text.slice(Math.max(0, at - 40), at + 40)));
    const named = tiers.find((tier) => keywords(tier.label).some((word) => near.has(word) && !['start', 'get', 'try', 'buy'].includes(word)));
    if (named) return named;
  }
  if (tiers.length >= 3) return tiers[Math.floor((tiers.length - 1) / 2)] ?? null;
  return tiers[tiers.length - 1] ?? null;
}

/**
 * Pricing focus: scroll to the pricing section, hover the tiers left to right, then come back to the highlighted
 * tier and dwell there; a short video compares only the tiers up to the highlighted one. Without a pricing section
 * it is cinematic. A section hint chooses among several pricing sections.
 */
export const pricingFocus: Template = (context) => {
  const { outline, budgetMs, sectionHint } = context;
  // The pricing section the hint names (a page may price hotel rooms beside its tickets), else the first.
  const hinted = sectionHint ? matchSection(outline, sectionHint)?.section : undefined;
  const pricing = hinted?.kind === 'pricing' ? hinted : sectionsAbout(outline, ['pricing'], pricingHeading)[0];
  if (!pricing) return cinematic(context);
  const name = sectionName(pricing);
  const tiers = tierTargets(outline, pricing).slice(0, 4);
  const popular = popularTier(pricing, tiers);
  const compose = (opening: boolean, wanted: Target[]) => {
    const c = new Choreography(outline, budgetMs);
    if (opening) c.pause('Open on the page');
    c.scrollToWith(pricing, wanted, `Scroll to "${name}"`);
    // Only the tiers on screen with the heading: scrolling on to buttons at the foot of tall cards put the plans'
    // names and prices under a sticky header, and the heading out of the picture, for the rest of the video.
    const compared = wanted.filter((tier) => isVisible(outline, tier.rect, c.y));
    // Framed whole first (heading and plans): the camera keeps the heading in view while it zooms on a tier.
    c.focus(pricing, `Frame "${name}"`);
    // The monthly/yearly switch, when it is on screen with the plans: the prices change as the viewer watches.
    const period = controlInView(outline, pricing, c.y, ['switch']);
    if (period) c.click(period);
    for (const tier of compared) {
      // The highlighted tier, when it is the last one compared, is dwelt on right away rather than hovered twice.
      if (tier !== popular || compared.at(-1) !== popular) c.hover(tier, `Compare "${tier.label}"`);
    }
    if (popular && compared.includes(popular)) {
      c.hover(popular, `Dwell on the highlighted tier "${popular.label}"`);
      c.pause('Let the highlighted tier sink in');
    } else {
      c.pause(`Dwell on "${name}"`);
    }
    return c;
  };
  // Richest first; in a short video, the tiers up to the highlighted one, or the highlighted one alone.
  const upToPopular = popular ? tiers.slice(0, tiers.indexOf(popular) + 1) : tiers;
  const variants = [
    compose(true, tiers),
    compose(false, tiers),
    compose(false, upToPopular),
    compose(false, popular ? [popular] : tiers.slice(0, 1)),
  ];
  return (variants.find((variant) => variant.fits()) ?? variants[variants.length - 1]!).done();
};
