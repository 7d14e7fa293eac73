/**
 * Narration (issue 59): a voice reads one short line per shot, written from the story beats in the page's own words,
 * placed in the recording so that each line starts once its shot is readable and ends before the next shot's.
 */

/** One line of the script: what is said over one beat's shot. */
export interface NarrationLine {
  /** the beat the line belongs to (its chapter's title): how a line finds its shot in the recording */
  beatTitle: string;
  /** the plan step that starts the beat (null: the opening, from 0 s) */
  stepLabel: string | null;
  text: string;
  /** who wrote it: the rules (from the beat's caption or title), or the user (an edited line) */
  by: 'rules' | 'user';
}

/** A line as spoken in the video: where it starts and ends (ms), and the shot it is said over. */
export interface SpokenLine {
  beatTitle: string;
  text: string;
  startMs: number;
  endMs: number;
  /** the shot (the beat's chapter): the line starts inside it and ends before the next begins */
  shotStartMs: number;
  shotEndMs: number;
}

/** What the version stores (with its story): the voice used and each line as spoken; and the lines left unsaid. */
export interface TimedNarration {
  engine: string;
  voice: string;
  speed: number;
  lines: SpokenLine[];
  /** lines that did not fit their shot (the recording ran short of what the plan gave it), never cut off */
  unsaid: Array<{ beatTitle: string; text: string; reason: string }>;
}

/** A line's words are at most this long: two caption lines, and a few seconds of speech. */
export const LINE_MAX_CHARS = 84;
