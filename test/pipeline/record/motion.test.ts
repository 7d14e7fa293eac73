import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { animate, cursorPath, easeInOutCubic, type MotionClock, moveDurationMs, scrollProfile, seededRandom, seedFrom, typingDelays } from '../../../src/pipeline/record/motion.js';

describe('motion helpers', () => {
  it('eases in and out', () => {
    assert.equal(easeInOutCubic(0), 0);
    assert.equal(easeInOutCubic(0.5), 0.5);
    assert.equal(easeInOutCubic(1), 1);
    assert.equal(easeInOutCubic(2), 1, 'clamped');
    assert.ok(easeInOutCubic(0.1) < 0.1 && easeInOutCubic(0.9) > 0.9, 'slow at both ends');
    for (let t = 0; t < 1; t += 0.05) assert.ok(easeInOutCubic(t + 0.05) >= easeInOutCubic(t), 'monotonic');
  });

  it('is reproducible: the same seed gives the same numbers', () => {
    const a = seededRandom(seedFrom('https://example.com/:3'));
    const b = seededRandom(seedFrom('https://example.com/:3'));
    const c = seededRandom(seedFrom('https://example.com/:4'));
    const xs = Array.from({ length: 5 }, a);
    assert.deepEqual(xs, Array.from({ length: 5 }, b));
    assert.notDeepEqual(xs, Array.from({ length: 5 }, c));
    for (const x of xs) assert.ok(x >= 0 && x < 1);
  });

  it('draws a curved cursor path from start to end, bent but never wild', () => {
    const from = { x: 100, y: 600 };
    const to = { x: 900, y: 200 };
    const path = cursorPath(from, to, 40, seededRandom(7));
    assert.equal(path.length, 41);
    assert.deepEqual(path.at(-1), to);
    assert.ok(Math.hypot(path[0]!.x - from.x, path[0]!.y - from.y) < 0.001);
    // Off the straight line somewhere (a curve), and by less than a quarter of the distance.
    const distance = Math.hypot(to.x - from.x, to.y - from.y);
    const offLine = path.map((p) => Math.abs((to.x - from.x) * (from.y - p.y) - (from.x - p.x) * (to.y - from.y)) / distance);
    assert.ok(Math.max(...offLine) > distance * 0.01, 'curved');
    assert.ok(Math.max(...offLine) < distance * 0.25, 'not wild');
    // Eased: the first and last steps are shorter than the middle ones.
    const stepLength = (i: number) => Math.hypot(path[i + 1]!.x - path[i]!.x, path[i + 1]!.y - path[i]!.y);
    assert.ok(stepLength(0) < stepLength(20) && stepLength(39) < stepLength(20));
    assert.deepEqual(cursorPath(from, to, 40, seededRandom(7)), path, 'seeded');
  });

  it('scrolls frame by frame from rest to rest: gentle at both ends, never still in between, however short', () => {
    const stepsOf = (positions: number[]) => positions.slice(1).map((p, k) => p - positions[k]!);
    for (const [distance, frames] of [[1200, 40], [130, 6], [-65, 6], [40, 4]] as const) {
      const positions = scrollProfile(distance, frames, 2);
      assert.equal(positions.length, frames + 1);
      assert.equal(positions.at(-1), distance);
      const steps = stepsOf(positions).map(Math.abs);
      const largest = Math.max(...steps);
      assert.ok(steps.every((step) => step > 0), `${distance} px in ${frames} frames: ${steps.map((x) => x.toFixed(1))}`);
      // A short correction (65 px in 6 frames) once moved 13 px in its first frame, straight from a still page.
      assert.ok(steps[0]! <= largest / 4 && steps.at(-1)! <= largest / 4, `${distance} px in ${frames} frames starts and ends gently: ${steps.map((x) => x.toFixed(1))}`);
    }
    // A pixel a frame or less stays even.
    assert.deepEqual(stepsOf(scrollProfile(6, 6, 2)), [1, 1, 1, 1, 1, 1]);
  });

  it('sizes moves by distance', () => {
    assert.equal(moveDurationMs({ x: 0, y: 0 }, { x: 0, y: 0 }), 250);
    assert.ok(moveDurationMs({ x: 0, y: 0 }, { x: 1000, y: 0 }) <= 1000);
  });

  it('types at 60–140 ms a character, faster only to fit a budget', () => {
    const delays = typingDelays('hello, world', seededRandom(1));
    assert.equal(delays.length, 12);
    for (const d of delays) assert.ok(d >= 60 && d <= 140, `${d} ms`);
    const squeezed = typingDelays('a much longer text than the budget allows', seededRandom(1), 1000);
    const total = squeezed.reduce((s, d) => s + d, 0);
    assert.ok(total <= 1000 + squeezed.length, `${total} ms`);
    for (const d of squeezed) assert.ok(d >= 15);
  });

  it('ends a motion on the frame clock whatever frame it starts on, on its last frame', async () => {
    // Found as a recording that hung: a 100 ms motion from frame 15 reached progress 0.9999999999999994 and then
    // asked the clock, forever, for a sleep of a rounding error, which ends on no new frame.
    for (let first = 0; first < 150; first++) {
      for (const durationMs of [100, 200, 300, 500, 1000, 250]) {
        const clock = frameClock(first);
        const progress: number[] = [];
        await animate(
          durationMs,
          async (p) => {
            progress.push(p);
            if (progress.length > 100) throw new Error(`a ${durationMs} ms motion from frame ${first} never ended`);
          },
          clock,
        );
        assert.equal(progress.at(-1), 1, `from frame ${first}, ${durationMs} ms`);
        assert.equal(clock.frames(), Math.ceil((durationMs * 30) / 1000 - 1e-9), `from frame ${first}, ${durationMs} ms: one step a frame`);
      }
    }
  });
});

/** A clock that ticks once a frame at 30 fps, as frame capture's: a sleep ends on the first frame at or after its end. */
function frameClock(first: number): MotionClock & { frames(): number } {
  const frameMs = 1000 / 30;
  let index = first;
  return {
    tickMs: frameMs,
    perFrame: true,
    now: () => index * frameMs,
    async sleep(ms: number) {
      const until = index * frameMs + ms;
      while (index * frameMs < until - 1e-6) index++;
    },
    input: async (send) => {
      await send();
    },
    changed: () => undefined,
    frames: () => index - first,
  };
}
