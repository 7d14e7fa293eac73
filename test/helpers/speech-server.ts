import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { wavBytes } from '../../src/pipeline/narration/audio.js';

/**
 * A stand-in for an OpenAI-compatible speech endpoint (issue 59), for tests: `POST /audio/speech` answers a WAV of
 * known shape: SILENCE_MS of silence, then a tone as long as the words take to say (MS_PER_CHAR a character), then
 * SILENCE_MS of silence again. Quiet on purpose (-30 dBFS), so a test can tell the service brought it to -16 LUFS.
 * Every request's JSON body is kept, in order. The voice `nobody` is refused (400), as an unknown voice is.
 */
export interface SpeechServer {
  /** the base URL to give as SHOWREEL_SPEECH_BASE_URL */
  url: string;
  requests: Array<{ model: string; input: string; voice: string; speed?: number; response_format?: string; authorization?: string }>;
  close(): Promise<void>;
}

export const SILENCE_MS = 200;
export const MS_PER_CHAR = 45;
const RATE = 24_000;

export function toneMs(text: string): number {
  return text.length * MS_PER_CHAR;
}

export async function startSpeechServer(): Promise<SpeechServer> {
  const requests: SpeechServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/audio/speech') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SpeechServer['requests'][number];
      requests.push({ ...body, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      // As OpenAI answers a voice it does not have.
      if (body.voice === 'nobody') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Unknown voice: ${body.voice}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'audio/wav' }).end(speechWav(toneMs(body.input)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Silence, a 330 Hz tone of `toneMs` at -30 dBFS, silence: 16-bit mono WAV at 24 kHz (what OpenAI sends). */
export function speechWav(toneMs: number): Buffer {
  const silence = Math.round((SILENCE_MS * RATE) / 1000);
  const tone = Math.round((toneMs * RATE) / 1000);
  const samples = new Int16Array(silence * 2 + tone);
  const amplitude = 32767 * 10 ** (-30 / 20);
  for (let i = 0; i < tone; i++) samples[silence + i] = Math.round(amplitude * Math.sin((2 * Math.PI * 330 * i) / RATE));
  return wavBytes(samples, RATE);
}
