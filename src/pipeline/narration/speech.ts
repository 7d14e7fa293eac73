import type { Config } from '../../platform/config.js';

/**
 * The text-to-speech engines narration speaks with (issue 59), chosen by SHOWREEL_SPEECH like the model planner by
 * SHOWREEL_PLANNER: any OpenAI-compatible `/audio/speech` endpoint (OpenAI's, or a local server), or ElevenLabs.
 * An engine turns one line into audio bytes ffmpeg reads (WAV or MP3); nothing is cached or downloaded besides.
 */
export interface SpeechEngine {
  /** what the demo's detail names: `openai` or `elevenlabs` */
  readonly name: string;
  /** the voice when the presentation names none */
  readonly defaultVoice: string;
  speak(text: string, options: { voice: string; speed: number }): Promise<Buffer>;
}

export type SpeechConfig = Pick<
  Config,
  'SHOWREEL_SPEECH' | 'SHOWREEL_SPEECH_BASE_URL' | 'SHOWREEL_SPEECH_API_KEY' | 'SHOWREEL_SPEECH_MODEL' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'ELEVENLABS_API_KEY' | 'ELEVENLABS_BASE_URL'
>;

/** A line waits at most this long for its audio: a hung engine fails the job (retried) instead of holding it. */
const SPEAK_TIMEOUT_MS = 60_000;

export class SpeechError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpeechError';
  }
}

/** The engine SHOWREEL_SPEECH names, or null when none is configured (`none`, the default). */
export function createSpeechEngine(config: SpeechConfig): SpeechEngine | null {
  if (config.SHOWREEL_SPEECH === 'openai') {
    return openAiSpeech({
      baseUrl: config.SHOWREEL_SPEECH_BASE_URL ?? config.OPENAI_BASE_URL,
      apiKey: config.SHOWREEL_SPEECH_API_KEY ?? config.OPENAI_API_KEY,
      model: config.SHOWREEL_SPEECH_MODEL ?? 'gpt-4o-mini-tts',
    });
  }
  if (config.SHOWREEL_SPEECH === 'elevenlabs' && config.ELEVENLABS_API_KEY) {
    return elevenLabsSpeech({ baseUrl: config.ELEVENLABS_BASE_URL, apiKey: config.ELEVENLABS_API_KEY, model: config.SHOWREEL_SPEECH_MODEL ?? 'eleven_multilingual_v2' });
  }
  return null;
}

/** Why a demo cannot be narrated on this server, or null when it can. */
export function narrationUnavailableReason(config: SpeechConfig): string | null {
  return createSpeechEngine(config)
    ? null
    : 'Narration needs a speech engine, and this server has none: set SHOWREEL_SPEECH to openai (an OpenAI-compatible /audio/speech endpoint) or elevenlabs.';
}

/** OpenAI's speech API, and anything that answers like it (`POST {base}/audio/speech`, WAV asked for). */
export function openAiSpeech(options: { baseUrl: string; apiKey?: string | undefined; model: string }): SpeechEngine {
  return {
    name: 'openai',
    defaultVoice: 'alloy',
    speak: (text, { voice, speed }) =>
      post(`${options.baseUrl.replace(/\/+$/, '')}/audio/speech`, options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}, {
        model: options.model,
        input: text,
        voice,
        speed,
        response_format: 'wav',
      }),
  };
}

/** ElevenLabs' text-to-speech API (`POST /v1/text-to-speech/{voice_id}`, MP3); the voice is a voice id. */
export function elevenLabsSpeech(options: { baseUrl: string; apiKey: string; model: string }): SpeechEngine {
  return {
    name: 'elevenlabs',
    // "George", one of the voices every ElevenLabs account has.
    defaultVoice: 'JBFqnCBsd6RMkjVDRZzb',
    speak: (text, { voice, speed }) =>
      post(
        `${options.baseUrl.replace(/\/+$/, '')}/v1/text-to-speech/${encodeURIComponent(voice)}?output_format=mp3_44100_128`,
        { 'xi-api-key': options.apiKey },
        { text, model_id: options.model, voice_settings: { speed } },
      ),
  };
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SPEAK_TIMEOUT_MS),
    });
  } catch (error) {
    throw new SpeechError(`The speech engine could not be reached (${new URL(url).host}): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => '')).slice(0, 200);
    throw new SpeechError(`The speech engine answered ${response.status}${detail ? `: ${detail}` : ''}`);
  }
  const audio = Buffer.from(await response.arrayBuffer());
  if (audio.length === 0) throw new SpeechError('The speech engine answered with no audio.');
  return audio;
}
