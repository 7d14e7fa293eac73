import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startSpeechServer, type SpeechServer } from '../helpers/speech-server.js';
import { streamCodecs, voicedStretches } from '../pipeline/narration/audio-measure.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');

/** Issue 59: `showreel demo --narrate`, with the speech engine the environment names (a local stand-in here). */
describe('showreel demo --narrate', () => {
  let sites: FixtureServer;
  let speech: SpeechServer;
  let work: string;

  before(async () => {
    [sites, speech] = await Promise.all([startFixtureServer(), startSpeechServer()]);
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-cli-narrated-'));
  });
  after(async () => {
    await sites.close();
    await speech.close();
    await fs.rm(work, { recursive: true, force: true });
  });

  const env = (extra: NodeJS.ProcessEnv = {}) => {
    const copy: NodeJS.ProcessEnv = { ...process.env, SHOWREEL_ALLOW_PRIVATE_URLS: '1', LOG_LEVEL: 'warn', SHOWREEL_DATA_DIR: work, ...extra };
    delete copy.DATABASE_URL;
    delete copy.TEST_DATABASE_URL;
    return copy;
  };
  const showreel = path.join(root, 'bin', 'showreel.mjs');

  it('narrates the video in the voice asked for and says each line in the summary', async () => {
    const out = path.join(work, 'narrated.mp4');
    const { stdout } = await run(
      process.execPath,
      [showreel, 'demo', sites.url('saas'), 'Show our pricing plans', '--out', out, '--resolution', '720p', '--duration', '5s', '--narrate', '--voice', 'onyx', '--speed', '0.9'],
      { env: env({ SHOWREEL_SPEECH: 'openai', SHOWREEL_SPEECH_BASE_URL: speech.url }), timeout: 240_000 },
    );
    const summary = JSON.parse(stdout.trim());
    assert.equal(summary.narration.voice, 'onyx');
    assert.ok(summary.narration.lines.length >= 1);
    assert.ok(speech.requests.every((request) => request.voice === 'onyx' && request.speed === 0.9));
    assert.deepEqual(await streamCodecs(out), ['h264', 'aac']);
    assert.equal((await voicedStretches(out)).length, summary.narration.lines.length);
  });

  it('says what is missing without a speech engine, and that --voice needs --narrate', async () => {
    const none = await run(process.execPath, [showreel, 'demo', sites.url('saas'), 'Tour', '--narrate'], { env: env() }).catch((error: { code: number; stderr: string }) => error);
    assert.equal((none as { code: number }).code, 2);
    assert.match((none as { stderr: string }).stderr, /--narrate needs a speech engine: set SHOWREEL_SPEECH/);
    const alone = await run(process.execPath, [showreel, 'demo', sites.url('saas'), 'Tour', '--voice', 'onyx'], { env: env() }).catch((error: { code: number; stderr: string }) => error);
    assert.match((alone as { stderr: string }).stderr, /--voice and --speed go with --narrate/);
  });
});
