import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heldPictures } from '../../../src/pipeline/compose/held-pictures.js';

/** Frames as frame capture hands them on: a frame that holds the picture before it is the very same buffer. */
function capture(pattern: string): Buffer[] {
  const frames: Buffer[] = [];
  for (const c of pattern) frames.push(c === '=' ? frames.at(-1)! : Buffer.from(c));
  return frames;
}

/** The frame each sent picture is stamped with, as ffmpeg evaluates the expression (N counts the pictures sent). */
function stamps(restamp: string, count: number): number[] {
  const evaluate = new Function('N', 'gte', `return ${restamp};`) as (n: number, gte: (a: number, b: number) => number) => number;
  return Array.from({ length: count }, (_, n) => evaluate(n, (a, b) => (a >= b ? 1 : 0)));
}

describe('the pictures of a stretch a compositor is sent', () => {
  it('leaves out the frames that hold the picture before them, and stamps each picture with its own frame', () => {
    const frames = capture('ab===c=de==f');
    const held = heldPictures((i) => frames[i]!, 0, frames.length)!;
    // The last frame is sent even when it holds (f is new here), and the last picture once more, stamped `to`.
    assert.deepEqual(held.sent, [0, 1, 5, 7, 8, 11, 12]);
    assert.deepEqual(stamps(held.restamp, held.sent.length), held.sent);
  });

  it('numbers frames on the video’s clock for a stretch from the middle, and sends its first frame even if it holds', () => {
    const frames = capture('abc=====d===');
    const held = heldPictures((i) => frames[i]!, 4, 11)!;
    assert.deepEqual(held.sent, [4, 8, 10, 11]);
    assert.deepEqual(stamps(held.restamp, held.sent.length), held.sent);
  });

  it('sends every frame as before when none holds, or the stretch is a single frame', () => {
    const frames = capture('abcdef');
    assert.equal(heldPictures((i) => frames[i]!, 0, 6), null);
    assert.equal(heldPictures((i) => capture('a=')[i]!, 1, 2), null);
  });

  it('compares pictures by buffer, not by bytes: equal bytes in another buffer are a new picture', () => {
    const frames = [Buffer.from('a'), Buffer.from('a'), Buffer.from('a')];
    assert.equal(heldPictures((i) => frames[i]!, 0, 3), null);
  });
});
