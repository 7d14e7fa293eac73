import path from 'node:path';
import fs from 'node:fs/promises';
import type { Presentation } from '../../demos/presentation.js';
import { resolveStyle } from '../compose/style.js';
import { PermanentJobError, TransientJobError } from '../job-errors.js';
import type { StoryText, TimedStory } from '../story-text/types.js';
import type { ActionScript } from '../types.js';
import { decodeLine, layTrack, muxNarration, pcmDurationMs, writeWav } from './audio.js';
import { LINE_GAP_MS, narratedCaptions, placeLines, type VoicedLine } from './place.js';
import { writeNarrationScript } from './script.js';
import { SpeechError, type SpeechEngine } from './speech.js';
import { stretchForNarration } from './stretch.js';
import type { NarrationLine, TimedNarration } from './types.js';

/**
 * Narration from the plan to the finished video (issue 59), in the three places the recording leaves for it:
 * `voiceScript` before the recording (write the lines, speak them, measure them), `roomForLines` (the script
 * stretched so each line fits its shot), `placeNarration` before the composition (the lines where the recording
 * put their shots, the captions on the spoken words) and `mixNarration` after it (the track mixed into the video). With narration off
 * none of them is called, and the video is made exactly as before.
 */
export interface Voiced {
  engine: string;
  voice: string;
  speed: number;
  lines: Array<VoicedLine & { samples: Int16Array }>;
}

/** Lines sent to the engine at once. */
const SPEAK_AT_ONCE = 3;

async function inBatches<T, R>(items: T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map((item, i) => work(item, start + i)))));
  }
  return results;
}

export function narrationOn(presentation: Presentation | null | undefined): boolean {
  return presentation?.narration?.enabled === true;
}

/** The script's lines spoken by the engine, one after the other, each trimmed and measured. */
export async function voiceScript(options: {
  story: StoryText;
  edited: NarrationLine[] | null;
  presentation: Presentation;
  engine: SpeechEngine | null;
  workDir: string;
}): Promise<Voiced> {
  const { engine } = options;
  if (!engine) throw new PermanentJobError('Narration needs a speech engine, and this server has none: set SHOWREEL_SPEECH to openai or elevenlabs.');
  const voice = options.presentation.narration?.voice ?? engine.defaultVoice;
  const speed = options.presentation.narration?.speed ?? 1;
  const script = writeNarrationScript(options.story, options.edited);
  const dir = path.join(options.workDir, 'narration');
  await fs.mkdir(dir, { recursive: true });
  // A few lines at a time: each is a round trip to the engine, made while the page waits to be recorded.
  const spoken = await inBatches(script, SPEAK_AT_ONCE, async (line, i) => {
    let audio: Buffer;
    try {
      audio = await engine.speak(line.text, { voice, speed });
    } catch (error) {
      // An engine that refused (a wrong voice, no key) will refuse again; one that could not be reached may not.
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof SpeechError && /answered 4\d\d/.test(message)) throw new PermanentJobError(`Narration failed: ${message}`);
      throw new TransientJobError(`Narration failed: ${message}`);
    }
    const samples = await decodeLine(audio, path.join(dir, `line-${i}.audio`));
    return { ...line, durationMs: pcmDurationMs(samples), samples };
  });
  const lines = spoken.filter((line) => line.samples.length > 0);
  return { engine: engine.name, voice, speed, lines };
}

/** When the opening's line may start (the window has risen in, or faded in) and the end it keeps clear of. */
function framing(presentation: Presentation): { openingLeadMs: number; endMs: number } {
  const style = resolveStyle(presentation);
  const openingLeadMs = Math.max(style.fade.inMs, style.windowAnimation.intro ? style.windowAnimation.introDurationMs : 0);
  const endMs = Math.max(style.fade.outMs, style.windowAnimation.outro ? style.windowAnimation.outroDurationMs : 0) + LINE_GAP_MS;
  return { openingLeadMs, endMs };
}

/** The script with each beat long enough for its line (stretch.ts). */
export function roomForLines(script: ActionScript, voiced: Voiced, presentation: Presentation): ActionScript {
  const { openingLeadMs, endMs } = framing(presentation);
  // Beyond the placement's own lead and gap, half a second either way for a recording that runs a little off plan.
  const slackMs = 500;
  return stretchForNarration(
    script,
    voiced.lines.map((line) => ({ stepLabel: line.stepLabel, durationMs: line.durationMs })),
    { leadMs: (i) => (i === 0 && voiced.lines[0]?.stepLabel === null ? openingLeadMs : 150) + slackMs, tailMs: LINE_GAP_MS + slackMs, endMs },
  );
}

/**
 * The lines placed by the recording's own shots, and the story as the version stores it: its captions the spoken
 * lines (shown while they are said), and the narration. Before the composition, which burns those captions in.
 */
export function placeNarration(voiced: Voiced, story: TimedStory, presentation: Presentation, durationMs: number): TimedStory {
  const placed = placeLines(voiced.lines, story, { durationMs, ...framing(presentation) });
  const narration: TimedNarration = { engine: voiced.engine, voice: voiced.voice, speed: voiced.speed, ...placed };
  return { ...story, captions: story.captionsOff ? story.captions : narratedCaptions(placed.lines, story), narration };
}

/**
 * The composed video (`videoFile`) remade with the voice: the placed lines laid on one track, normalised, muxed; and
 * each of its cuts (`cuts`, the same timeline in another frame) with the same track.
 */
export async function mixNarration(options: { voiced: Voiced; narration: TimedNarration; durationMs: number; videoFile: string; cuts?: string[]; format: 'mp4' | 'webm'; workDir: string }): Promise<void> {
  const samplesOf = new Map(options.voiced.lines.map((line) => [line.beatTitle, line.samples]));
  const placed = options.narration.lines.map((line) => ({ startMs: line.startMs, samples: samplesOf.get(line.beatTitle)! }));
  if (placed.length === 0) return;
  const trackFile = path.join(options.workDir, 'narration', 'track.wav');
  await fs.mkdir(path.dirname(trackFile), { recursive: true });
  await writeWav(trackFile, layTrack(placed, options.durationMs));
  for (const videoFile of [options.videoFile, ...(options.cuts ?? [])]) {
    await muxNarration({ videoFile, trackFile, format: options.format, durationMs: options.durationMs, outFile: videoFile });
  }
}
