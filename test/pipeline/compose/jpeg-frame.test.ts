import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { jpegFrameInfo } from '../../../src/pipeline/compose/jpeg-frame.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { fileArg, runTool } from '../../../src/pipeline/encode/run-tool.js';

// Composing ahead reads the capture's size and chroma layout from its first JPEG, before any file exists: it must
// say what ffprobe says of the same picture.
describe("a capture frame's JPEG header", () => {
  it('gives the size and pixel format ffprobe gives, for 4:2:0, 4:2:2 and 4:4:4 pictures', async () => {
    const { ffmpeg, ffprobe } = await ffmpegBinaries();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-jpeg-'));
    try {
      for (const pixelFormat of ['yuvj420p', 'yuvj422p', 'yuvj444p']) {
        const file = path.join(dir, `${pixelFormat}.jpg`);
        const made = await runTool(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=322x182', '-frames:v', '1', '-pix_fmt', pixelFormat, fileArg(file)], 30_000);
        assert.equal(made.exitCode, 0, made.stderr);
        const probe = await runTool(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,pix_fmt', '-of', 'json', fileArg(file)], 30_000);
        const [stream] = (JSON.parse(probe.stdout.toString()) as { streams: Array<{ width: number; height: number; pix_fmt: string }> }).streams;
        assert.deepEqual(jpegFrameInfo(await fs.readFile(file)), { width: stream!.width, height: stream!.height, pixelFormat: stream!.pix_fmt });
        assert.equal(stream!.pix_fmt, pixelFormat);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not a JPEG it can read', () => {
    assert.equal(jpegFrameInfo(Buffer.from('not a picture')), null);
    assert.equal(jpegFrameInfo(Buffer.from([0xff, 0xd8, 0xff, 0xd9])), null);
    assert.equal(jpegFrameInfo(Buffer.alloc(0)), null);
  });
});
