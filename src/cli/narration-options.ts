import { presentationInputSchema, type Presentation } from '../demos/presentation.js';
import { describeIssues } from '../platform/validation.js';
import { type Parsed, UsageError, stringOption } from './command.js';

/**
 * Issue 59, for `showreel demo`: `--narrate` turns narration on (a voice reads one line per shot, from the engine
 * SHOWREEL_SPEECH names), `--voice V` and `--speed S` (0.7–1.2) choose how it sounds. Off by default.
 */
export const NARRATION_USAGE = '[--narrate [--voice V] [--speed S]]';

export const NARRATION_HELP = [
  '--narrate        a voice reads one line per shot (needs SHOWREEL_SPEECH: openai or elevenlabs)',
  '--voice V        the voice (default: the engine’s own, e.g. alloy)',
  '--speed S        the speaking speed, 0.7 to 1.2 (default: 1)',
];

export const NARRATION_OPTIONS = {
  narrate: { type: 'boolean' as const },
  voice: { type: 'string' as const },
  speed: { type: 'string' as const },
};

/** The presentation's `narration` from the flags, or null when --narrate is not given. */
export function narrationFromOptions(parsed: Parsed, speech: string): Presentation | null {
  const voice = stringOption(parsed, 'voice');
  const speed = stringOption(parsed, 'speed');
  if (parsed.values.narrate !== true) {
    if (voice !== undefined || speed !== undefined) throw new UsageError('--voice and --speed go with --narrate.');
    return null;
  }
  if (speech === 'none') throw new UsageError('--narrate needs a speech engine: set SHOWREEL_SPEECH to openai (with SHOWREEL_SPEECH_BASE_URL or OPENAI_BASE_URL) or elevenlabs (with ELEVENLABS_API_KEY).');
  const checked = presentationInputSchema.safeParse({ narration: { enabled: true, ...(voice ? { voice } : {}), ...(speed !== undefined ? { speed: Number(speed) } : {}) } });
  if (!checked.success) throw new UsageError(describeIssues(checked.error.issues));
  return checked.data;
}
