import type { DemoPlan, MainShot, OutlineSection, PageOutline } from '../types.js';
import { findSection, heroSection } from './outline-query.js';
import { matchSection } from './text-match.js';

/**
 * The section a demo is about (issue 35): the one its default title names and its thumbnail shows. Of the sections
 * the plan frames (its `focus` steps): the one the section hint names, else the first that is not the hero (a
 * section-focus plan glances at the hero on its way to the asked-for section), else the first. Null when the plan
 * frames no section (a plain scroll): the title then has no section and the thumbnail keeps its default time.
 */
export function mainSection(plan: Pick<DemoPlan, 'steps' | 'sectionHint'>, outline: PageOutline): { section: OutlineSection; shot: MainShot } | null {
  const framed = plan.steps.flatMap((step) => {
    if (step.action !== 'focus') return [];
    const section = findSection(outline, step.sectionId);
    return section ? [{ section, stepLabel: step.label }] : [];
  });
  if (framed.length === 0) return null;
  const hinted = plan.sectionHint ? matchSection(outline, plan.sectionHint)?.section : undefined;
  const hero = heroSection(outline);
  const chosen =
    framed.find((f) => hinted && f.section.id === hinted.id) ?? framed.find((f) => f.section.id !== hero?.id) ?? framed[0]!;
  return { section: chosen.section, shot: { sectionId: chosen.section.id, stepLabel: chosen.stepLabel } };
}
