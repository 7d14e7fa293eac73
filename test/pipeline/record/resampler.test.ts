import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameResampler } from '../../../src/pipeline/record/resampler.js';

/** A resampler at 30 fps from t=1000 that collects what it emits. */
function collect(options: { reorderWindowMs?: number; maxFrames?: number } = {}) {
  const out: Array<{ frame: string; index: number }> = [];
  const resampler = new FrameResampler<string>({
    startMs: 1000,
    fps: 30,
    reorderWindowMs: options.reorderWindowMs ?? 150,
    ...(options.maxFrames !== undefined ? { maxFrames: options.maxFrames } : {}),
    emit: (frame, index) => out.push({ frame, index }),
  });
  return { resampler, out, frames: () => out.map((o) => o.frame) };
}

describe('frame resampler', () => {
  it('orders out-of-order frames by timestamp and outputs a constant 30 fps, holding the last frame', () => {
    const { resampler, out, frames } = collect({ maxFrames: 12 });
    // Arrival order differs from capture order; nothing changes on screen between 1120 and 1300.
    resampler.push(1000, 'a');
    resampler.push(1070, 'c');
    resampler.push(1040, 'b');
    resampler.push(1120, 'd');
    resampler.push(1300, 'e');
    assert.equal(resampler.finish(), 12);
    // Output frame i stands for 1000 + i·33.3 ms and shows the newest frame taken at or before it.
    assert.deepEqual(frames(), ['a', 'a', 'b', 'c', 'd', 'd', 'd', 'd', 'd', 'e', 'e', 'e']);
    assert.deepEqual(out.map((o) => o.index), [...Array(12).keys()]);
    const stats = resampler.stats;
    assert.equal(stats.received, 5);
    assert.equal(stats.emitted, 12);
    assert.equal(stats.held, 7);
    assert.equal(stats.late, 0);
  });

  it('streams: emits only frames older than the reorder window, so a late frame still lands in order', () => {
    const { resampler, frames } = collect({ reorderWindowMs: 100 });
    resampler.push(1000, 'a');
    resampler.push(1050, 'c');
    resampler.advance(1100); // through t=1000 only (1100 - 100)
    assert.deepEqual(frames(), ['a']);
    resampler.push(1020, 'b'); // taken before c, arrives after it: still in time
    resampler.advance(1170); // through 1070: frames at 1033.3 and 1066.7
    assert.deepEqual(frames(), ['a', 'b', 'c']);
    // A frame whose moment has been emitted already is shown from the next frame on, if it is the newest.
    resampler.push(1060, 'late');
    resampler.push(1010, 'stale');
    resampler.advance(1210);
    assert.deepEqual(frames(), ['a', 'b', 'c', 'late']);
    assert.equal(resampler.stats.late, 2);
    assert.equal(resampler.stats.skipped, 1, 'the stale frame is never shown');
  });

  it('opens with the first frame when none was taken before the start, and stops at maxFrames', () => {
    const { resampler, frames } = collect({ maxFrames: 5 });
    resampler.advance(5000);
    assert.deepEqual(frames(), [], 'nothing to show yet');
    resampler.push(1050, 'first');
    resampler.push(1100, 'second');
    resampler.push(2000, 'after the end');
    resampler.advance(5000);
    assert.deepEqual(frames(), ['first', 'first', 'first', 'second', 'second']);
    assert.equal(resampler.finish(), 5);
  });

  it('uses the newest frame taken before the start for frame 0, and fills the rest when finishing', () => {
    const { resampler, frames } = collect();
    resampler.push(900, 'old');
    resampler.push(980, 'newer');
    resampler.push(1040, 'x');
    assert.equal(resampler.finish(4), 4);
    assert.deepEqual(frames(), ['newer', 'newer', 'x', 'x']);
    assert.equal(resampler.stats.skipped, 1);
    resampler.push(1100, 'ignored after finish');
    assert.equal(resampler.stats.received, 3);
  });

  it('keeps the output length exact over a long irregular stream', () => {
    const { resampler, out } = collect({ maxFrames: 300 });
    let t = 1000;
    let n = 0;
    // Bursts at ~45 fps, pauses of up to 700 ms, jittered arrival order.
    for (let burst = 0; burst < 20; burst++) {
      const batch: number[] = [];
      for (let i = 0; i < 10; i++) batch.push((t += 22));
      batch.sort(() => (n++ % 3 === 0 ? 1 : -1));
      for (const ts of batch) resampler.push(ts, `f${ts}`);
      t += (burst % 4) * 233;
      resampler.advance(t);
    }
    assert.equal(resampler.finish(), 300);
    assert.equal(out.length, 300);
    // Shown frames never go back in time.
    const times = out.map((o) => Number(o.frame.slice(1)));
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! >= times[i - 1]!, `frame ${i} goes back in time`);
  });
});
