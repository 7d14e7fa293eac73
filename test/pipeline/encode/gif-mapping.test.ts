import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gifColours, gifPaletteUse } from '../../../src/pipeline/encode/derive.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { gifColourTable, mapGifFrame } from '../../../src/pipeline/encode/gif-mapping.js';
import { fileArg, runTool } from '../../../src/pipeline/encode/run-tool.js';

const W = 320;
const H = 180;
const FRAMES = 6;

describe('GIF frames mapped onto their palette', () => {
  let dir: string;
  let ffmpeg: string;
  const ff = async (args: string[]) => {
    const result = await runTool(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], 60_000);
    assert.equal(result.exitCode, 0, result.stderr);
    return result.stdout;
  };
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gif-mapping-'));
    ({ ffmpeg } = await ffmpegBinaries());
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('gives every pixel the palette index ffmpeg’s paletteuse gives it, and passes the palette on as paletteuse does', async () => {
    // Colourful frames with smooth ramps (where a dither shows) and flat areas, cut to the GIF's colours as the
    // compositor hands them over, and a palette made from them as the GIF's palette is made (palettegen).
    const source = `testsrc2=s=${W}x${H}:r=12:d=${FRAMES / 12},format=rgb24,geq=r='X*255/W':g='(p(X,Y)+Y*255/H)/2':b='p(X,Y)',${gifColours()}`;
    const frames = await ff(['-f', 'lavfi', '-i', source, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
    assert.equal(frames.length, W * H * 3 * FRAMES);
    const rgbFile = path.join(dir, 'frames.rgb');
    await fs.writeFile(rgbFile, frames);
    const raw = ['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${W}x${H}`, '-framerate', '12', '-i', fileArg(rgbFile)];
    const palette = path.join(dir, 'palette.png');
    await ff([...raw, '-vf', 'palettegen', '-frames:v', '1', '-update', '1', '-f', 'image2', fileArg(palette)]);
    const expected = await ff([...raw, '-i', fileArg(palette), '-filter_complex', `[0:v][1:v]${gifPaletteUse()}`, '-f', 'rawvideo', '-pix_fmt', 'pal8', 'pipe:1']);

    const table = await gifColourTable(ffmpeg, palette, dir);
    const frameBytes = W * H * 3;
    const mapped = Buffer.concat(Array.from({ length: FRAMES }, (_, i) => mapGifFrame(frames.subarray(i * frameBytes, (i + 1) * frameBytes), W, H, table)));
    assert.equal(mapped.length, expected.length);
    let differing = 0;
    for (let i = 0; i < mapped.length; i++) if (mapped[i] !== expected[i]) differing++;
    assert.equal(differing, 0, `${differing} of ${mapped.length} bytes differ from paletteuse's`);
    assert.deepEqual(await fs.readdir(dir), ['frames.rgb', 'palette.png'], 'the table’s input is removed');
  });

  it('refuses a frame of the wrong size', async () => {
    const palette = path.join(dir, 'grey.png');
    await ff(['-f', 'lavfi', '-i', `color=c=gray:s=16x16:d=0.1,format=rgb24,${gifColours()}`, '-vf', 'palettegen', '-frames:v', '1', '-update', '1', '-f', 'image2', fileArg(palette)]);
    const table = await gifColourTable(ffmpeg, palette, dir);
    assert.throws(() => mapGifFrame(Buffer.alloc(10), W, H, table), /RGB frame/);
  });
});
