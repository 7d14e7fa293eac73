import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { isWholeImage } from '../../src/platform/image-structure.js';
import { makeTestImages, type TestImages } from '../backgrounds/image-fixtures.js';

describe('whole images', () => {
  let images: TestImages;
  let catalogJpeg: Buffer;

  before(async () => {
    images = await makeTestImages();
    const catalog = path.resolve(import.meta.dirname, '../../assets/backgrounds');
    const first = (await fs.readdir(catalog).catch(() => [])).find((name) => name.endsWith('.jpg'));
    catalogJpeg = first ? await fs.readFile(path.join(catalog, first)) : images.jpeg;
  });

  it('accepts real PNG, JPEG and WebP files, with bytes after their end', () => {
    for (const [name, bytes] of Object.entries({ png: images.png, jpeg: images.jpeg, webp: images.webp, catalogJpeg })) {
      assert.equal(isWholeImage(bytes), true, name);
    }
    assert.equal(isWholeImage(Buffer.concat([images.png, Buffer.from('trailing')])), true, 'PNG with trailing bytes');
    assert.equal(isWholeImage(Buffer.concat([images.jpeg, Buffer.from('trailing')])), true, 'JPEG with trailing bytes');
  });

  it('refuses a bare signature, a file cut short and a damaged chunk', () => {
    const cases: Record<string, Buffer> = {
      'PNG signature only': images.png.subarray(0, 8),
      'PNG header without pixels': images.png.subarray(0, 33),
      'PNG cut in half': images.png.subarray(0, Math.floor(images.png.length / 2)),
      'PNG without IEND': images.png.subarray(0, images.png.length - 12),
      'JPEG start only': images.jpeg.subarray(0, 3),
      'JPEG cut before its end': images.jpeg.subarray(0, images.jpeg.length - 2),
      'WebP cut short': images.webp.subarray(0, images.webp.length - 10),
      'WebP header only': images.webp.subarray(0, 16),
      'a GIF': images.gif,
      'text': Buffer.from('not an image at all'),
    };
    const flipped = Buffer.from(images.png);
    flipped[40] = flipped[40]! ^ 0xff; // inside the first chunk after IHDR: its CRC no longer matches
    cases['PNG with a flipped byte'] = flipped;
    const zeroWidth = Buffer.from(images.png);
    zeroWidth.writeUInt32BE(0, 16);
    cases['PNG of width 0'] = zeroWidth;
    for (const [story, bytes] of Object.entries(cases)) assert.equal(isWholeImage(bytes), false, story);
  });
});
