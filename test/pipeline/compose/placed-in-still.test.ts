import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placedInStill } from '../../../src/pipeline/compose/filter-graph.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { runTool } from '../../../src/pipeline/encode/run-tool.js';

// The recording goes into its frame (the plate, or the window as it rises in) by stacking the frame's strips around
// it, which only copies. It must be the very picture that laying it over the frame gave, wherever the rectangle sits:
// inside, against an edge or a corner, or filling the frame.
const STILL = { width: 64, height: 48 };
const FRAMES = 3;

/** framemd5 lines of a graph over a still (testsrc2, one frame) and a moving inner picture (testsrc, FRAMES frames) */
async function frameHashes(graph: (still: string, inner: string) => string[], rect: { width: number; height: number }): Promise<string[]> {
  const { ffmpeg } = await ffmpegBinaries();
  const chains = [
    `testsrc2=size=${STILL.width}x${STILL.height}:rate=30,trim=end_frame=1,format=yuv420p[still]`,
    `testsrc=size=${rect.width}x${rect.height}:rate=30,trim=end_frame=${FRAMES},format=yuv420p,settb=1/30[inner]`,
    ...graph('still', 'inner'),
  ];
  const result = await runTool(
    ffmpeg,
    ['-hide_banner', '-v', 'error', '-nostdin', '-filter_complex', chains.join(';'), '-map', '[out]', '-f', 'framemd5', '-'],
    30_000,
  );
  assert.equal(result.exitCode, 0, result.stderr);
  return result.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(',').pop()!.trim());
}

const laidOver = (rect: { x: number; y: number }) => (still: string, inner: string) => [
  `[${still}]loop=loop=-1:size=1:start=0[base]`,
  `[base][${inner}]overlay=x=${rect.x}:y=${rect.y}:shortest=1:format=yuv420[out]`,
];

describe('the recording placed in its frame', () => {
  const cases = [
    { name: 'inside the frame', rect: { x: 6, y: 10, width: 40, height: 30 } },
    { name: 'against the left edge', rect: { x: 0, y: 8, width: 40, height: 30 } },
    { name: 'in the top right corner', rect: { x: 24, y: 0, width: 40, height: 30 } },
    { name: 'as wide as the frame', rect: { x: 0, y: 12, width: 64, height: 30 } },
    { name: 'filling the frame', rect: { x: 0, y: 0, width: 64, height: 48 } },
  ];
  for (const { name, rect } of cases) {
    it(`is the picture an overlay gave, ${name}`, async () => {
      const stacked = await frameHashes(
        (still, inner) => placedInStill({ still, format: 'yuv420p', size: STILL, rect, inner, out: 'out', prefix: 'p', fromFrame: 0 }),
        rect,
      );
      const overlaid = await frameHashes(laidOver(rect), rect);
      assert.equal(stacked.length, FRAMES);
      assert.deepEqual(stacked, overlaid);
    });
  }

  it('keeps in step with a stretch that starts later in the video', async () => {
    const rect = { x: 6, y: 10, width: 40, height: 30 };
    // A part of the video from frame 12 on: the inner picture's first frame is stamped 12, and so are the strips'.
    const later = (graph: (still: string, inner: string) => string[]) => (still: string, inner: string) => [
      `[${inner}]setpts=PTS+12[inner_later]`,
      ...graph(still, 'inner_later'),
    ];
    const stacked = await frameHashes(
      later((still, inner) => placedInStill({ still, format: 'yuv420p', size: STILL, rect, inner, out: 'out', prefix: 'p', fromFrame: 12 })),
      rect,
    );
    const overlaid = await frameHashes(
      later((still, inner) => [
        `[${still}]loop=loop=-1:size=1:start=0,setpts=PTS+12/(30*TB)[base]`,
        `[base][${inner}]overlay=x=${rect.x}:y=${rect.y}:shortest=1:format=yuv420[out]`,
      ]),
      rect,
    );
    assert.equal(stacked.length, FRAMES);
    assert.deepEqual(stacked, overlaid);
  });
});
