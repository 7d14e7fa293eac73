import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureExecutable, findOnPath, resolveFfmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';

describe('ffmpeg binaries', () => {
  let dir: string;
  let fakeFfmpeg: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-bin-'));
    fakeFfmpeg = path.join(dir, 'ffmpeg');
    await fs.writeFile(fakeFfmpeg, '#!/bin/sh\necho fake\n', { mode: 0o755 });
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('prefers FFMPEG_PATH and FFPROBE_PATH', async () => {
    const binaries = await resolveFfmpegBinaries({ FFMPEG_PATH: fakeFfmpeg, FFPROBE_PATH: fakeFfmpeg, PATH: '' });
    assert.deepEqual(binaries, { ffmpeg: fakeFfmpeg, ffprobe: fakeFfmpeg });
  });

  it('names the variable when an explicit path is wrong, without falling back', async () => {
    await assert.rejects(resolveFfmpegBinaries({ FFMPEG_PATH: path.join(dir, 'nope'), PATH: dir }), /FFMPEG_PATH=.*nope/);
  });

  it('looks on PATH next, skipping relative and non-executable entries', async () => {
    const other = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-bin-'));
    after(() => fs.rm(other, { recursive: true, force: true }));
    await fs.writeFile(path.join(other, 'ffmpeg'), 'not a program', { mode: 0o644 });
    await fs.mkdir(path.join(other, 'ffprobe'));
    assert.equal(await findOnPath('ffmpeg', ['relative/bin', other, dir].join(path.delimiter)), fakeFfmpeg);
    assert.equal(await findOnPath('ffprobe', [other, dir].join(path.delimiter)), null);
    const binaries = await resolveFfmpegBinaries({ PATH: dir });
    assert.equal(binaries.ffmpeg, fakeFfmpeg);
  });

  it('falls back to the binaries installed with the npm packages', async () => {
    const binaries = await resolveFfmpegBinaries({ PATH: '' });
    assert.match(binaries.ffmpeg, /@ffmpeg-installer/);
    assert.match(binaries.ffprobe, /@ffprobe-installer/);
    for (const binary of [binaries.ffmpeg, binaries.ffprobe]) {
      assert.equal((await fs.stat(binary)).mode & 0o111, 0o111, `${binary} is executable by everyone`);
    }
  });

  it('adds the missing execute bits', async () => {
    const file = path.join(dir, 'ffprobe-0744');
    await fs.writeFile(file, '#!/bin/sh\n', { mode: 0o744 });
    await fs.chmod(file, 0o744);
    assert.equal(await ensureExecutable(file), file);
    assert.equal((await fs.stat(file)).mode & 0o777, 0o755);
    await assert.rejects(ensureExecutable(dir), /not a file/);
  });
});
