import { sectionLabel, shortenAtWord } from '../plan/demo-title.js';
import { findSection, heroSection } from '../plan/outline-query.js';
import type { DemoPlan, OutlineSection, PageOutline } from '../types.js';
import { captionsOffReason, offlineCaption, wrapCaption } from './captions.js';
import { checkModelCaption, draftFor, modelCaptionsOffReason } from './model-captions.js';
import type { CaptionWriter, StoryBeat, StoryText } from './types.js';

/**
 * The story beats of a plan (issue 36), untimed: the opening (from 0 s, named by the page), one beat per section the
 * plan frames (its `focus` steps, in order, a section framed twice in a row counted once), and the ending when the
 * plan ends on an action (hover or click after the last framed section). Titles and captions are the page's words.
 * `language` is the page's `<html lang>`. A section's caption is the model planner's (`plan.captionDrafts`) when it
 * wrote one that passes the checks, else the offline rules' where they can write the page's language (English),
 * else none; captions are off, with the reason, when no beat has one for want of a writer.
 */
export function storyBeats(plan: DemoPlan, outline: PageOutline, language: string | null): StoryText {
  const rulesOff = captionsOffReason(language, 'rules');
  const drafts = plan.captionDrafts;
  const sectionCaption = (section: OutlineSection): { caption: string[] | null; captionBy?: CaptionWriter } => {
    const draft = draftFor(drafts, section.id);
    const checked = draft === null ? null : checkModelCaption(draft, section, outline);
    if (checked && 'lines' in checked) return { caption: checked.lines, captionBy: 'model' };
    const offline = rulesOff ? null : offlineCaption(section);
    return offline ? { caption: offline, captionBy: 'rules' } : { caption: null };
  };
  const caption = (section: OutlineSection | null, fallback: string | null) =>
    section ? sectionCaption(section) : fallback && !rulesOff ? { caption: wrapCaption(fallback), captionBy: 'rules' as const } : { caption: null };
  const hero = heroSection(outline) ?? null;
  const pageName = shortenAtWord(outline.title || '', 60) || (hero ? sectionLabel(hero) : null) || outline.url;
  const beats: StoryBeat[] = [{ kind: 'opening', stepLabel: null, sectionId: hero?.id ?? null, title: pageName, ...caption(hero, pageName) }];

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
    beats.push({ kind: 'section', stepLabel: step.label, sectionId: section.id, title, ...caption(section, null) });
  });

  const ending = plan.steps.slice(lastFocus + 1).find((step) => step.action === 'hover' || step.action === 'click');
  if (ending && (ending.action === 'hover' || ending.action === 'click') && lastFocus >= 0) {
    const title = shortenAtWord(ending.target.label, 60);
    if (title) beats.push({ kind: 'ending', stepLabel: ending.label, sectionId: null, title, ...(rulesOff ? { caption: null } : { caption: wrapCaption(title), captionBy: 'rules' as const }) });
  }
  // Off only where the rules cannot write the language and the model wrote nothing that passed.
  const captionsOff = rulesOff && !beats.some((beat) => beat.caption) ? (drafts && language ? modelCaptionsOffReason(language, drafts) : rulesOff) : null;
  return { language, beats, captionsOff, stickyHeaderHeight: outline.stickyHeaderHeight };
}
