import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCamera, FPS } from '../../../src/pipeline/compose/camera.js';
import { isWholeCrop } from '../../../src/pipeline/compose/zoom-path.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { runTool } from '../../../src/pipeline/encode/run-tool.js';
import { clickTimeline, type ComposeFixture, startComposeFixture } from './compose-fixture.js';

// A zoom as a viewer sees it, frame by frame: the right edge of the fixture's page (blue, on a yellow background, far
// from the point the zoom closes in on, so it travels with every step) watched while the camera closes in on the
// click. The zoom's gentle first and last steps move the picture by a fraction of a pixel, so they are drawn with a
// sub-pixel crop: the edge must be where the camera says on every frame, to a fraction of a pixel (a frame drawn for
// its neighbour, or a crop half a pixel off the plain crop's, would show here), and move on every frame.
const calm = {
  windowAnimation: { intro: false, outro: false },
  fade: { inMs: 0, outMs: 0 },
  mockup: 'none',
  padding: 0.07,
  background: '#ffcc00',
  cursor: { style: 'none' },
  clickEffect: { style: 'none' },
} as const;

describe('a zoom drawn between whole pixels', () => {
  let fixture: ComposeFixture;
  before(async () => {
    fixture = await startComposeFixture();
  });
  after(() => fixture.close());

  it('puts the page where the camera says on every frame of the zoom, and moves it a little on each', async () => {
    const rendered = await fixture.render({ ...calm, zoom: { enabled: true, intensity: 1.6, transitionMs: 700 } });
    const timeline = clickTimeline();
    const camera = createCamera(rendered.layout, timeline, rendered.style, timeline.durationMs);
    const moving = Array.from({ length: camera.frames }, (_, i) => i).filter((i) => !isWholeCrop(camera.at(i).crop));
    assert.ok(moving.length >= 8, `${moving.length} frames drawn between whole pixels`);
    // From the still frame before the first to the one after the last: the plain crop's frames frame the others.
    const [first, last] = [moving[0]! - 1, moving.at(-1)! + 1];
    const { content } = rendered.layout;
    // The page's right edge, half way down the page (clear of the square), where the camera puts it on each frame.
    const edge = { x: content.x + content.width, y: content.y + content.height * 0.6 };
    const expected = Array.from({ length: last - first + 1 }, (_, k) => camera.project(first + k, edge));
    // Only the frames where the edge is on screen.
    const shown = expected.map((p, k) => ({ k, p })).filter(({ p }) => p.x < 1280 - 20);
    assert.ok(shown.length >= 8, `the page's edge on screen in ${shown.length} frames`);
    const band = { x: 0, y: Math.round(expected[0]!.y) - 10, width: 1280, height: 20 };
    const frames = await grey(rendered.file, first, last, band);
    const offsets: number[] = [];
    const positions: number[] = [];
    for (const { k, p } of shown) {
      // Where blue turns yellow, to a fraction of a pixel: columns from 30 px inside the page to 20 px past it hold
      // that many pixels' worth of blue (the rows of the band are the page's at every zoom of this move). The two
      // colours' levels are read off the frame itself, well inside each.
      const at = (row: number, x: number) => frames[k]![row * band.width + x]!;
      const [from, to] = [Math.round(p.x) - 30, Math.round(p.x) + 20];
      let [blue, yellow] = [0, 0];
      for (let row = 0; row < band.height; row++) {
        for (let x = from; x < from + 10; x++) blue += at(row, x) / (10 * band.height);
        for (let x = to - 8; x < to; x++) yellow += at(row, x) / (8 * band.height);
      }
      let blueWorth = 0;
      for (let row = 0; row < band.height; row++) for (let x = from; x < to; x++) blueWorth += (at(row, x) - yellow) / (blue - yellow);
      const measured = from + blueWorth / band.height;
      positions.push(measured);
      offsets.push(measured - p.x);
    }
    // Drawn as the camera says: the same offset on every frame, the plain crop's frames and the sub-pixel crop's
    // alike, within the encoder's rounding (x264 renders a still edge's first shift of a third of a pixel as about
    // half of it, and lags as much behind the last). A frame drawn for its neighbour would be off by a whole step.
    const middle = [...offsets].sort((a, b) => a - b)[Math.floor(offsets.length / 2)]!;
    const report = shown.map(({ k, p }, j) => `frame ${first + k}: camera ${p.x.toFixed(2)}, seen ${positions[j]!.toFixed(2)}`).join('; ');
    assert.ok(offsets.every((o) => Math.abs(o - middle) < 0.3), `the page's edge against the camera: ${report}`);
    // Each frame of the move shows the page somewhere new: none repeats the one before while the camera moves.
    // (Frame to frame only: the way in and the way out are both in `shown`, with the held zoom between them left out.)
    for (let j = 1; j < positions.length; j++) {
      if (shown[j]!.k !== shown[j - 1]!.k + 1) continue;
      assert.ok(Math.abs(positions[j]! - positions[j - 1]!) > 0.08, `frame by frame: ${report}`);
    }
  });
});

interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Frames `from` … `to` (by number) of a video, as luma planes of `region` (in frame pixels). */
async function grey(file: string, from: number, to: number, region: Region): Promise<Buffer[]> {
  const { ffmpeg } = await ffmpegBinaries();
  const { x, y, width, height } = region;
  const result = await runTool(
    ffmpeg,
    ['-v', 'error', '-i', file, '-vf', `select='between(n,${from},${to})',crop=${width}:${height}:${x}:${y}`, '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    60_000,
  );
  assert.equal(result.exitCode, 0, result.stderr);
  const size = width * height;
  const count = to - from + 1;
  assert.equal(result.stdout.length, size * count, `${count} frames decoded at ${FPS} fps`);
  return Array.from({ length: count }, (_, k) => result.stdout.subarray(k * size, (k + 1) * size));
}
