import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deriveThumbnail } from '../../../src/pipeline/encode/derive.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { type ComposeFixture, decodeFrame, near, startComposeFixture } from './compose-fixture.js';

describe('the compose pass’s GIF and thumbnail', () => {
  let fixture: ComposeFixture;
  before(async () => {
    fixture = await startComposeFixture();
  });
  after(() => fixture.close());

  it('writes the thumbnail deriveThumbnail would take from the finished video: same time, size and colours', async () => {
    const video = await fixture.render(null, { sideOutputs: true });
    const { thumbnail, gif } = video.composed;
    assert.ok(thumbnail && gif);
    assert.equal(gif.width, 640);
    assert.ok(gif.frames >= 40, `${gif.frames} GIF frames`);
    const derived = await deriveThumbnail(video.file, path.join(path.dirname(video.file), 'derived.png'), { durationMs: video.composed.durationMs });
    assert.deepEqual({ width: thumbnail.width, height: thumbnail.height, atMs: thumbnail.atMs }, derived);
    const { ffmpeg } = await ffmpegBinaries();
    const [ours, theirs] = await Promise.all([decodeFrame(ffmpeg, thumbnail.file, 0), decodeFrame(ffmpeg, path.join(path.dirname(video.file), 'derived.png'), 0)]);
    // The same frame, before and after encoding: background, window and recording read alike (BT.709, as players do).
    const { content } = video.layout;
    for (const [x, y] of [[8, 8], [640, 30], [content.x + 40, content.y + 60], [content.x + content.width / 2, content.y + content.height / 2], [1270, 710]] as const) {
      assert.ok(near(ours.pixel(x, y), theirs.pixel(x, y), 8), `(${x}, ${y}): ${ours.pixel(x, y)} vs ${theirs.pixel(x, y)} from the video`);
    }
  });
});
