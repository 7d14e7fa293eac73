import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fadeFilters } from '../../../src/pipeline/compose/filter-graph.js';
import { resolveStyle } from '../../../src/pipeline/compose/style.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { runTool } from '../../../src/pipeline/encode/run-tool.js';
import { SMOOTHNESS, smoothnessOf } from '../../../src/pipeline/encode/smoothness.js';

// The end of a demo as a viewer sees it: the page has come to rest, then the picture fades to black. Measured as
// smoothness.py measures a video, the fade must not turn the last still frames into "stalls" (a repeated frame next
// to motion), on a bright page or a dimmer one.
const FPS = 30;
const SECONDS = 3;

/**
 * Grey frames (160x90) of a still, varied picture under the default fade out: testsrc2's colour bars and gradients,
 * their luma mapped by `luma` (an expression of `val`).
 */
async function fadedStill(luma: string): Promise<Buffer> {
  const { ffmpeg } = await ffmpegBinaries();
  // The fade in is left out: in a demo the window rises in behind it, so the picture is moving as it ends.
  const fades = fadeFilters({ ...resolveStyle(null).fade, inMs: 0 }, SECONDS).join(',');
  const source =
    `testsrc2=size=320x180:rate=${FPS},trim=end_frame=1,loop=loop=${SECONDS * FPS - 1}:size=1:start=0,setpts=N/(${FPS}*TB),` +
    `format=yuv420p,lutyuv=y=${luma}`;
  const { width, height } = SMOOTHNESS;
  const result = await runTool(
    ffmpeg,
    ['-hide_banner', '-v', 'error', '-nostdin', '-f', 'lavfi', '-i', `${source},${fades},scale=${width}:${height},format=gray`, '-f', 'rawvideo', '-'],
    60_000,
  );
  assert.equal(result.exitCode, 0, result.stderr);
  return result.stdout;
}

describe('the fades at the ends of a demo', () => {
  it('leaves no still frame beside motion as the picture fades out, on a bright page or a dimmer one', async () => {
    // (On flat pictures ffmpeg's integer fade can round a step of the ease to no change at all, two frames before a
    // bigger step: a stall by the metric's letter, with or without the ease. Not covered: docs/decisions.md.)
    for (const brightness of [1, 0.7, 0.45]) {
      const measured = smoothnessOf(await fadedStill(`16+(val-16)*${brightness}`), FPS);
      const fadeOutFrames = Math.round((resolveStyle(null).fade.outMs * FPS) / 1000);
      assert.equal(measured.frames, SECONDS * FPS);
      assert.equal(measured.stalls, 0, `brightness ${brightness}: d = ${[...measured.diffs.slice(-fadeOutFrames - 10)].map((d) => d.toFixed(2)).join(' ')}`);
    }
  });

  it('dims a bright page gently at first, so the page\'s own last motion cannot tip a still frame into a stall', async () => {
    // A light page: the test picture's greys taken halfway to white (235).
    const measured = smoothnessOf(await fadedStill('235-(235-val)*0.5'), FPS);
    const diffs = [...measured.diffs];
    const firstDim = diffs.findIndex((d, k) => k > 30 && d > 0.15);
    assert.ok(firstDim > 0, 'the picture dims before the end');
    // The three changes a still frame just before the ease can see (smoothness.py's window) stay far under its
    // 2-level line: a click ripple or a cursor adds up to about a level.
    const seen = diffs.slice(firstDim, firstDim + 3);
    assert.ok(Math.max(...seen) <= 1.0, `the first dimming steps: ${seen.map((d) => d.toFixed(2)).join(' ')}`);
    // and the fade proper still comes: the last frames change by many levels each
    assert.ok(diffs.at(-2)! > 8, `the fade's own steps: ${diffs.slice(-12).map((d) => d.toFixed(1)).join(' ')}`);
  });
});
