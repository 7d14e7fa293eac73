import type { TimedNarration } from '../narration/types.js';
import type { Rect } from '../types.js';

/**
 * Captions and chapters (issue 36). What the plan says each part of the video is about, before it is recorded: one
 * beat per story beat (the opening, each framed section, the ending on an action), titled and captioned in the page's
 * own words. Stored with the plan (`DemoPlan.story`) so a restyle, which re-records the stored script and plans
 * nothing, times the same words against its own recording.
 */
export interface StoryBeat {
  kind: 'opening' | 'section' | 'ending';
  /** the plan step whose recorded step starts the beat (the recorder names its steps by the plan's labels); null: 0 s */
  stepLabel: string | null;
  sectionId: string | null;
  /** the chapter's title, at most 60 characters */
  title: string;
  /** the caption's lines (at most two of 42 characters), or null for none */
  caption: string[] | null;
  /** who wrote the caption: the model planner, or the offline rules (absent in stories stored before: the rules) */
  captionBy?: CaptionWriter;
  /**
   * Issue 59: what a narrator says over the beat, in the page's words without the caption's two-line cut (the full
   * heading, and its fact where it fits); absent where the caption or title says it whole, and in stories before.
   */
  spoken?: string;
}

export type CaptionWriter = 'model' | 'rules';

/**
 * What the model planner wrote for the captions (issue 36), before any check: its caption for each section id it
 * captioned, in the page's language; or why it wrote none (the planner fell back). Absent: no model was asked.
 */
export type CaptionDrafts = { bySection: Record<string, string> } | { unavailable: string };

export interface StoryText {
  /** the page's language (`<html lang>`, lower case), null when the page does not say */
  language: string | null;
  beats: StoryBeat[];
  /** why there are no captions (a page in another language with no model to write them), else null */
  captionsOff: string | null;
  /**
   * The page's sticky navigation (viewport px from the top, the outline's stickyHeaderHeight): a caption burned in at
   * the top sits below it. Kept here for restyles, which analyse nothing; absent in stories stored before it (0).
   */
  stickyHeaderHeight?: number;
}

export interface Chapter {
  title: string;
  startMs: number;
  endMs: number;
}

export interface Caption {
  startMs: number;
  endMs: number;
  lines: string[];
  /** who wrote it (absent in stories stored before model captions: the rules) */
  by?: CaptionWriter;
  /** the focused section's box on the page's screen (viewport coordinates) while the caption shows, to keep clear of */
  avoid: Rect | null;
}

/** What the player and the compositor need: chapters and captions timed by the recording (stored as `story`). */
export interface TimedStory {
  language: string | null;
  chapters: Chapter[];
  captions: Caption[];
  captionsOff: string | null;
  /** Issue 59: the narration as spoken in this version (its captions are then the spoken lines); absent when off */
  narration?: TimedNarration;
}

/** The timed-text limits captions keep (CaptionHub's and Netflix's): characters a line, lines, seconds on screen. */
export const CAPTION_LIMITS = { lineChars: 42, lines: 2, minMs: 1000, maxMs: 7000 } as const;
