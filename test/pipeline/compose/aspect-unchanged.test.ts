import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { captureSizeFor, composeVideo } from '../../../src/pipeline/compose/compose.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { readableFrames } from '../../helpers/ocr-frames.js';
import { clickTimeline } from './compose-fixture.js';

const run = promisify(execFile);

/**
 * Issue 59: asking for aspect variants leaves the 16:9 video as it is, byte for byte (its GIF and thumbnail too), and
 * a variant of a presentation whose window does not animate is still made (from layers drawn for it).
 */
const SIZE = { width: 1280, height: 720 };
const CAPTURE = captureSizeFor(null, '720p', SIZE);

describe('the 16:9 video beside its aspect variants', () => {
  let dir: string;
  let browser: Browser;
  let capture: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-aspect-same-'));
    const { ffmpeg } = await ffmpegBinaries();
    capture = path.join(dir, 'capture.mkv');
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=${CAPTURE.width}x${CAPTURE.height}:r=30:d=4`, '-c:v', 'mjpeg', '-q:v', '2', '-f', 'matroska', capture]);
    browser = await launchBrowser({ allowPrivate: true });
  });
  after(async () => {
    await browser?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const compose = async (name: string, presentation: Parameters<typeof composeVideo>[0]['presentation'], variants: Parameters<typeof composeVideo>[0]['variants']) => {
    const work = path.join(dir, name);
    await fs.mkdir(work, { recursive: true });
    return composeVideo({
      cleanFile: capture, timeline: clickTimeline(4000, SIZE), presentation, format: 'mp4', resolution: '720p', outFile: path.join(work, 'demo.mp4'),
      page: await browser.newPage(), workDir: work,
      gif: { file: path.join(work, 'demo.gif'), width: 640 }, thumbnail: { file: path.join(work, 'demo.png') },
      ...(variants ? { variants } : {}),
    });
  };

  it('is the same file, GIF and thumbnail whether or not variants are asked for', async () => {
    const alone = await compose('alone', null, undefined);
    const beside = await compose('beside', { aspect: ['16:9', '9:16', '1:1'] }, [{ aspect: '9:16', outFile: path.join(dir, 'beside', 'demo-9x16.mp4') }]);
    assert.equal(await sha(beside.outFile), await sha(alone.outFile), 'the video');
    assert.equal(await sha(beside.gif!.file), await sha(alone.gif!.file), 'the GIF');
    assert.equal(await sha(beside.thumbnail!.file), await sha(alone.thumbnail!.file), 'the thumbnail');
    const variant = await probeVideo(beside.variants[0]!.outFile);
    assert.deepEqual([variant.width, variant.height], [720, 1280]);
  });

  it('makes a vertical cut of a phone\'s portrait capture: the window as tall as the frame allows', async () => {
    const { ffmpeg } = await ffmpegBinaries();
    const portrait = path.join(dir, 'portrait.mkv');
    const size = captureSizeFor(null, '720p', { width: 390, height: 844 });
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x1e3a8a:s=${size.width}x${size.height}:r=30:d=3`, '-c:v', 'mjpeg', '-q:v', '2', '-f', 'matroska', portrait]);
    const work = path.join(dir, 'portrait');
    await fs.mkdir(work, { recursive: true });
    const composed = await composeVideo({
      cleanFile: portrait, timeline: clickTimeline(3000, { width: 390, height: 844 }), presentation: { fade: { inMs: 0, outMs: 0 } }, format: 'mp4', resolution: '720p',
      outFile: path.join(work, 'demo.mp4'), page: await browser.newPage(), workDir: work, variants: [{ aspect: '9:16', outFile: path.join(work, 'demo-9x16.mp4') }],
    });
    const file = composed.variants[0]!.outFile;
    assert.deepEqual([(await probeVideo(file)).width, (await probeVideo(file)).height], [720, 1280]);
    // Mid-frame, at rest: the page (deep blue) fills most of the frame's height, background only at its ends.
    const { stdout } = await run(ffmpeg, ['-v', 'error', '-ss', '2.2', '-i', file, '-frames:v', '1', '-vf', 'scale=9:16', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer' });
    const column = Array.from({ length: 16 }, (_, y) => [...(stdout as unknown as Buffer).subarray((y * 9 + 4) * 3, (y * 9 + 4) * 3 + 3)]);
    const blue = column.filter(([r, g, b]) => b! > 100 && r! < 80 && g! < 100).length;
    assert.ok(blue >= 11, `the page is ${blue}/16 of the frame's height (${JSON.stringify(column)})`);
  });

  it('burns the captions into a vertical cut too, drawn for its frame', async () => {
    const work = path.join(dir, 'captioned');
    await fs.mkdir(work, { recursive: true });
    const composed = await composeVideo({
      cleanFile: capture, timeline: clickTimeline(4000, SIZE), presentation: null, format: 'mp4', resolution: '720p', outFile: path.join(work, 'demo.mp4'),
      page: await browser.newPage(), workDir: work, variants: [{ aspect: '9:16', outFile: path.join(work, 'demo-9x16.mp4') }],
      captions: { captions: [{ startMs: 2000, endMs: 3500, lines: ['Plans from nine dollars a month'], avoid: null }], position: 'bottom', style: 'pill', viewportHeight: SIZE.height },
    });
    const [read] = await readableFrames(composed.variants[0]!.outFile, ['Plans from nine dollars a month'], { fps: 2, scale: 2 });
    const seconds = read!.map((seen, i) => (seen ? i / 2 : null)).filter((s) => s !== null);
    assert.ok(seconds.includes(2.5) && seconds.includes(3), `read while it shows (at ${seconds.join(', ')} s)`);
    assert.ok(seconds.every((s) => s >= 2 && s <= 3.5), `and only then (at ${seconds.join(', ')} s)`);
  });

  it('makes a variant of a window that does not rise in (its layers drawn for the variant)', async () => {
    const still = await compose('still', { windowAnimation: { intro: false }, mockup: 'minimal' }, [{ aspect: '1:1', outFile: path.join(dir, 'still', 'demo-1x1.mp4') }]);
    const info = await probeVideo(still.variants[0]!.outFile);
    assert.deepEqual([info.width, info.height], [720, 720]);
  });
});

async function sha(file: string): Promise<string> {
  return createHash('sha256').update(await fs.readFile(file)).digest('hex');
}
