import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asSeenThrough, cutsIn, dissolveWeights, withChangeMaps, withoutScrolls } from '../../../src/pipeline/compose/cuts.js';
import { SMOOTHNESS } from '../../../src/pipeline/encode/smoothness.js';

/** The change each frame of a dissolve adds, in smoothness.py's grey levels, for a cut of `change`. */
function steps(change: number): number[] {
  const weights = dissolveWeights(change);
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (w / total) * change);
}

describe('cuts in a capture', () => {
  it('finds a jump between still frames (an accordion opening), not a scroll that starts and ends gently', () => {
    const still = Array(20).fill(0.01);
    const accordion = [...still, 14.4, ...still];
    assert.deepEqual(cutsIn(accordion).map((c) => c.frame), [21]);
    const scroll = [...still, 0.5, 0.6, 0.6, 3, 6, 9, 9, 6, 3, 0.6, 0.6, 0.5, ...still];
    assert.deepEqual(cutsIn(scroll), []);
    // A second jump inside the first one's dissolve is left to it.
    assert.equal(cutsIn([...still, 30, 0.01, 25, ...still]).length, 1);
  });

  it('leaves a scroll alone that starts briskly from a still page, as the recording says it scrolled then', () => {
    const still = Array(20).fill(0.01);
    // A short correction: 13 px a frame at once, after the page stood still (frames 21-26 move).
    const brisk = [...still, 4, 4, 3.5, 2.5, 1.2, 0.5, ...still];
    assert.deepEqual(cutsIn(brisk).map((c) => c.frame), [21], 'the frames alone take it for a cut');
    const frameMs = 1000 / 30;
    const scrolls = [{ t: 0, y: 2237 }, ...[2224, 2211, 2198, 2184, 2176, 2172].map((y, i) => ({ t: (21 + i) * frameMs, y }))];
    assert.deepEqual(withoutScrolls(cutsIn(brisk), scrolls, 30), []);
    // An accordion opening while the page stands still stays a cut.
    const accordion = [...still, 14.4, ...still];
    assert.deepEqual(withoutScrolls(cutsIn(accordion), scrolls.slice(0, 1), 30).map((c) => c.frame), [21]);
  });

  it('dissolves so that no still frame sits next to a big change: small steps at both ends', () => {
    for (const change of [3, 9, 14.4, 21, 60, 120]) {
      const s = steps(change);
      const ends = [...s.slice(0, 3), ...s.slice(-3)];
      assert.ok(ends.every((x) => x > SMOOTHNESS.same && x < 1.3), `${change}: ends ${ends.map((x) => x.toFixed(2))}`);
      assert.ok(Math.max(...s) <= 21, `${change}: at most 20 levels a frame`);
      assert.ok(s.length <= 12, `${change}: ${s.length} frames`);
    }
  });

  describe('under a zoom', () => {
    // A capture that fills a 1600×900 frame; a click opens an answer that fills its lower 50 of 90 rows, in one frame.
    const { width: W, height: H } = SMOOTHNESS;
    const layout = { output: { width: 1600, height: 900 }, content: { x: 0, y: 0, width: 1600, height: 900 } };
    const small = Buffer.alloc(W * H * 2);
    for (let r = 40; r < H; r++) small.fill(90, W * H + r * W, W * H + (r + 1) * W);
    const [cut] = withChangeMaps([{ frame: 1, change: 50, weights: dissolveWeights(50) }], small);
    // The camera zoomed 2× on the top-left quarter: rows 0–45, so only 5 rows of the answer are on screen, across
    // the whole frame's width once magnified: 100 of its 900 rows change by 90 levels, 10 levels on average.
    const zoomed = { x: 0, y: 0, width: 800, height: 450 };
    const shown = 10;
    const onScreen = (weights: number[]) => weights.map((w) => (w / weights.reduce((a, b) => a + b, 0)) * shown);

    it('was dissolved for the change over the whole capture, so its first and last frames hardly moved', () => {
      assert.ok(onScreen(cut!.weights).slice(0, 3).every((step) => step < SMOOTHNESS.same));
    });

    it('is dissolved for the change the zoom shows: every frame of it moves the picture', () => {
      const seen = asSeenThrough(cut!, zoomed, layout);
      const steps = onScreen(seen.weights);
      assert.ok(steps.every((step) => step > SMOOTHNESS.same && step < SMOOTHNESS.move), steps.map((x) => x.toFixed(2)).join(' '));
      assert.equal(seen.frame, cut!.frame);
    });

    it('is left as it was when the camera shows the whole frame', () => {
      assert.equal(asSeenThrough(cut!, { x: 0, y: 0, width: 1600, height: 900 }, layout), cut);
    });

    it('keeps the map of where the picture changed: the rows of the answer only', () => {
      assert.equal(cut!.map![39 * W], 0);
      assert.equal(cut!.map![40 * W], 90);
      assert.equal(cut!.map!.reduce((a, b) => a + b, 0) / (W * H), 50);
    });
  });
});
