import type { Presentation } from '../demos/presentation.js';
import { PermanentJobError } from './job-errors.js';
import { mixNarration, narrationOn, placeNarration, roomForLines, voiceScript, type Voiced } from './narration/narrate.js';
import type { SpeechEngine } from './narration/speech.js';
import type { NarrationLine } from './narration/types.js';
import type { StoryText, TimedStory } from './story-text/types.js';
import type { ActionScript } from './types.js';

/**
 * Issue 59, narration in produce-recording.ts: the lines are spoken before the recording (the script is given room
 * for them, narration/stretch.ts), placed on the take's shots after it, and mixed into the video once it is composed.
 * What is stored is the script as planned: a restyle that turns narration off records it as it was.
 */
export interface Narrator {
  /** whether the presentation turns narration on */
  on: boolean;
  /** speaks a story's lines (the user's edits kept, by beat) */
  voice(story: StoryText): Promise<Voiced>;
  /** the script with room for the spoken lines; as it is without lines, and in agent mode (planned as it records) */
  roomFor(script: ActionScript, voiced: Voiced | null): ActionScript;
  /**
   * The story as told: its lines placed on the take's shots. A flow's plan is made as it records: its lines are
   * spoken now (`voiced` null), and placed where they fit.
   */
  tell(voiced: Voiced | null, storyText: StoryText | null, timed: TimedStory | null, durationMs: number): Promise<{ voiced: Voiced | null; story: TimedStory | null }>;
  /** mixes the placed lines into the composed video and its cuts (when there are any) */
  mix(voiced: Voiced | null, story: TimedStory | null, options: { durationMs: number; videoFile: string; cuts: string[]; format: 'mp4' | 'webm' }): Promise<boolean>;
}

export function narrator(request: {
  presentation?: Presentation | null;
  mode: 'script' | 'agent';
  speech?: SpeechEngine | null;
  narrationScript?: NarrationLine[] | null;
}, workDir: string): Narrator {
  const on = narrationOn(request.presentation);
  const voice = (story: StoryText) =>
    voiceScript({ story, edited: request.narrationScript ?? null, presentation: request.presentation!, engine: request.speech ?? null, workDir });
  return {
    on,
    voice,
    roomFor: (script, voiced) => (voiced && request.mode !== 'agent' ? roomForLines(script, voiced, request.presentation!) : script),
    async tell(voiced, storyText, timed, durationMs) {
      if (on && !voiced && storyText) voiced = await voice(storyText);
      if (on && !voiced) throw new PermanentJobError('This demo has no story beats to narrate (it was made before captions); generate it again to narrate it.');
      return { voiced, story: timed && voiced ? placeNarration(voiced, timed, request.presentation!, durationMs) : timed };
    },
    async mix(voiced, story, options) {
      if (!voiced || !story?.narration) return false;
      await mixNarration({ voiced, narration: story.narration, ...options, workDir });
      return true;
    },
  };
}
