import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanBytes } from '../../src/cli/client/context.js';

describe('sizes as the CLI prints them', () => {
  it('reads like a person would say it', () => {
    assert.equal(humanBytes(1801472), '1.7 MB');
    assert.equal(humanBytes(48213), '47.1 KB');
    assert.equal(humanBytes(532), '532 bytes');
    assert.equal(humanBytes(1), '1 byte');
    assert.equal(humanBytes(3 * 1024 ** 3), '3.0 GB');
  });
});
