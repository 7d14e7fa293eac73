import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { closeFrameControlledPage, openFrameControlledPage } from '../../../src/pipeline/browser/frame-control.js';
import { viewportFor } from '../../../src/pipeline/browser/viewports.js';
import { composeAhead } from '../../../src/pipeline/compose/compose-ahead.js';
import { captureSizeFor, type ComposeOptions, composeVideo } from '../../../src/pipeline/compose/compose.js';
import { decodeSmallFrames } from '../../../src/pipeline/compose/cuts.js';
import { drawLayersAhead } from '../../../src/pipeline/compose/layers-ahead.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { measureSmoothness } from '../../../src/pipeline/encode/smoothness.js';
import { recordScript } from '../../../src/pipeline/record/recorder.js';
import type { InteractionTimeline } from '../../../src/pipeline/types.js';
import { saasDemoScript } from './saas-demo-script.js';
import { captureRig } from '../../helpers/recording-rig.js';

// Composing while the page is still being recorded (compose-ahead.ts): the video's first parts are composed from the
// frames as they are captured, the rest after, and the parts joined. A viewer must not be able to tell: the joined
// video is compared, frame by frame, with the one a single pass composes from the same capture.


/** The largest mean difference (grey levels, 160×90) between two videos' frames, and where. */
async function largestDifference(a: string, b: string): Promise<{ frames: [number, number]; worst: number; at: number }> {
  const [x, y] = await Promise.all([decodeSmallFrames(a, 'h264'), decodeSmallFrames(b, 'h264')]);
  const size = 160 * 90;
  const frames: [number, number] = [x.length / size, y.length / size];
  let worst = 0;
  let at = -1;
  for (let f = 0; f < Math.min(...frames); f++) {
    let sum = 0;
    for (let i = f * size; i < (f + 1) * size; i++) sum += Math.abs(x[i]! - y[i]!);
    if (sum / size > worst) {
      worst = sum / size;
      at = f;
    }
  }
  return { frames, worst, at };
}

describe('composing while the page is recorded', () => {
  const rig = captureRig('showreel-ahead-', 'saas');

  /** Records the demo with a composer watching, as produceRecording does. */
  async function record(name: string, page: Page) {
    const work = path.join(rig.work, name);
    await fs.mkdir(work, { recursive: true });
    const viewport = viewportFor('desktop', '720p');
    await page.setViewport({ width: viewport.width, height: viewport.height, deviceScaleFactor: 0 });
    await page.goto(rig.url, { waitUntil: 'load' });
    await page.evaluate(() => document.querySelector<HTMLElement>('.cookie-banner__accept')?.click());
    await new Promise((resolve) => setTimeout(resolve, 600));
    const clean = path.join(work, 'clean.mkv');
    const frame = (await page.evaluate('({ width: innerWidth * devicePixelRatio, height: innerHeight * devicePixelRatio })')) as { width: number; height: number };
    const layersAhead = drawLayersAhead({ browser: rig.browser, presentation: null, resolution: '720p', capture: frame, backgroundImage: null, dir: path.join(work, 'layers') });
    // A GIF of the first 3 s: parts after it have no GIF frames of their own (the GIF's feed must go past them).
    const ahead = composeAhead({
      presentation: null, format: 'mp4', resolution: '720p', workDir: work, layersAhead, smallFrames: `${clean}.small.gray`, gifWidth: 640, gifMaxSeconds: 3,
    });
    const recorded = await recordScript(page, saasDemoScript(rig.url), {
      format: 'capture', resolution: '720p', outFile: clean, captureSize: captureSizeFor(null, '720p', frame), live: ahead.watcher,
    });
    assert.equal(recorded.captureMode, 'frames');
    const options = (file: string, timeline: InteractionTimeline): ComposeOptions => ({
      cleanFile: clean, smallFrames: recorded.smallFrames, timeline, presentation: null, format: 'mp4', resolution: '720p', page, layersAhead,
      outFile: path.join(work, `${file}.mp4`), workDir: path.join(work, file), gif: { file: path.join(work, `${file}.gif`), width: 640, maxSeconds: 3 },
      thumbnail: { file: path.join(work, `${file}.png`), atMs: 3000 },
    });
    return { work, ahead, recorded, options };
  }

  it('composes the first parts during the recording, and the joined video is the one a single pass makes', async () => {
    const page = await openFrameControlledPage(rig.browser, null);
    try {
      const { work, ahead, recorded, options } = await record('kept', page);
      const joined = await ahead.finish(options('joined', recorded.timeline));
      assert.equal(joined.ahead.fallback, null);
      assert.ok(joined.ahead.framesAhead >= 45, `${joined.ahead.framesAhead} frames composed during the recording`);
      assert.equal(joined.ahead.kept, joined.ahead.parts, 'every part drew what the whole recording asks');
      assert.ok(!existsSync(path.join(work, 'compose-ahead')), 'the parts are removed once joined');
      // What was left is composed after, by two compositors side by side when it is long enough to cut in two
      // (join-parts.test.ts says where): together they hold every frame left, once.
      const { rest } = joined.ahead;
      assert.ok(rest.length === 1 || (rest.length === 2 && rest.every((s) => s.to - s.from >= 45)), JSON.stringify(joined.ahead));
      assert.equal(rest[0]!.from, joined.ahead.framesAhead);
      assert.equal(rest.at(-1)!.to, 192);
      if (rest.length === 2) assert.equal(rest[0]!.to, rest[1]!.from);
      // The frames after the last part are still in memory: what is left is sent from there, not read from the file.
      assert.ok(rest.every((s) => s.fromMemory), JSON.stringify(rest));
      const single = await composeVideo(options('single', recorded.timeline));

      const [a, b] = await Promise.all([probeVideo(joined.outFile), probeVideo(single.outFile)]);
      assert.deepEqual([a.codec, a.width, a.height, a.durationMs], [b.codec, b.width, b.height, b.durationMs]);
      const difference = await largestDifference(joined.outFile, single.outFile);
      assert.deepEqual(difference.frames, [192, 192], 'every frame, once');
      assert.ok(difference.worst < 1.5, `frame ${difference.at} differs by ${difference.worst.toFixed(2)} grey levels`);
      // As smooth as the single pass: the joins add no repeated frame.
      const [smoothJoined, smoothSingle] = await Promise.all([measureSmoothness(joined.outFile), measureSmoothness(single.outFile)]);
      assert.ok(smoothJoined.stalls <= smoothSingle.stalls, `${smoothJoined.stalls} stalls joined, ${smoothSingle.stalls} in one pass`);
      // The GIF preview and the thumbnail as a single pass makes them.
      assert.equal(joined.gif?.frames, 36);
      assert.equal(joined.gif?.frames, single.gif?.frames);
      assert.deepEqual([joined.gif?.width, joined.gif?.height], [single.gif?.width, single.gif?.height]);
      assert.deepEqual(
        [joined.thumbnail?.width, joined.thumbnail?.height, joined.thumbnail?.atMs],
        [single.thumbnail?.width, single.thumbnail?.height, single.thumbnail?.atMs],
      );
    } finally {
      await closeFrameControlledPage(page);
    }
  });

  it('composes again, from the capture, a part the whole recording draws differently', async () => {
    const page = await openFrameControlledPage(rig.browser, null);
    try {
      const { ahead, recorded, options } = await record('redone', page);
      // A click the parts never saw, in the first part's time: its effect must be in the video all the same.
      const timeline = { ...recorded.timeline, clicks: [{ t: 500, x: 400, y: 300 }, ...recorded.timeline.clicks] };
      const joined = await ahead.finish(options('joined', timeline));
      assert.equal(joined.ahead.fallback, null);
      assert.ok(joined.ahead.parts >= 1 && joined.ahead.kept < joined.ahead.parts, JSON.stringify(joined.ahead));
      // The first part's frames were let go once the next part began: composed again, it reads the capture's file.
      if (joined.ahead.parts > 1) assert.equal(joined.ahead.rest[0]!.fromMemory, false, JSON.stringify(joined.ahead.rest));
      const single = await composeVideo(options('single', timeline));
      const difference = await largestDifference(joined.outFile, single.outFile);
      assert.deepEqual(difference.frames, [192, 192]);
      assert.ok(difference.worst < 1.5, `frame ${difference.at} differs by ${difference.worst.toFixed(2)} grey levels`);
    } finally {
      await closeFrameControlledPage(page);
    }
  });

  it('leaves nothing behind when the take is not used', async () => {
    const page = await openFrameControlledPage(rig.browser, null);
    try {
      const { work, ahead } = await record('dropped', page);
      await ahead.abort();
      assert.ok(!existsSync(path.join(work, 'compose-ahead')));
    } finally {
      await closeFrameControlledPage(page);
    }
  });
});
