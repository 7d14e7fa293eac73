import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/platform/ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('record ids', () => {
  it('are UUIDv7: the time they were made, then random bits', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    assert.match(id, UUID_V7);
    const made = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    assert.ok(made >= before && made <= after, `${made} is between ${before} and ${after}`);
  });

  it('made later sort later (so the indexes they key grow at one end), and never repeat', async () => {
    const first = Array.from({ length: 2000 }, () => newId());
    await new Promise((resolve) => setTimeout(resolve, 2));
    const later = newId();
    assert.ok(first.every((id) => id < later));
    assert.equal(new Set([...first, later]).size, 2001);
  });

  it('keep 74 random bits: ids made in the same millisecond differ in their random part', () => {
    const ids = Array.from({ length: 500 }, () => newId());
    const randomParts = new Set(ids.map((id) => id.slice(15)));
    assert.equal(randomParts.size, 500);
    // Every hex digit of the random tail is used: the bits are not stuck.
    const digits = new Set(ids.flatMap((id) => [...id.slice(24)]));
    assert.equal(digits.size, 16);
  });
});
