import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { paletteSamplesFile, startSmallFrames } from '../../../src/pipeline/encode/small-frames.js';

const run = promisify(execFile);

describe('the capture\'s small frames', () => {
  let dir: string;
  let jpegs: Buffer[];
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-small-frames-'));
    const { ffmpeg } = await resolveFfmpegBinaries();
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=30', '-frames:v', '3', '-q:v', '3', path.join(dir, 'f%02d.jpg')]);
    jpegs = await Promise.all([1, 2, 3].map((i) => fs.readFile(path.join(dir, `f0${i}.jpg`))));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('writes a frame for every frame given, decoding only the new pictures', async () => {
    const file = path.join(dir, 'ok.small.gray');
    const small = await startSmallFrames({ file, fps: 30 });
    // Three pictures over 25 frames: 0-9 the first, 10-19 the second, 20-24 the third.
    for (let i = 0; i < 25; i++) await small.frame(jpegs[Math.floor(i / 10)]!, i % 10 === 0);
    assert.equal(await small.finish(), true);
    const grey = await fs.readFile(file);
    const frame = (k: number) => grey.subarray(k * 160 * 90, (k + 1) * 160 * 90);
    assert.equal(grey.length, 25 * 160 * 90);
    assert.ok(frame(0).equals(frame(9)) && frame(10).equals(frame(19)) && frame(20).equals(frame(24)));
    assert.ok(!frame(9).equals(frame(10)) && !frame(19).equals(frame(20)));
    // Frames 0, 10 and 20 in colour, one of each picture, in a file whose header says their size.
    const samples = await fs.readFile(paletteSamplesFile(file));
    assert.match(samples.subarray(0, 40).toString('latin1'), /^YUV4MPEG2 W160 H120 /);
    assert.equal(samples.toString('latin1').split('FRAME\n').length - 1, 3);
  });

  it('never fails the capture: a decoder that dies leaves no small frames, for compose to decode the capture itself', async () => {
    const file = path.join(dir, 'dead.small.gray');
    const small = await startSmallFrames({ file, fps: 30 });
    await small.frame(jpegs[0]!, true);
    process.kill(small.pid!, 'SIGKILL');
    // Frames given after it died are taken without complaint.
    for (let i = 1; i < 20; i++) await small.frame(jpegs[i % 3]!, true);
    assert.equal(await small.finish(), false);
    await assert.rejects(fs.stat(file), { code: 'ENOENT' });
    await assert.rejects(fs.stat(paletteSamplesFile(file)), { code: 'ENOENT' });
  });
});
