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

  it('draws every frame of a stretch sent from memory alike whether or not the frames that hold a picture are sent', async () => {
    // A capture whose picture holds for stretches, as frame capture hands it on (a held frame is the same buffer): at
    // the start (under the window's rise-in), over the click's zoom, across a part's edge and to the end. From memory,
    // only the new pictures are sent; from the file, every frame is decoded. The two must give the same frames.
    const source = path.join(dir, 'moving.mkv');
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30:duration=4', '-c:v', 'mjpeg', '-q:v', '3', '-f', 'matroska', source]);
    const { stdout } = await run(ffmpeg, ['-v', 'error', '-i', source, '-c:v', 'copy', '-f', 'mjpeg', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 28 });
    const pictures = splitJpegs(stdout);
    assert.equal(pictures.length, 120);
    const heldRuns = [[1, 30], [44, 52], [58, 63], [96, 120]];
    const capture = pictures.map((picture, i) => (heldRuns.some(([a, b]) => i >= a! && i < b!) ? null : picture));
    for (let i = 0; i < capture.length; i++) capture[i] ??= capture[i - 1]!;
    const jpegs = path.join(dir, 'held.mjpeg');
    await fs.writeFile(jpegs, Buffer.concat(capture as Buffer[]));
    const clean = path.join(dir, 'held.mkv');
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', '30', '-i', jpegs, '-c:v', 'copy', '-f', 'matroska', clean]);

    const style = resolveStyle(null);
    const layout = computeLayout({ width: 1280, height: 720 }, { width: 1280, height: 720 }, style);
    const page = await browser.newPage();
    await fs.mkdir(path.join(dir, 'held-layers'));
    const layers = await renderLayers({ page, layout, style, dir: path.join(dir, 'held-layers'), animated: windowAnimated(layout, style, 4000), backgroundImage: null });
    const plan = planCompose({ layout, timeline: clickTimeline(4000), style, durationMs: 4000, layers, cuts: [] });
    const render = async (from: number, to: number, kind: 'memory' | 'file') => {
      const outFile = path.join(dir, `held-${kind}-${from}-${to}.mp4`);
      const work = path.join(dir, `held-${kind}-${from}`);
      await renderRange({
        plan, style, layers, capture: { width: 1280, height: 720, pixelFormat: 'yuvj420p' }, from, to,
        source: kind === 'file' ? { file: clean } : { frame: (i) => capture[i]! }, format: 'mp4', outFile, dir: work, timeoutMs: 120_000,
      });
      const { stdout: md5 } = await run(ffmpeg, ['-v', 'error', '-i', outFile, '-f', 'framemd5', 'pipe:1']);
      return { frames: md5.split('\n').filter((line) => line && !line.startsWith('#')), graph: await fs.readFile(path.join(work, 'graph.txt'), 'utf8') };
    };
    for (const [from, to] of [[0, 60], [37, 120]] as const) {
      const fromMemory = await render(from, to, 'memory');
      const fromFile = await render(from, to, 'file');
      assert.equal(fromMemory.frames.length, to - from, `frames ${from}-${to}`);
      assert.deepEqual(fromMemory.frames, fromFile.frames, `frames ${from}-${to}: from memory, as from the file`);
      assert.match(fromMemory.graph, /setpts='N\+/, 'the held frames were left out of what was sent');
    }
  });
});

/** The pictures of an MJPEG stream, each from its start of image to its end of image. */
function splitJpegs(stream: Buffer): Buffer[] {
  const pictures: Buffer[] = [];
  let start = 0;
  for (let i = 2; i < stream.length - 1; i++) {
    if (stream[i] === 0xff && stream[i + 1] === 0xd8 && stream[i - 2] === 0xff && stream[i - 1] === 0xd9) {
      pictures.push(stream.subarray(start, i));
      start = i;
    }
  }
  pictures.push(stream.subarray(start));
  return pictures;
}
