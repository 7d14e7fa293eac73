import { sectionLabel, shortenAtWord } from '../plan/demo-title.js';
import { findSection, heroSection } from '../plan/outline-query.js';
import type { DemoPlan, OutlineSection, PageOutline } from '../types.js';
import { captionsOffReason, offlineCaption, wrapCaption } from './captions.js';
import type { StoryBeat, StoryText } from './types.js';

/**
 * The story beats of a plan (issue 36), untimed: the opening (from 0 s, named by the page), one beat per section the
 * plan frames (its `focus` steps, in order, a section framed twice in a row counted once), and the ending when the
 * plan ends on an action (hover or click after the last framed section). Titles and captions are the page's words.
 * `language` is the page's `<html lang>`; captions are off where the offline rules cannot write that language.
 */
export function storyBeats(plan: DemoPlan, outline: PageOutline, language: string | null): StoryText {
  const captionsOff = captionsOffReason(language, 'rules');
  const caption = (section: OutlineSection | null, fallback: string | null) =>
    captionsOff ? null : section ? offlineCaption(section) : fallback ? wrapCaption(fallback) : null;
  const hero = heroSection(outline) ?? null;
  const pageName = shortenAtWord(outline.title || '', 60) || (hero ? sectionLabel(hero) : null) || outline.url;
  const beats: StoryBeat[] = [{ kind: 'opening', stepLabel: null, sectionId: hero?.id ?? null, title: pageName, caption: caption(hero, pageName) }];

  let lastFocus = -1;
  plan.steps.forEach((step, index) => {
    if (step.action !== 'focus') return;
    const section = findSection(outline, step.sectionId);
    if (!section) return;
    lastFocus = index;
    const previous = beats.at(-1)!;
    if (previous.sectionId === section.id) return;
    // The hero framed first is the opening itself: the glance on the way, not a chapter of its own.
    if (section === hero && beats.length === 1) return;
    const title = sectionLabel(section) ?? shortenAtWord(section.kind, 60);
    beats.push({ kind: 'section', stepLabel: step.label, sectionId: section.id, title, caption: caption(section, null) });
  });

  const ending = plan.steps.slice(lastFocus + 1).find((step) => step.action === 'hover' || step.action === 'click');
  if (ending && (ending.action === 'hover' || ending.action === 'click') && lastFocus >= 0) {
    const title = shortenAtWord(ending.target.label, 60);
    if (title) beats.push({ kind: 'ending', stepLabel: ending.label, sectionId: null, title, caption: captionsOff ? null : wrapCaption(title) });
  }
  return { language, beats, captionsOff, stickyHeaderHeight: outline.stickyHeaderHeight };
}
