import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UnsupportedMediaError } from '../../../src/platform/errors.js';
import { InvalidVideoError, probeVideo } from '../../../src/pipeline/encode/probe.js';
import { makeMediaFixtures, type MediaFixtures } from '../media-fixtures.js';

describe('probeVideo', () => {
  let media: MediaFixtures;
  before(async () => {
    media = await makeMediaFixtures();
  });
  after(() => media.cleanup());

  it('describes an MP4', async () => {
    const info = await probeVideo(media.mp4);
    assert.equal(info.container, 'mp4');
    assert.equal(info.codec, 'h264');
    assert.equal(info.width, 320);
    assert.equal(info.height, 240);
    assert.ok(Math.abs(info.durationMs! - 2000) <= 50, `duration ${info.durationMs}`);
    assert.equal(info.fps, 30);
    assert.equal(info.hasAudio, false);
  });

  it('describes a WebM', async () => {
    const info = await probeVideo(media.webm);
    assert.equal(info.container, 'webm');
    assert.equal(info.codec, 'vp9');
    assert.deepEqual([info.width, info.height], [320, 240]);
    assert.ok(Math.abs(info.durationMs! - 2000) <= 50, `duration ${info.durationMs}`);
    assert.equal(info.fps, 30);
  });

  it('refuses garbage, images and audio with a 415-mapped error', async () => {
    for (const file of [media.garbage, media.png, media.animatedGif, media.audioOnly]) {
      await assert.rejects(probeVideo(file), (error: unknown) => {
        assert.ok(error instanceof InvalidVideoError, `${path.basename(file)}: ${String(error)}`);
        assert.ok(error instanceof UnsupportedMediaError);
        assert.equal(error.status, 415);
        assert.doesNotMatch(error.message, /ffprobe|\//, 'the client message does not leak tool output or paths');
        return true;
      });
    }
    await assert.rejects(probeVideo(path.join(media.dir, 'missing.mp4')), InvalidVideoError);
  });

  it('reads odd file names as files, never as options or URLs', async () => {
    const odd = path.join(media.dir, '-y http: odd name.mp4');
    await fs.copyFile(media.mp4, odd);
    assert.equal((await probeVideo(odd)).codec, 'h264');
  });

  it('does not follow a playlist disguised as a video to the network', async () => {
    let requests = 0;
    const server = http.createServer((_req, res) => {
      requests += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(() => server.close());
    const { port } = server.address() as AddressInfo;
    for (const name of ['playlist.mp4', 'playlist.m3u8']) {
      const file = path.join(media.dir, name);
      await fs.writeFile(file, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nhttp://127.0.0.1:${port}/segment.ts\n#EXT-X-ENDLIST\n`);
      await assert.rejects(probeVideo(file), InvalidVideoError);
    }
    assert.equal(requests, 0);
  });
});
