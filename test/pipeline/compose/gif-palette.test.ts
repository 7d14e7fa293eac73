import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { makeGifPalette } from '../../../src/pipeline/compose/gif-palette.js';
import { resolveFfmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { paletteSamplesFile, startVideoEncoder } from '../../../src/pipeline/encode/video-encoder.js';

const run = promisify(execFile);
const FRAMES = 45;

describe("the GIF's palette", () => {
  let dir: string;
  let ffmpeg: string;
  const geometry = { output: { width: 1280, height: 720 }, content: { x: 160, y: 80, width: 960, height: 540 }, gifWidth: 640 };
  const colours = async (png: string) => {
    const { stdout } = await run(ffmpeg, ['-v', 'error', '-i', png, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: 1 << 20 });
    const set = new Set<number>();
    for (let i = 0; i + 2 < stdout.length; i += 3) set.add((stdout[i]! << 16) | (stdout[i + 1]! << 8) | stdout[i + 2]!);
    return set;
  };
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-gif-palette-'));
    ({ ffmpeg } = await resolveFfmpegBinaries());
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('holds the colours of the page as its JPEGs have them (full range), from the muxer’s samples as from the capture', async () => {
    // A page of a few flat colours, as the screencast sends it (JPEG), on a plate of one colour.
    await run(ffmpeg, [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x3c3c3c:s=960x540:r=30',
      '-vf', "drawbox=x=0:y=0:w=480:h=540:color=0xb4b4b4:t=fill,drawbox=x=480:y=270:w=480:h=270:color=0xf0f0f0:t=fill",
      '-frames:v', String(FRAMES), '-q:v', '2', path.join(dir, 'f%02d.jpg'),
    ]);
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x2850a0:s=1280x720', '-frames:v', '1', path.join(dir, 'plate.png')]);
    const clean = path.join(dir, 'clean.mkv');
    const smallFrames = path.join(dir, 'clean.small.gray');
    const muxer = await startVideoEncoder({ format: 'mp4', capture: true, width: 960, height: 540, fps: 30, outFile: clean, smallFrames });
    for (let i = 1; i <= FRAMES; i++) await muxer.writeFrame(await fs.readFile(path.join(dir, `f${String(i).padStart(2, '0')}.jpg`)));
    await muxer.finish();
    const options = { ...geometry, plate: path.join(dir, 'plate.png'), cleanFile: clean, codec: 'mjpeg' };
    const fromSamples = await colours(await makeGifPalette({ ...options, samples: paletteSamplesFile(smallFrames), file: path.join(dir, 'samples.png') }));
    const fromCapture = await colours(await makeGifPalette({ ...options, samples: null, file: path.join(dir, 'capture.png') }));
    // The page's greys, cut to 6 bits a channel (60 → 60, 180 → 180, 240 → 240); read as TV range they came out as
    // 48, 192 and 252.
    for (const grey of [60, 180, 240]) {
      const colour = (grey << 16) | (grey << 8) | grey;
      assert.ok(fromSamples.has(colour), `grey ${grey} from the samples: ${[...fromSamples].map((c) => c.toString(16)).join(' ')}`);
      assert.ok(fromCapture.has(colour), `grey ${grey} from the capture`);
    }
  });
});
