import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { decodeSmallFrames, findCuts } from '../../../src/pipeline/compose/cuts.js';
import { encoderArgs, paletteSamplesFile, startVideoEncoder } from '../../../src/pipeline/encode/video-encoder.js';
import { jpegSize } from '../../../src/pipeline/record/screencast.js';

const run = promisify(execFile);

describe('video encoder', () => {
  let dir: string;
  let jpegs: Buffer[];
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-encoder-'));
    const { ffmpeg } = await resolveFfmpegBinaries();
    // 4:3 frames, so the 16:9 output needs scaling and padding.
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=30', '-frames:v', '10', '-q:v', '3', path.join(dir, 'f%02d.jpg')]);
    jpegs = await Promise.all(Array.from({ length: 10 }, (_, i) => fs.readFile(path.join(dir, `f${String(i + 1).padStart(2, '0')}.jpg`))));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('reads a JPEG\'s size from its header', () => {
    assert.deepEqual(jpegSize(jpegs[0]!), { width: 640, height: 480 });
    assert.equal(jpegSize(Buffer.from('not a jpeg')), null);
  });

  it('refuses odd sizes', () => {
    assert.throws(() => encoderArgs({ format: 'mp4', width: 1279, height: 720, outFile: 'x.mp4' }), RangeError);
  });

  for (const format of ['mp4', 'webm'] as const) {
    it(`encodes streamed JPEG frames to ${format}, fitted and padded to the output size`, async () => {
      const outFile = path.join(dir, `out.${format}`);
      const encoder = await startVideoEncoder({ format, width: 1280, height: 720, fps: 30, outFile });
      for (let i = 0; i < 45; i++) await encoder.writeFrame(jpegs[i % jpegs.length]!);
      const result = await encoder.finish();
      assert.equal(result.framesWritten, 45);
      assert.equal(result.durationMs, 1500);
      const info = await probeVideo(outFile);
      assert.equal(info.codec, format === 'mp4' ? 'h264' : 'vp9');
      assert.equal(info.container, format);
      assert.deepEqual([info.width, info.height, info.fps], [1280, 720, 30]);
      assert.ok(Math.abs(info.durationMs! - 1500) <= 50, `${info.durationMs} ms`);
      if (format === 'mp4') {
        // +faststart: the index (moov) comes before the media data (mdat).
        const head = (await fs.readFile(outFile)).subarray(0, 4096).toString('latin1');
        assert.ok(head.indexOf('moov') >= 0 && head.indexOf('moov') < (head.indexOf('mdat') >>> 0), 'moov first');
      }
    });
  }

  it('writes the clean capture and, as the frames come, the small frames compose would decode from it to find its cuts', async () => {
    // A still picture, then another: one cut, at frame 20.
    const outFile = path.join(dir, 'clean.mkv');
    const smallFrames = path.join(dir, 'clean.small.gray');
    const encoder = await startVideoEncoder({ format: 'mp4', capture: true, width: 640, height: 480, fps: 30, outFile, smallFrames });
    for (let i = 0; i < 45; i++) await encoder.writeFrame(jpegs[i < 20 ? 0 : 5]!);
    await encoder.finish();
    const written = await fs.readFile(smallFrames);
    assert.equal(written.length, 45 * 160 * 90, 'every frame, at 160x90 grey');
    assert.ok(written.equals(await decodeSmallFrames(outFile, 'mjpeg')), 'byte for byte what decoding the capture gives');
    const cuts = await findCuts(outFile, 'mjpeg', smallFrames);
    assert.deepEqual(cuts.map((cut) => cut.frame), [20]);
    assert.deepEqual(cuts, await findCuts(outFile, 'mjpeg'));
    // And every tenth frame in colour at a quarter size, for the GIF's palette: frames 0, 10, 20, 30 and 40, one
    // after another (read as a palette reads them, at the file's own rate: no copies filling the gaps between them).
    const { ffmpeg } = await resolveFfmpegBinaries();
    const { stdout: samples } = await run(ffmpeg, ['-v', 'error', '-f', 'yuv4mpegpipe', '-i', paletteSamplesFile(smallFrames), '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: 1 << 24 });
    assert.equal(samples.length, 5 * 160 * 120 * 3, 'five frames of 160x120');
    // Only the two pictures were decoded (small-frames.ts); the repeated frames' samples are theirs.
    const sample = (k: number) => samples.subarray(k * 160 * 120 * 3, (k + 1) * 160 * 120 * 3);
    assert.ok(sample(0).equals(sample(1)) && sample(2).equals(sample(3)) && sample(2).equals(sample(4)), 'frames 0 and 10 show one picture, 20 to 40 the other');
    assert.ok(!sample(0).equals(sample(2)));
    const { stdout: decoded } = await run(ffmpeg, ['-v', 'error', '-lowres', '2', '-i', outFile, '-vf', "select='not(mod(n,10))',setpts=N/(30*TB),scale=in_range=full", '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: 1 << 24 });
    assert.ok(samples.equals(decoded), 'what decoding the capture at a quarter size gives');

    // A failed or aborted capture leaves neither file.
    const abortedFile = path.join(dir, 'aborted.mkv');
    const abortedSmall = path.join(dir, 'aborted.small.gray');
    const aborted = await startVideoEncoder({ format: 'mp4', capture: true, width: 640, height: 480, outFile: abortedFile, smallFrames: abortedSmall });
    for (let i = 0; i < 5; i++) await aborted.writeFrame(jpegs[i]!);
    await aborted.abort();
    await assert.rejects(fs.stat(abortedFile), { code: 'ENOENT' });
    await assert.rejects(fs.stat(abortedSmall), { code: 'ENOENT' });
    await assert.rejects(fs.stat(paletteSamplesFile(abortedSmall)), { code: 'ENOENT' });
  });

  it('fails on frames that are not JPEG and removes the partial file; abort cleans up', async () => {
    const outFile = path.join(dir, 'bad.mp4');
    const encoder = await startVideoEncoder({ format: 'mp4', width: 1280, height: 720, outFile });
    await assert.rejects(async () => {
      for (let i = 0; i < 30; i++) await encoder.writeFrame(Buffer.from('not a jpeg at all'.repeat(100)));
      await encoder.finish();
    });
    await assert.rejects(fs.stat(outFile), { code: 'ENOENT' });

    const aborted = path.join(dir, 'aborted.webm');
    const other = await startVideoEncoder({ format: 'webm', width: 1280, height: 720, outFile: aborted });
    await other.writeFrame(jpegs[0]!);
    await other.abort();
    await other.abort();
    await assert.rejects(fs.stat(aborted), { code: 'ENOENT' });
    await assert.rejects(other.writeFrame(jpegs[0]!));

    // A clean capture whose pictures cannot be decoded for its small frames fails whole, and leaves none of its files.
    const capture = path.join(dir, 'bad-capture.mkv');
    const small = path.join(dir, 'bad-capture.small.gray');
    const muxer = await startVideoEncoder({ format: 'mp4', capture: true, width: 640, height: 480, outFile: capture, smallFrames: small });
    await assert.rejects(async () => {
      for (let i = 0; i < 10; i++) await muxer.writeFrame(Buffer.from(`not a jpeg ${i}`.repeat(100)));
      await muxer.finish();
    });
    for (const file of [capture, small, paletteSamplesFile(small)]) await assert.rejects(fs.stat(file), { code: 'ENOENT' });
  });
});
