import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { decodeLine, pcmDurationMs } from '../../../src/pipeline/narration/audio.js';
import { createSpeechEngine, SpeechError } from '../../../src/pipeline/narration/speech.js';
import { loadConfig } from '../../../src/platform/config.js';
import { speechWav } from '../../helpers/speech-server.js';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The two speech engines as a server sees them: the path, the key, the body; and what their answers become. */
describe('speech engines', () => {
  let server: http.Server;
  let base: string;
  let work: string;
  const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: any }> = [];
  let answer: { status: number; body: Buffer } = { status: 200, body: speechWav(1000) };

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(answer.status).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-speech-'));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await fs.rm(work, { recursive: true, force: true });
  });

  it('has none unless SHOWREEL_SPEECH names one', () => {
    assert.equal(createSpeechEngine(loadConfig({})), null);
    assert.throws(() => loadConfig({ SHOWREEL_SPEECH: 'elevenlabs' }), /ELEVENLABS_API_KEY: is required when SHOWREEL_SPEECH=elevenlabs/);
  });

  it('asks an OpenAI-compatible endpoint for WAV at /audio/speech, with the speech key, else the planner’s', async () => {
    const engine = createSpeechEngine(loadConfig({ SHOWREEL_SPEECH: 'openai', SHOWREEL_SPEECH_BASE_URL: `${base}/v1`, OPENAI_API_KEY: 'sk-planner' }))!;
    assert.equal(engine.name, 'openai');
    const audio = await engine.speak('Simple pricing.', { voice: engine.defaultVoice, speed: 1.2 });
    const request = seen.at(-1)!;
    assert.equal(request.url, '/v1/audio/speech');
    assert.equal(request.headers.authorization, 'Bearer sk-planner');
    assert.deepEqual(request.body, { model: 'gpt-4o-mini-tts', input: 'Simple pricing.', voice: 'alloy', speed: 1.2, response_format: 'wav' });
    // The answer read as one line of speech: its silences at either end trimmed, the tone's second left.
    const samples = await decodeLine(audio, path.join(work, 'line.audio'));
    assert.ok(Math.abs(pcmDurationMs(samples) - 1000) < 30, `${pcmDurationMs(samples)} ms of words`);
  });

  it('asks ElevenLabs for MP3 of the voice id, with its key and speed', async () => {
    const engine = createSpeechEngine(loadConfig({ SHOWREEL_SPEECH: 'elevenlabs', ELEVENLABS_API_KEY: 'xi-test', ELEVENLABS_BASE_URL: base, SHOWREEL_SPEECH_MODEL: 'eleven_flash_v2_5' }))!;
    assert.equal(engine.name, 'elevenlabs');
    await engine.speak('Start free.', { voice: 'voice/1', speed: 0.9 });
    const request = seen.at(-1)!;
    assert.equal(request.url, '/v1/text-to-speech/voice%2F1?output_format=mp3_44100_128');
    assert.equal(request.headers['xi-api-key'], 'xi-test');
    assert.deepEqual(request.body, { text: 'Start free.', model_id: 'eleven_flash_v2_5', voice_settings: { speed: 0.9 } });
  });

  it('says what the engine answered when it refuses, and when it cannot be reached', async () => {
    const engine = createSpeechEngine(loadConfig({ SHOWREEL_SPEECH: 'openai', SHOWREEL_SPEECH_BASE_URL: base }))!;
    answer = { status: 400, body: Buffer.from('{"error":{"message":"Unknown voice"}}') };
    await assert.rejects(engine.speak('Hi.', { voice: 'nobody', speed: 1 }), (error: Error) => error instanceof SpeechError && /answered 400: .*Unknown voice/.test(error.message));
    answer = { status: 200, body: speechWav(1000) };
    const gone = createSpeechEngine(loadConfig({ SHOWREEL_SPEECH: 'openai', SHOWREEL_SPEECH_BASE_URL: 'http://127.0.0.1:9' }))!;
    await assert.rejects(gone.speak('Hi.', { voice: 'alloy', speed: 1 }), /could not be reached \(127\.0\.0\.1:9\)/);
  });
});
