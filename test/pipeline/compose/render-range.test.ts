import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { windowAnimated } from '../../../src/pipeline/compose/compose.js';
import { decodeSmallFrames } from '../../../src/pipeline/compose/cuts.js';
import { planCompose } from '../../../src/pipeline/compose/compose-plan.js';
import { renderLayers } from '../../../src/pipeline/compose/layers.js';
import { computeLayout } from '../../../src/pipeline/compose/layout.js';
import { renderRange, runningCompositors } from '../../../src/pipeline/compose/render-range.js';
import { resolveStyle } from '../../../src/pipeline/compose/style.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { SMOOTHNESS } from '../../../src/pipeline/encode/smoothness.js';
import { clickTimeline } from './compose-fixture.js';

const run = promisify(execFile);

// A stretch of the video composed on its own (a part composed after the recording) must hold exactly its frames,
// each the one a single pass draws there: the parts are joined end to end, so a frame missing at a part's end
// shows as the next part's first frame one frame early (a camera move jumps).

describe('a stretch of the video composed from the capture’s file', () => {
  let dir: string;
  let browser: Browser;
  let ffmpeg: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-range-'));
    ({ ffmpeg } = await ffmpegBinaries());
    browser = await launchBrowser({ allowPrivate: true });
  });
  after(async () => {
    await browser?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Every frame of a video, 160×90 grey (as the cut detector reads a capture). */
  async function frames(file: string): Promise<Buffer[]> {
    const all = await decodeSmallFrames(file, 'h264');
    const size = SMOOTHNESS.width * SMOOTHNESS.height;
    return Array.from({ length: all.length / size }, (_, i) => all.subarray(i * size, (i + 1) * size));
  }
  const difference = (a: Buffer, b: Buffer) => a.reduce((sum, value, i) => sum + Math.abs(value - b[i]!), 0) / a.length;

  it('holds every frame of a stretch from the middle, each as the whole video draws it', async () => {
    // A capture as the recorder writes it (MJPEG in Matroska, times in whole ms), every frame different; the camera
    // zooms on a click meanwhile, so a frame drawn one frame early or late shows.
    const clean = path.join(dir, 'clean.mkv');
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30:duration=4', '-c:v', 'mjpeg', '-q:v', '3', '-f', 'matroska', clean]);
    const style = resolveStyle(null);
    const layout = computeLayout({ width: 1280, height: 720 }, { width: 1280, height: 720 }, style);
    const timeline = clickTimeline(4000);
    const page = await browser.newPage();
    await fs.mkdir(path.join(dir, 'layers'));
    const layers = await renderLayers({ page, layout, style, dir: path.join(dir, 'layers'), animated: windowAnimated(layout, style, 4000), backgroundImage: null });
    const plan = planCompose({ layout, timeline, style, durationMs: 4000, layers, cuts: [] });
    const render = async (from: number, to: number) => {
      const outFile = path.join(dir, `range-${from}-${to}.mp4`);
      // Each compositor is counted while it runs (what is left after a recording is cut in two only when none of
      // another job's is running).
      let counted = 0;
      await renderRange({
        plan, style, layers, capture: { width: 1280, height: 720, pixelFormat: 'yuvj420p' }, from, to, source: { file: clean }, format: 'mp4',
        outFile, dir: path.join(dir, `range-${from}`), timeoutMs: 120_000, onSpawn: () => void (counted = runningCompositors()),
      });
      assert.deepEqual([counted, runningCompositors()], [1, 0]);
      return frames(outFile);
    };
    const whole = await render(0, 120);
    assert.equal(whole.length, 120);
    for (const [from, to] of [[37, 80], [80, 120]] as const) {
      const part = await render(from, to);
      assert.equal(part.length, to - from, `frames ${from}-${to}`);
      part.forEach((frame, i) => {
        const d = difference(frame, whole[from + i]!);
        assert.ok(d < 1.5, `frame ${from + i} differs from the whole video's by ${d.toFixed(2)} grey levels`);
      });
    }
  });
});
