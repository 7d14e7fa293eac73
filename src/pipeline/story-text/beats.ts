import { sectionLabel, shortenAtWord } from '../plan/demo-title.js';
import { findSection, heroSection } from '../plan/outline-query.js';
import type { DemoPlan, OutlineSection, PageOutline, PlanStep, Rect, Target } from '../types.js';
import { captionsOffReason, offlineCaption, spokenLine, wrapCaption } from './captions.js';
import { checkModelCaption, draftFor, modelCaptionsOffReason } from './model-captions.js';
import type { CaptionWriter, StoryBeat, StoryText } from './types.js';

/**
 * The story beats of a plan (issue 36), untimed: the opening (from 0 s, named by the page), one beat per section the
 * plan frames (its `focus` steps, in order, a section framed twice in a row counted once), and the ending when the
 * plan ends on an action of the page's own (hover or click after the last framed section). Titles and captions are
 * the page's words. `language` is the page's `<html lang>`; `prompt`, the owner's, names a section whose kicker and heading
 * are as long as each other by the one it uses (sectionLabel). A section's caption is the model planner's
 * (`plan.captionDrafts`) when it wrote one that passes the checks, else the offline rules' where they can write the
 * page's language (English), else none; captions are off, with the reason, when no beat has one for want of a writer.
 *
 * Issue 55: what a viewer reads is never one of the plan's own labels (`Heading "Our Team"`, `Card 2 of "Pricing"`),
 * and never the same words twice: a beat whose title repeats an earlier one's is the same thing again, not a new
 * chapter, and a caption that repeats an earlier one is left out.
 */
export function storyBeats(plan: DemoPlan, outline: PageOutline, language: string | null, prompt: string | null = null): StoryText {
  const rulesOff = captionsOffReason(language, 'rules');
  const drafts = plan.captionDrafts;
  const sectionCaption = (section: OutlineSection): { caption: string[] | null; captionBy?: CaptionWriter } => {
    const draft = draftFor(drafts, section.id);
    const checked = draft === null ? null : checkModelCaption(draft, section, outline);
    if (checked && 'lines' in checked) return { caption: checked.lines, captionBy: 'model' };
    const offline = rulesOff ? null : offlineCaption(section, prompt);
    return offline ? { caption: offline, captionBy: 'rules' } : { caption: null };
  };
  const caption = (section: OutlineSection | null, fallback: string | null) =>
    section ? sectionCaption(section) : fallback && !rulesOff ? { caption: wrapCaption(fallback), captionBy: 'rules' as const } : { caption: null };
  const hero = heroSection(outline) ?? null;
  const pageName = shortenAtWord(outline.title || '', 60) || (hero ? sectionTitle(hero, prompt) : null) || outline.url;
  const spoken = (section: OutlineSection | null) => {
    const line = section ? spokenLine(section) : null;
    return line ? { spoken: line } : {};
  };
  const beats: StoryBeat[] = [{ kind: 'opening', stepLabel: null, sectionId: hero?.id ?? null, title: pageName, ...caption(hero, pageName), ...spoken(hero) }];
  const said = new Set([sameWords(pageName)]);

  let lastFocus = -1;
  let lastSection = null as OutlineSection | null;
  for (const [index, step] of plan.steps.entries()) {
    if (step.action !== 'focus') continue;
    const section = findSection(outline, step.sectionId);
    if (!section) continue;
    lastFocus = index;
    lastSection = section;
    const previous = beats.at(-1)!;
    if (previous.sectionId === section.id) continue;
    // The hero framed first is the opening itself: the glance on the way, not a chapter of its own.
    if (section === hero && beats.length === 1) continue;
    const title = sectionTitle(section, prompt);
    // Nothing of the page's to call it, or called as something already shown: the shot before runs on over it.
    if (!title || said.has(sameWords(title))) continue;
    said.add(sameWords(title));
    beats.push({ kind: 'section', stepLabel: step.label, sectionId: section.id, title, ...caption(section, null), ...spoken(section) });
  }

  const ending = plan.steps.slice(lastFocus + 1).find((step): step is Extract<PlanStep, { action: 'hover' | 'click' }> => step.action === 'hover' || step.action === 'click');
  if (ending && lastFocus >= 0) {
    const title = endingTitle(ending.target, outline, lastSection);
    if (title && !said.has(sameWords(title))) {
      beats.push({ kind: 'ending', stepLabel: ending.label, sectionId: null, title, ...(rulesOff ? { caption: null } : { caption: wrapCaption(title), captionBy: 'rules' as const }) });
    }
  }
  dropRepeatedCaptions(beats);
  // Off only where the rules cannot write the language and the model wrote nothing that passed.
  const captionsOff = rulesOff && !beats.some((beat) => beat.caption) ? (drafts && language ? modelCaptionsOffReason(language, drafts) : rulesOff) : null;
  return { language, beats, captionsOff, stickyHeaderHeight: outline.stickyHeaderHeight };
}

/**
 * What a section's chapter is called: its kicker or heading (`sectionLabel`, which the prompt's words decide between
 * when they are as long as each other); a section without either by the first words of its text, up to a sentence's
 * end, as the page writes them; else nothing (its kind, "content", is ours).
 */
export function sectionTitle(section: OutlineSection, prompt: string | null = null): string | null {
  const label = sectionLabel(section, prompt);
  if (label) return label;
  const first = (section.text || '').replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s/)[0] ?? '';
  return first ? shortenAtWord(first.replace(/[.!?]+$/u, ''), 40) || null : null;
}

/**
 * The ending's title, when the ending is a thing of the page's own beyond the section just shown: a button, link or
 * control the analyser found (its visible words). A target the planner made up (a section's heading, a card, an
 * image, a spot) is a point inside the shot, named by the planner, and a target inside the last framed section is
 * that section's shot going on: neither is a new beat.
 */
function endingTitle(target: Target, outline: PageOutline, lastSection: OutlineSection | null): string | null {
  const pageOwn = [
    ...outline.actions,
    ...outline.navigation,
    ...outline.forms.flatMap((form) => (form.submit ? [form.submit] : [])),
    ...outline.sections.flatMap((section) => section.controls ?? []),
  ].find((thing) => thing.selector === target.selector && thing.label === target.label);
  if (!pageOwn) return null;
  if (lastSection && contains(lastSection.rect, target.rect)) return null;
  return shortenAtWord(pageOwn.label, 60) || null;
}

function contains(outer: Rect, inner: Rect): boolean {
  const x = inner.x + inner.width / 2;
  const y = inner.y + inner.height / 2;
  return x >= outer.x && x <= outer.x + outer.width && y >= outer.y && y <= outer.y + outer.height;
}

/** A caption that says what an earlier one said is left out: the viewer has read it. */
function dropRepeatedCaptions(beats: StoryBeat[]): void {
  const shown = new Set<string>();
  for (const beat of beats) {
    if (!beat.caption) continue;
    const words = sameWords(beat.caption.join(' '));
    if (shown.has(words)) {
      beat.caption = null;
      delete beat.captionBy;
    } else shown.add(words);
  }
}

/** Text compared as a reader compares it: case, punctuation and spacing aside. */
export function sameWords(text: string): string {
  return text.toLocaleLowerCase('en').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
