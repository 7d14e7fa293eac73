import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gifFrameCount, pngDimensions, sniffMedia } from '../../../src/platform/media-signatures.js';
import { deriveGif, deriveThumbnail, thumbnailTimeMs } from '../../../src/pipeline/encode/derive.js';
import { makeMediaFixtures, type MediaFixtures } from '../media-fixtures.js';

/** Frame delays in centiseconds, from each Graphic Control Extension (0x21 0xF9). */
function gifDelays(gif: Buffer): number[] {
  const delays: number[] = [];
  for (let i = 0; i + 5 < gif.length; i++) {
    if (gif[i] === 0x21 && gif[i + 1] === 0xf9 && gif[i + 2] === 4) delays.push(gif.readUInt16LE(i + 4));
  }
  return delays;
}

describe('derived media', () => {
  let media: MediaFixtures;
  const out = (name: string) => path.join(media.dir, name);
  before(async () => {
    media = await makeMediaFixtures();
  });
  after(() => media.cleanup());

  it('picks the thumbnail moment inside the video', () => {
    assert.equal(thumbnailTimeMs(60_000), 6000, '10% into a long video');
    assert.equal(thumbnailTimeMs(5000), 1000, 'at least 1 s, past a fade-in');
    assert.equal(thumbnailTimeMs(1200), 600, 'never past the middle of a short clip');
    assert.equal(thumbnailTimeMs(0), 0);
    assert.equal(thumbnailTimeMs(null), 1000);
  });

  it('takes a PNG thumbnail at the video size when narrower than 1280', async () => {
    const result = await deriveThumbnail(media.mp4, out('thumb.png'));
    const png = await fs.readFile(out('thumb.png'));
    assert.equal(sniffMedia(png), 'png');
    assert.deepEqual(pngDimensions(png), { width: 320, height: 240 });
    assert.deepEqual(result, { width: 320, height: 240, atMs: 1000 });
  });

  it('scales a wide video down to 1280 wide, keeping the aspect ratio', async () => {
    const result = await deriveThumbnail(media.wideMp4, out('wide.png'), { durationMs: 1000 });
    assert.deepEqual(pngDimensions(await fs.readFile(out('wide.png'))), { width: 1280, height: 720 });
    assert.equal(result.atMs, 500);
  });

  it('never seeks past the end, and works from a WebM', async () => {
    const past = await deriveThumbnail(media.webm, out('past.png'), { atMs: 60_000 });
    assert.ok(past.atMs < 2000, `took the frame at ${past.atMs}`);
    assert.equal(sniffMedia(await fs.readFile(out('past.png'))), 'png');
    // A wrong duration hint (longer than the clip) still yields a frame: the first one.
    const fallback = await deriveThumbnail(media.mp4, out('fallback.png'), { durationMs: 600_000 });
    assert.equal(fallback.atMs, 0);
    assert.deepEqual(pngDimensions(await fs.readFile(out('fallback.png'))), { width: 320, height: 240 });
  });

  it('makes an animated GIF at 12 fps and 640 wide in one run', async () => {
    const result = await deriveGif(media.mp4, out('anim.gif'));
    const gif = await fs.readFile(out('anim.gif'));
    assert.equal(sniffMedia(gif), 'gif');
    assert.deepEqual(result, { width: 640, height: 480, frames: gifFrameCount(gif) });
    assert.ok(result.frames >= 22 && result.frames <= 26, `${result.frames} frames for 2 s at 12 fps`);
    const delays = gifDelays(gif);
    assert.ok(delays.length >= 22 && delays.every((d) => d >= 8 && d <= 9), `delays ${delays.join(',')} ≈ 1/12 s`);
  });

  it('honours width and maxSeconds, and refuses widths outside 640 to 800', async () => {
    const result = await deriveGif(media.webm, out('short.gif'), { width: 800, maxSeconds: 1 });
    assert.equal(result.width, 800);
    assert.equal(result.height, 600);
    assert.ok(result.frames >= 11 && result.frames <= 13, `${result.frames} frames for 1 s`);
    await assert.rejects(deriveGif(media.mp4, out('x.gif'), { width: 500 }), RangeError);
    await assert.rejects(deriveGif(media.mp4, out('x.gif'), { width: 801 }), RangeError);
  });

  it('removes partial output when ffmpeg fails', async () => {
    await fs.writeFile(out('broken.gif'), 'stale');
    await assert.rejects(deriveGif(media.garbage, out('broken.gif')));
    await assert.rejects(fs.stat(out('broken.gif')), { code: 'ENOENT' });
    await assert.rejects(deriveThumbnail(media.garbage, out('broken.png')));
    await assert.rejects(fs.stat(out('broken.png')), { code: 'ENOENT' });
  });
});
