import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createSecretBox, randomToken, secureRandomBytes } from '../../src/platform/secrets.js';

/** Secrets, session tokens and IVs come from a pooled CSPRNG draw: each byte handed out once, and kept by its owner. */
describe('secure random bytes', () => {
  it('never hands out the same token twice, across many refills of the pool', () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 5000; i++) tokens.add(randomToken(32));
    assert.equal(tokens.size, 5000);
    for (const token of [...tokens].slice(0, 3)) assert.equal(Buffer.from(token, 'base64url').length, 32);
  });

  it('gives each caller its own copy: later draws and refills do not change bytes already drawn', () => {
    const first = secureRandomBytes(16);
    const kept = Buffer.from(first);
    for (let i = 0; i < 1000; i++) secureRandomBytes(12);
    assert.deepEqual(first, kept);
    assert.notDeepEqual(first, Buffer.alloc(16), 'the draw is random bytes, not the zeroed pool');
  });

  it('serves sizes of its own and large ones alike, and refuses a negative size', () => {
    assert.equal(secureRandomBytes(1).length, 1);
    assert.equal(secureRandomBytes(4096).length, 4096);
    assert.equal(secureRandomBytes(0).length, 0);
    assert.throws(() => secureRandomBytes(-1), RangeError);
  });

  it('seals the same secret differently each time, and opens each', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = [box.seal('whsec_example'), box.seal('whsec_example')];
    assert.notEqual(sealed[0], sealed[1]);
    for (const text of sealed) assert.equal(box.open(text), 'whsec_example');
  });
});
