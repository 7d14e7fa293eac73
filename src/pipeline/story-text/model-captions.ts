import type { OutlineSection, PageOutline } from '../types.js';
import { factsOnPage, wrapCaption } from './captions.js';
import type { CaptionDrafts } from './types.js';

/**
 * Captions written by the model planner (issue 36), in the page's language. The model is trusted with the words, not
 * the facts: a caption is kept only when it passes the checks the offline rules pass, every number and name in it
 * written in its section's text (or the page's title, which names the product), and it fits two lines of 42
 * characters as written. A caption the model wrote too long is not shortened: cut at a word, it could lose the very
 * fact it was written for, and the offline caption (or none) is the honest alternative.
 */
export function checkModelCaption(text: string, section: OutlineSection, outline: PageOutline): { lines: string[] } | { rejected: string } {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return { rejected: 'empty' };
  const lines = wrapCaption(line);
  if (lines.join(' ') !== line) return { rejected: 'longer than two lines of 42 characters' };
  const pageText = `${outline.title} ${section.kicker ?? ''} ${section.heading ?? ''} ${section.body ?? section.text}`;
  if (!factsOnPage(line, pageText)) return { rejected: 'a number or name that is not in the section’s text' };
  return { lines };
}

/** The model's draft for a section, or null when it wrote none for it (or wrote none at all). */
export function draftFor(drafts: CaptionDrafts | undefined, sectionId: string): string | null {
  // Own members only: a section whose id is "constructor" is not the object's.
  if (!drafts || !('bySection' in drafts) || !Object.hasOwn(drafts.bySection, sectionId)) return null;
  const draft = drafts.bySection[sectionId];
  return typeof draft === 'string' ? draft : null;
}

/**
 * Why a page the offline rules cannot write for (not English) has no captions although a model planner is
 * configured: it did not answer, or none of its captions passed the checks. Null when some caption is shown.
 */
export function modelCaptionsOffReason(language: string, drafts: CaptionDrafts): string {
  if ('unavailable' in drafts) {
    return `Captions are off: the page is in "${language}", the model planner that writes captions in it did not answer (${drafts.unavailable}), and the offline rules write English only.`;
  }
  return `Captions are off: the page is in "${language}" and none of the model planner's captions passed the checks (every number and name written on the page, two lines of 42 characters); the offline rules write English only.`;
}
