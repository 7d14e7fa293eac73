import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { captureSizeFor, composeVideo } from '../../../src/pipeline/compose/compose.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { clickTimeline } from './compose-fixture.js';

const run = promisify(execFile);

/**
 * The default presentation looks as it did before the compositor was made cheaper (issue 39): frames of a composed
 * video against frames the compositor made before that work (test/fixtures/compose/look-*.png, 720p). The capture
 * is ffmpeg's testsrc2 as JPEG (full range, as the browser's pictures are): colour bars, gradients and moving
 * shapes, so a shifted level, a lost pixel row or a moved layer all show; at the recording's size in the window,
 * as the recorder captures it, so it takes the compositor's usual path (placed, not scaled). Within a small tolerance, since the
 * frames come out of a lossy encode (and a conversion may round a level differently).
 *
 * The references are written, instead of compared, with WRITE_LOOK_REFERENCES=1: only ever from a compositor whose
 * look is the one to keep.
 */
const REFERENCES = path.resolve(import.meta.dirname, '../../fixtures/compose');
const TIMES = [
  { name: 'intro', seconds: 0.5 }, // the window rising in: drawn apart from the frames at rest (its own layer, scaled)
  // after the window's intro: the window at rest, the cursor moving, the zoom on the click under way (its path is
  // the camera's: this reference was taken again when the zoom's steps became sub-pixel, issue 58)
  { name: 'rest', seconds: 1.0 },
  { name: 'zoomed', seconds: 2.0 }, // zoomed in on the click, its effect drawn
];
const SIZE = { width: 1280, height: 720 };
/** captured at the size the recording has in the window, as the recorder captures: frames placed, not scaled */
const CAPTURE = captureSizeFor(null, '720p', SIZE);
const FRAME_NAMES: Record<string, string> = { intro: 'of the window rising in', rest: 'at rest', zoomed: 'zoomed on a click' };
/** mean absolute difference per RGB channel, in levels of 255; a 1-level shift of everything is 1.0 */
const TOLERANCE = 0.5;

describe('the composed look', () => {
  let dir: string;
  let browser: Browser;
  let video: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-look-'));
    const { ffmpeg } = await ffmpegBinaries();
    const capture = path.join(dir, 'capture.mkv');
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=${CAPTURE.width}x${CAPTURE.height}:r=30:d=4`, '-c:v', 'mjpeg', '-q:v', '2', '-f', 'matroska', capture]);
    browser = await launchBrowser({ allowPrivate: true });
    video = path.join(dir, 'out.mp4');
    await composeVideo({
      cleanFile: capture,
      timeline: clickTimeline(4000, SIZE),
      presentation: null,
      format: 'mp4',
      resolution: '720p',
      outFile: video,
      page: await browser.newPage(),
      workDir: dir,
      templateId: 'guided-tour',
    });
  });
  after(async () => {
    await browser?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  for (const { name, seconds } of TIMES) {
    it(`is the one it was before the compositor got cheaper: the frame ${FRAME_NAMES[name]}`, async () => {
      const frame = await rgbFrame(video, seconds);
      const reference = path.join(REFERENCES, `look-${name}.png`);
      if (process.env.WRITE_LOOK_REFERENCES === '1') {
        const { ffmpeg } = await ffmpegBinaries();
        await fs.mkdir(REFERENCES, { recursive: true });
        const raw = path.join(dir, `${name}.rgb`);
        await fs.writeFile(raw, frame);
        await run(ffmpeg, ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${SIZE.width}x${SIZE.height}`, '-i', raw, '-frames:v', '1', reference]);
        return;
      }
      const expected = await rgbFrame(reference, 0);
      const diff = meanAbsDiff(frame, expected);
      assert.ok(diff <= TOLERANCE, `the ${name} frame differs from the reference by ${diff.toFixed(3)} levels on average (at most ${TOLERANCE})`);
    });
  }
});

async function rgbFrame(file: string, seconds: number): Promise<Buffer> {
  const { ffmpeg } = await ffmpegBinaries();
  const { stdout } = await run(ffmpeg, ['-v', 'error', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: 16 * 1024 * 1024,
  });
  const data = stdout as unknown as Buffer;
  assert.equal(data.length, SIZE.width * SIZE.height * 3, `a ${SIZE.width}x${SIZE.height} frame of ${path.basename(file)}`);
  return data;
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += Math.abs(a[i]! - b[i]!);
  return total / a.length;
}
