import type { OutlineSection, PlanStep, Target } from '../../types.js';
import { actionsIn, heroSection, isVisible, mediaIn, scrollYForSection, sectionName, strongestSection } from '../outline-query.js';
import { headlineTarget } from '../targets.js';
import { promptSubjects } from '../section-meaning.js';
import { askedPart, partTarget, scrollYForPart } from '../section-parts.js';
import { headingsMentioned, matchSection, phraseSection, sectionPhrase } from '../text-match.js';
import { BEAT_HOLD_MS, Choreography, chooseFitting, controlInView, LAST_BEAT_HOLD_MS, type Template, type TemplateContext } from './choreography.js';
import { heroSpotlight } from './hero-spotlight.js';

/**
 * Section focus: find the section the hint names (else one the prompt names, else the strongest section), scroll
 * there and rest on it. With more time: hover what it offers on screen with its heading (buttons, then images),
 * trace its heading, and open on the hero first so the viewer sees where the section sits. A section taller than the
 * screen is shown by its heading and first row; the shot does not scroll on and leave its heading behind.
 */
export const sectionFocus: Template = (context) => {
  const { outline, budgetMs, prompt, sectionHint } = context;
  const found = sectionHint ? null : sectionPhrase(prompt);
  const hint = sectionHint ?? found?.phrase ?? null;
  const hinted = sectionHint ? matchSection(outline, sectionHint)?.section : found ? phraseSection(outline, found)?.section : undefined;
  // Several subjects asked for by meaning ("the team and how to get in touch"), when the hint agrees with the first.
  const { subjects, endsOnAction } = promptSubjects(prompt, outline);
  // A hint that is the first subject's name agrees with it even when another section goes by that name too (parts
  // without a heading are all called "content").
  const agrees = !hinted || hinted === subjects[0]?.section || (subjects[0] !== undefined && sectionName(subjects[0].section) === hint);
  if (subjects.length > 1 && agrees) return visitInOrder(context, subjects, endsOnAction);
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
  // The card inside it the prompt names, when it names one: the shot frames that card (with the heading when both fit).
  const part = askedPart(section, subjects.find((s) => s.section === section)?.clause ?? prompt, prompt);
  const sectionY = scrollYForSection(outline, section);
  const atSection = (part ? scrollYForPart(outline, section, part, sectionY) : null) ?? sectionY;
  // Traced where the shot shows it; with a card in view, only if tracing it does not scroll the card away.
  const heading = section.heading && (!part || isVisible(outline, headlineTarget(section).rect, atSection)) ? headlineTarget(section) : null;
  // What it offers is pointed at only where it is on screen with the heading: a shot holds its section's heading
  // and first row, and reaching a button further down scrolled the heading away for the rest of the video.
  const onScreen = [...(part ? [partTarget(part)] : []), ...items.filter((item) => isVisible(outline, item.rect, atSection))];
  const atTop = atSection === 0;
  // What changes the section in place (a tab, a question, the prices' switch, the next slide) is clicked, so the
  // viewer sees the page answer; it goes first among the extras the shot has time for.
  const control = controlInView(outline, section, atSection);
  type Extra = Target | 'opening';
  const compose = (extras: Extra[]) => {
    const c = new Choreography(outline, budgetMs);
    const hero = heroSection(outline);
    if (extras.includes('opening')) {
      c.pause('Open on the page');
      if (hero && hero !== section) c.focus(hero, 'Glance at the hero on the way');
    }
    if (atSection === sectionY) c.scrollTo(section, `Scroll to "${name}"`);
    else c.scrollToY(atSection, `Scroll to "${part?.heading}" in "${name}"`);
    c.focus(section, `Focus on "${name}"`);
    if (heading && extras.includes(heading)) c.hover(heading, `Trace the heading "${name}"`);
    for (const item of onScreen) if (extras.includes(item)) c.hover(item, `Hover "${item.label}"`);
    // Last before the dwell, so what it opened is what the viewer reads.
    if (control && extras.includes(control)) c.click(control);
    c.pause(`Dwell on "${name}"`, LAST_BEAT_HOLD_MS);
    if (endsOnAction) endOn(c, endsOnAction);
    return c;
  };
  const candidates: Extra[] = [
    ...(part ? onScreen.slice(0, 1) : []),
    ...(control ? [control] : []),
    ...onScreen.slice(part ? 1 : 0, 2),
    ...(atTop ? [] : ['opening' as const]),
    ...(heading ? [heading] : []),
    ...onScreen.slice(2),
  ];
  return compose(chooseFitting(candidates, compose, false)).done();
};

/**
 * Several sections in the prompt's order: scroll to each, frame it and let it be read; the last one (the "end on"
 * subject, when there is one) is held to the end. Sections that do not fit the budget are left out from the middle,
 * never the last.
 */
function visitInOrder(context: TemplateContext, subjects: Array<{ section: OutlineSection; clause: string }>, endsOnAction?: Target): PlanStep[] {
  const { outline, budgetMs } = context;
  type Beat = (typeof subjects)[number];
  const compose = (shown: Beat[], operate: boolean) => {
    const c = new Choreography(outline, budgetMs);
    shown.forEach(({ section, clause }, index) => {
      const name = sectionName(section);
      // The card the beat names inside its section, framed with it (see sectionFocus); two beats may be two cards of one.
      const named = askedPart(section, clause, context.prompt);
      const sectionY = scrollYForSection(outline, section);
      // The last beat keeps its section's heading in the shot, unless a beat before showed that section already.
      const headingShown = shown.slice(0, index).some((beat) => beat.section === section);
      const partY = (named ? scrollYForPart(outline, section, named, sectionY, index === shown.length - 1 && !headingShown) : null) ?? sectionY;
      const part = named && (partY !== sectionY || isVisible(outline, named.headingRect, sectionY)) ? named : null;
      if (partY === sectionY) c.scrollTo(section, `Scroll to "${name}"`);
      else c.scrollToY(partY, `Scroll to "${part?.heading}" in "${name}"`);
      c.focus(section, `Focus on "${name}"`);
      if (part) c.hover(partTarget(part), `Point at "${part.heading}"`);
      // Each beat is held long enough to read; the last one longest (it is what the video ends on).
      c.pause(`Read "${name}"`, index === shown.length - 1 ? LAST_BEAT_HOLD_MS : BEAT_HOLD_MS);
    });
    // The part held to the end answers on camera when it can (a question opened, the next tab) and time allows.
    const control = operate && !endsOnAction ? controlInView(outline, shown.at(-1)!.section, c.y) : null;
    if (control) c.click(control);
    if (endsOnAction) endOn(c, endsOnAction);
    // After a click the viewer reads what it opened; else the last beat's hold has held it already.
    else if (control) c.pause(`Hold on "${sectionName(shown.at(-1)!.section)}"`);
    return c;
  };
  const last = subjects.at(-1)!;
  let shown = subjects;
  while (shown.length > 1 && !compose(shown, false).fits()) shown = [...shown.slice(0, -2), last];
  const operated = compose(shown, true);
  return (operated.fits() ? operated : compose(shown, false)).done();
}

/**
 * The ending the prompt names on a header that stays on screen ("end on how to book a stay"): the pointer goes to
 * it where the page is, the last section still behind it, and rests there.
 */
function endOn(c: Choreography, action: Target): void {
  c.hover(action, `End on "${action.label}"`);
  c.pause(`Hold on "${action.label}"`);
}
