import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { probeVideo } from '../../src/pipeline/encode/probe.js';
import { isAnimatedGif, sniffMedia } from '../../src/platform/media-signatures.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');

/** `showreel demo`: the quickest way to try the product — no server, no database. */
describe('showreel demo <url> "<prompt>"', () => {
  let sites: FixtureServer;
  let work: string;

  before(async () => {
    sites = await startFixtureServer();
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-cli-demo-'));
  });
  after(async () => {
    await sites.close();
    await fs.rm(work, { recursive: true, force: true });
  });

  const env = () => {
    const copy: NodeJS.ProcessEnv = { ...process.env, SHOWREEL_ALLOW_PRIVATE_URLS: '1', LOG_LEVEL: 'warn', SHOWREEL_DATA_DIR: work };
    delete copy.DATABASE_URL;
    delete copy.TEST_DATABASE_URL;
    return copy;
  };

  it('writes a video, a GIF and a thumbnail and prints a JSON summary, with progress on stderr', async () => {
    const out = path.join(work, 'signup.mp4');
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(root, 'bin', 'showreel.mjs'), 'demo', sites.url('signup-app'), 'Show how to sign up', '--out', out, '--resolution', '720p', '--duration', '5s'],
      { env: env(), timeout: 180_000 },
    );
    const summary = JSON.parse(stdout.trim());
    assert.equal(summary.video, out);
    assert.equal(summary.template, 'conversion-flow');
    assert.deepEqual(summary.warnings, [], 'the page has the sign-up the prompt asks for');
    assert.match(stderr, /analyzing[\s\S]*planning[\s\S]*recording[\s\S]*ready/);
    const info = await probeVideo(out);
    assert.equal(info.codec, 'h264');
    assert.equal(info.height, 720);
    assert.ok(Math.abs((info.durationMs ?? 0) - 5000) <= 500);
    assert.equal(sniffMedia(await fs.readFile(summary.thumbnail)), 'png');
    assert.ok(isAnimatedGif(await fs.readFile(summary.gif)));
  });

  it('--aspect 9:16,1:1 writes the vertical cut to --out and the square one beside it, from one recording', async () => {
    const out = path.join(work, 'vertical.mp4');
    const { stdout } = await run(
      process.execPath,
      [path.join(root, 'bin', 'showreel.mjs'), 'demo', sites.url('saas'), 'Show the pricing plans', '--out', out, '--resolution', '720p', '--duration', '5s', '--aspect', '9:16,1:1'],
      { env: env(), timeout: 180_000 },
    );
    const summary = JSON.parse(stdout.trim());
    assert.equal(summary.aspect, '9:16');
    const vertical = await probeVideo(out);
    assert.deepEqual([vertical.width, vertical.height], [720, 1280]);
    assert.deepEqual(summary.variants.map((v: { aspect: string; video: string }) => [v.aspect, path.basename(v.video)]), [['1:1', 'vertical-1x1.mp4']]);
    const square = await probeVideo(summary.variants[0].video);
    assert.deepEqual([square.width, square.height], [720, 720]);
    assert.ok(Math.abs((square.durationMs ?? 0) - (vertical.durationMs ?? 0)) <= 40, 'both cuts of the same recording');
    assert.ok(isAnimatedGif(await fs.readFile(summary.variants[0].gif)));

    const wrong = await run(process.execPath, [path.join(root, 'bin', 'showreel.mjs'), 'demo', sites.url('saas'), 'x', '--aspect', '4:3'], { env: env() })
      .catch((error: { code: number; stderr: string }) => error);
    assert.equal((wrong as { code: number }).code, 2);
    assert.match((wrong as { stderr: string }).stderr, /aspect/);
  });

  it('refuses a private address unless allowed, and explains its usage', async () => {
    const refused = await run(process.execPath, [path.join(root, 'bin', 'showreel.mjs'), 'demo', 'http://127.0.0.1:1/', 'x'], {
      env: { ...env(), SHOWREEL_ALLOW_PRIVATE_URLS: '0' },
    }).catch((error: { code: number; stderr: string }) => error);
    assert.equal((refused as { code: number }).code, 2);
    assert.match((refused as { stderr: string }).stderr, /loopback|private/);
    const usage = await run(process.execPath, [path.join(root, 'bin', 'showreel.mjs'), 'demo'], { env: env() }).catch((error: { code: number; stderr: string }) => error);
    assert.equal((usage as { code: number }).code, 2);
    assert.match((usage as { stderr: string }).stderr, /Usage: showreel demo/);
  });
});
