import type { OutlineSection, PlanStep, Target } from '../../types.js';
import {
  actionsIn, bandHeight, heroSection, isVisible, mediaIn, SCROLL_MARGIN, scrollYForSection, sectionName, strongestSection,
} from '../outline-query.js';
import { headlineTarget } from '../targets.js';
import { promptSubjects } from '../section-meaning.js';
import { headingsMentioned, matchSection, sectionPhrase } from '../text-match.js';
import { Choreography, chooseFitting, type Template, type TemplateContext } from './choreography.js';
import { heroSpotlight } from './hero-spotlight.js';

/**
 * Section focus: find the section the hint names (else one the prompt names, else the strongest section), scroll
 * there and rest on it. With more time: hover what it offers (buttons, then images), trace its heading, show the rest
 * of a section taller than the screen, and open on the hero first so the viewer sees where the section sits.
 */
export const sectionFocus: Template = (context) => {
  const { outline, budgetMs, prompt, sectionHint } = context;
  const hint = sectionHint ?? sectionPhrase(prompt)?.phrase ?? null;
  const hinted = hint ? matchSection(outline, hint)?.section : undefined;
  // Several subjects asked for by meaning ("the team and how to get in touch"), when the hint agrees with the first.
  const { subjects, endsOnAction } = promptSubjects(prompt, outline);
  if (subjects.length > 1 && (!hinted || hinted === subjects[0]!.section)) return visitInOrder(context, subjects.map((s) => s.section), endsOnAction);
  const section =
    hinted ??
    (subjects[0]?.section) ??
    headingsMentioned(outline, prompt)[0] ??
    strongestSection(outline) ??
    heroSection(outline);
  if (!section) return heroSpotlight(context);
  const name = sectionName(section);
  const items: Target[] = [
    ...actionsIn(outline, section),
    ...mediaIn(outline, section).map((item, index) => ({
      label: `Image ${index + 1} of "${name}"`,
      selector: item.selector,
      fallbackSelectors: [section.selector],
      rect: item.rect,
    })),
  ].slice(0, 5);
  const heading = section.heading ? headlineTarget(section) : null;
  const tall = section.rect.height > bandHeight(outline) * 1.2;
  const atTop = scrollYForSection(outline, section) === 0;
  type Extra = Target | 'opening' | 'rest-of-section';
  const compose = (extras: Extra[]) => {
    const c = new Choreography(outline, budgetMs);
    const hero = heroSection(outline);
    if (extras.includes('opening')) {
      c.pause('Open on the page');
      if (hero && hero !== section) c.focus(hero, 'Glance at the hero on the way');
    }
    c.scrollTo(section, `Scroll to "${name}"`);
    c.focus(section, `Focus on "${name}"`);
    if (heading && extras.includes(heading)) c.hover(heading, `Trace the heading "${name}"`);
    // The heading scrolls away with the rest of a tall section, or to reach what it offers further down: let it be
    // read first.
    const restY = section.rect.y + section.rect.height - outline.viewport.height + SCROLL_MARGIN;
    const leaves = extras.includes('rest-of-section') || items.some((item) => extras.includes(item) && !isVisible(outline, item.rect, c.y));
    if (heading && leaves) c.pause(`Read "${name}"`);
    for (const item of items) if (extras.includes(item)) c.hover(item, `Hover "${item.label}"`);
    // Not back up: reaching its buttons may already have gone further down than the rest.
    if (extras.includes('rest-of-section') && c.y < restY) c.scrollToY(restY, `Scroll through the rest of "${name}"`);
    c.pause(`Dwell on "${name}"`);
    if (endsOnAction) endOn(c, endsOnAction);
    return c;
  };
  const candidates: Extra[] = [
    ...items.slice(0, 2),
    ...(tall ? ['rest-of-section' as const] : []),
    ...(atTop ? [] : ['opening' as const]),
    ...(heading ? [heading] : []),
    ...items.slice(2),
  ];
  return compose(chooseFitting(candidates, compose, false)).done();
};

/**
 * Several sections in the prompt's order: scroll to each, frame it and let it be read; the last one (the "end on"
 * subject, when there is one) is held to the end. Sections that do not fit the budget are left out from the middle,
 * never the last.
 */
function visitInOrder(context: TemplateContext, sections: OutlineSection[], endsOnAction?: Target): PlanStep[] {
  const { outline, budgetMs } = context;
  const compose = (shown: OutlineSection[]) => {
    const c = new Choreography(outline, budgetMs);
    for (const section of shown) {
      const name = sectionName(section);
      c.scrollTo(section, `Scroll to "${name}"`);
      c.focus(section, `Focus on "${name}"`);
      c.pause(`Read "${name}"`);
    }
    if (endsOnAction) endOn(c, endsOnAction);
    else c.pause(`Hold on "${sectionName(shown.at(-1)!)}"`);
    return c;
  };
  const last = sections.at(-1)!;
  let shown = sections;
  while (shown.length > 1 && !compose(shown).fits()) shown = [...shown.slice(0, -2), last];
  return compose(shown).done();
}

/**
 * The ending the prompt names on a header that stays on screen ("end on how to book a stay"): the pointer goes to
 * it where the page is, the last section still behind it, and rests there.
 */
function endOn(c: Choreography, action: Target): void {
  c.hover(action, `End on "${action.label}"`);
  c.pause(`Hold on "${action.label}"`);
}
