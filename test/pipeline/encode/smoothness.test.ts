import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SMOOTHNESS, smoothnessOf } from '../../../src/pipeline/encode/smoothness.js';

const { width: W, height: H } = SMOOTHNESS;

/** Grey frames of a diagonal ramp shifted by `offsets[i]` pixels: a picture that moves when the offset changes. */
function frames(offsets: number[]): Buffer {
  const raw = Buffer.alloc(offsets.length * W * H);
  offsets.forEach((offset, f) => {
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) raw[f * W * H + y * W + x] = ((x + y + offset) * 7) % 256;
  });
  return raw;
}

describe('smoothness (smoothness.py ported)', () => {
  it('counts a repeated picture inside motion as a stall, and nothing while the picture is still', () => {
    // still ×10, moving 1 px a frame with one frame shown twice, still ×10
    const offsets = [...Array(10).fill(0), 1, 2, 3, 4, 4, 5, 6, 7, 8, ...Array(10).fill(9)];
    const m = smoothnessOf(frames(offsets), 30);
    assert.equal(m.frames, offsets.length);
    assert.equal(m.stalled.filter(Boolean).length, m.stalls);
    // The repeat (change 13 → 14) is a stall; so are the still changes within 3 of a move (3 before, 3 after).
    assert.equal(m.stalled[13], true);
    assert.deepEqual(m.stalled.map((s, k) => (s ? k : -1)).filter((k) => k >= 0), [6, 7, 8, 13, 19, 20, 21]);
    assert.equal(m.movingFrames, 16);
    assert.equal(m.stallRatio, Math.round((7 / 16) * 1000) / 1000);
    assert.equal(m.longestStallMs, Math.round(((3 + 1) * 1000) / 30));
    // Of those, only the repeat has motion on both sides; the six others are the still page at the motion's edges.
    assert.equal(m.stallsWithinMotion, 1);
  });

  it('counts a page that changes in one frame and stands still around it as six stalls, none within motion', () => {
    // A `<details>` opened by a click (glasshouse's and saas's FAQ in the render bench): still, one jump, still.
    const offsets = [...Array(10).fill(0), ...Array(10).fill(40)];
    const m = smoothnessOf(frames(offsets), 30);
    assert.deepEqual(m.stalled.map((s, k) => (s ? k : -1)).filter((k) => k >= 0), [6, 7, 8, 10, 11, 12]);
    assert.equal(m.stalls, 6);
    assert.equal(m.stallsWithinMotion, 0);
  });

  it('reports no stall for a video that never moves', () => {
    const m = smoothnessOf(frames(Array(20).fill(3)), 30);
    assert.deepEqual([m.movingFrames, m.stalls, m.stallRatio, m.longestStallMs, m.distinctFpsMoving], [0, 0, 0, 0, 0]);
  });
});
