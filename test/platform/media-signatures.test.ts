import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { gifFrameCount, isAnimatedGif, pngDimensions, sniffMedia, SNIFF_BYTES } from '../../src/platform/media-signatures.js';
import { makeMediaFixtures, type MediaFixtures } from '../pipeline/media-fixtures.js';

describe('media signatures', () => {
  let media: MediaFixtures;
  const head = async (file: string) => (await fs.readFile(file)).subarray(0, SNIFF_BYTES);

  before(async () => {
    media = await makeMediaFixtures();
  });
  after(() => media.cleanup());

  it('recognises real files by their first bytes', async () => {
    assert.equal(sniffMedia(await head(media.mp4)), 'mp4');
    assert.equal(sniffMedia(await head(media.webm)), 'webm');
    assert.equal(sniffMedia(await head(media.png)), 'png');
    assert.equal(sniffMedia(await head(media.animatedGif)), 'gif');
    assert.equal(sniffMedia(await head(media.stillGif)), 'gif');
    assert.equal(sniffMedia(await head(media.garbage)), null);
  });

  it('recognises the remaining signatures and refuses look-alikes', () => {
    assert.equal(sniffMedia(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])), 'jpeg');
    assert.equal(sniffMedia(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1')), 'webp');
    assert.equal(sniffMedia(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')), null, 'a WAV file is RIFF too');
    assert.equal(sniffMedia(Buffer.from('GIF87a', 'latin1')), 'gif');
    assert.equal(sniffMedia(Buffer.from('GIF88a', 'latin1')), null);
    assert.equal(sniffMedia(Buffer.from('\x00\x00\x00\x18ftypavif\x00\x00\x00\x00', 'latin1')), null, 'AVIF is an image');
    assert.equal(sniffMedia(Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00', 'latin1')), null, 'HEIC is an image');
    assert.equal(sniffMedia(Buffer.from('\x00\x00\x00\x18ftypisom\x00\x00\x02\x00', 'latin1')), 'mp4');
    assert.equal(sniffMedia(Buffer.from('<!doctype html>', 'latin1')), null);
    assert.equal(sniffMedia(Buffer.alloc(0)), null);
    assert.equal(sniffMedia(Buffer.from([0x89, 0x50])), null, 'too short to decide');
  });

  it('counts GIF frames by walking the blocks', async () => {
    const animated = await fs.readFile(media.animatedGif);
    const still = await fs.readFile(media.stillGif);
    assert.equal(gifFrameCount(animated), 5);
    assert.equal(gifFrameCount(still), 1);
    assert.equal(isAnimatedGif(animated), true);
    assert.equal(isAnimatedGif(still), false);
  });

  it('refuses GIFs that are truncated or not GIFs at all', async () => {
    const animated = await fs.readFile(media.animatedGif);
    assert.equal(gifFrameCount(animated.subarray(0, Math.floor(animated.length / 2))), null);
    assert.equal(gifFrameCount(animated.subarray(0, 12)), null);
    assert.equal(gifFrameCount(animated.subarray(0, animated.length - 1)), 5, 'a missing trailer is tolerated');
    assert.equal(gifFrameCount(Buffer.concat([animated.subarray(0, animated.length - 1), Buffer.from([0x99])])), null);
    assert.equal(gifFrameCount(await fs.readFile(media.png)), null);
    assert.equal(isAnimatedGif(await fs.readFile(media.garbage)), false);
    // "GIF89a" followed by junk must not pass as animated.
    assert.equal(isAnimatedGif(Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(200, 0x2c)])), false);
  });

  it('reads PNG dimensions', async () => {
    assert.deepEqual(pngDimensions(await fs.readFile(media.png)), { width: 320, height: 240 });
    assert.equal(pngDimensions(await fs.readFile(media.stillGif)), null);
  });
});
