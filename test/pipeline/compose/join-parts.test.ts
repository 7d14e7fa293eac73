import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitForTwoCores } from '../../../src/pipeline/compose/join-parts.js';

// After the recording, what is left is composed by two compositors side by side (one keeps only ~1.7 of two cores
// busy). Where the rest is cut decides whether the joined video can differ from a single pass: never inside the
// window's rise-in or fall-away, never inside a dissolve, and never into a stretch too short to be worth its start.

const plan = (cuts: Array<{ frame: number; weights: number[] }> = [], camera = { frames: 300, introFrames: 24, outroFrames: 0 }) => ({
  camera: camera as never,
  cuts: cuts as never,
});
const dissolve = (frame: number) => ({ frame, weights: [0.25, 0.5, 0.75, 1] });

describe('what is left after the recording, for two cores', () => {
  it('cuts the rest of a cheap page near its middle', () => {
    assert.deepEqual(splitForTwoCores([[64, 300]], plan()), [[64, 182], [182, 300]]);
  });

  it('cuts the longest stretch only, and keeps the order', () => {
    assert.deepEqual(splitForTwoCores([[0, 46], [120, 300]], plan()), [[0, 46], [120, 210], [210, 300]]);
  });

  it('leaves a stretch whole when either half would be shorter than 45 frames', () => {
    assert.deepEqual(splitForTwoCores([[219, 300]], plan()), [[219, 300]]);
    assert.deepEqual(splitForTwoCores([], plan()), []);
  });

  it('never cuts inside a dissolve: the cut moves before it, and before one just earlier too', () => {
    // The middle (182) falls in the dissolve at 184; moved to 178, it falls in the one at 180: it ends at 174.
    assert.deepEqual(splitForTwoCores([[64, 300]], plan([dissolve(184)])), [[64, 178], [178, 300]]);
    assert.deepEqual(splitForTwoCores([[64, 300]], plan([dissolve(180), dissolve(184)])), [[64, 174], [174, 300]]);
  });

  it('never cuts inside the window’s rise-in or fall-away', () => {
    // The whole video left, with a long rise-in and fall-away: the middle is fine.
    assert.deepEqual(splitForTwoCores([[0, 300]], plan([], { frames: 300, introFrames: 24, outroFrames: 24 })), [[0, 150], [150, 300]]);
    // A short video whose fall-away starts before the middle: left whole.
    assert.deepEqual(splitForTwoCores([[60, 160]], plan([], { frames: 160, introFrames: 24, outroFrames: 60 })), [[60, 160]]);
  });
});
