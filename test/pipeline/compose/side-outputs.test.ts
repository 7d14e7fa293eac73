import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { deriveThumbnail } from '../../../src/pipeline/encode/derive.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { CAPTURE_BLUE, type ComposeFixture, decodeFrame, near, startComposeFixture } from './compose-fixture.js';

const run = promisify(execFile);

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

  it('maps the GIF onto a palette made from the plate and the capture beside the compositor, not after it', async () => {
    const video = await fixture.render(null, { sideOutputs: true });
    const { gif } = video.composed;
    assert.ok(gif);
    // The palette made beforehand (gif-palette.ts) is the GIF's own: every colour of its colour table is in it.
    const { ffmpeg } = await ffmpegBinaries();
    const palettePng = path.join(path.dirname(video.file), 'compose', 'gif-palette.png');
    const { stdout: rgb } = await run(ffmpeg, ['-v', 'error', '-i', palettePng, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: 1 << 20 });
    const palette = new Set<string>();
    for (let i = 0; i + 2 < rgb.length; i += 3) palette.add(`${rgb[i]},${rgb[i + 1]},${rgb[i + 2]}`);
    const table = gifColourTable(await fs.readFile(gif.file));
    assert.ok(table.length > 0, 'the GIF has a global colour table');
    const strangers = table.filter((colour) => !palette.has(colour));
    assert.deepEqual(strangers, [], 'no colour of the GIF comes from elsewhere');
    // Made of the plate and the capture: the capture's blue and the window's white are among its colours (6 bits a channel).
    const six = (c: number) => c & 252;
    const has = (target: number[]) => table.some((colour) => colour.split(',').map(Number).every((c, i) => Math.abs(c - six(target[i]!)) <= 8));
    assert.ok(has([...CAPTURE_BLUE]), `the capture's blue is in ${table.length} colours`);
  });
});

/** The colours of a GIF's global colour table ("r,g,b"), [] without one. */
function gifColourTable(gif: Buffer): string[] {
  const flags = gif[10]!;
  if ((flags & 0x80) === 0) return [];
  const size = 2 ** ((flags & 0x07) + 1);
  const colours: string[] = [];
  for (let i = 0; i < size; i++) colours.push(`${gif[13 + 3 * i]},${gif[14 + 3 * i]},${gif[15 + 3 * i]}`);
  return colours;
}
