import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ContactSheetError, renderContactSheet, sheetLayout, type SheetLayout } from '../../../src/pipeline/encode/contact-sheet.js';
import { resolveFfmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { spreadEvenly } from '../../../src/pipeline/encode/frame-times.js';
import { labelFont } from '../../../src/pipeline/encode/label-font.js';
import { pngDimensions } from '../../../src/platform/media-signatures.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-request.js';
import { frameAt, frameDifference } from '../../helpers/video-frames.js';
import { makeMediaFixtures, type MediaFixtures } from '../media-fixtures.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

/** Videos this file needs beyond the shared fixtures. */
interface SheetFixtures {
  /** 320x180, 3 s: brightness rises evenly from black at 0 s to white at 3 s, so a frame's brightness tells its time */
  ramp: string;
  /** 180x320 (a phone held upright), 2 s, VP9 WebM, moving test pattern */
  portrait: string;
  /** 160x120, 3 frames: fewer than a sheet has tiles */
  threeFrames: string;
  /** a fragmented MP4 cut after its header: a video stream with no frame, as from a recording stopped at once */
  empty: string;
}

async function makeSheetFixtures(dir: string): Promise<SheetFixtures> {
  const { ffmpeg } = await resolveFfmpegBinaries();
  const at = (name: string) => path.join(dir, name);
  const make = (args: string[]) => run(ffmpeg, ['-v', 'error', '-nostdin', '-y', ...args]);
  const h264 = ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'];
  await Promise.all([
    make(['-f', 'lavfi', '-i', 'color=c=white:size=320x180:rate=30:duration=3', '-vf', 'fade=in:st=0:d=3', ...h264, at('ramp.mp4')]),
    make(['-f', 'lavfi', '-i', 'testsrc2=size=180x320:rate=30', '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k', at('portrait.webm')]),
    make(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-frames:v', '3', ...h264, at('three-frames.mp4')]),
    make(['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30', '-t', '1', ...h264, '-movflags', 'frag_keyframe+empty_moov', at('fragmented.mp4')]),
  ]);
  const fragmented = await fs.readFile(at('fragmented.mp4'));
  await fs.writeFile(at('empty.mp4'), fragmented.subarray(0, fragmented.indexOf('moof') - 4));
  return { ramp: at('ramp.mp4'), portrait: at('portrait.webm'), threeFrames: at('three-frames.mp4'), empty: at('empty.mp4') };
}

/** The sheet's pixels, and one tile's (in reading order) as RGB. */
async function readSheet(file: string, layout: SheetLayout): Promise<{ pixels: Buffer; tile(index: number, part?: 'all' | 'lower-half'): Buffer }> {
  const pixels = await frameAt(file, 0, layout.width, layout.height);
  return {
    pixels,
    tile(index, part = 'all') {
      const left = layout.gap + (index % layout.columns) * (layout.tileWidth + layout.gap);
      const top = layout.gap + Math.floor(index / layout.columns) * (layout.tileHeight + layout.gap);
      const firstRow = part === 'lower-half' ? Math.ceil(layout.tileHeight / 2) : 0;
      const rows: Buffer[] = [];
      for (let y = top + firstRow; y < top + layout.tileHeight; y++) {
        const start = (y * layout.width + left) * 3;
        rows.push(pixels.subarray(start, start + layout.tileWidth * 3));
      }
      return Buffer.concat(rows);
    },
  };
}

const meanOf = (rgb: Buffer) => rgb.reduce((sum, value) => sum + value, 0) / rgb.length;

describe('contact sheet', () => {
  let media: MediaFixtures;
  let videos: SheetFixtures;
  let fontInstalled: boolean;
  const out = (name: string) => path.join(media.dir, name);
  before(async () => {
    media = await makeMediaFixtures();
    [videos, fontInstalled] = await Promise.all([makeSheetFixtures(media.dir), labelFont().then((font) => font !== null)]);
  });
  after(() => media.cleanup());

  it('spreads picks evenly from the first frame to the last, never repeating one', () => {
    const frames = Array.from({ length: 101 }, (_, i) => i / 10); // 0 to 10 s
    assert.deepEqual(spreadEvenly(frames, 4), [0, 3.3, 6.7, 10], 'the frames nearest 0, 3.33, 6.67 and 10 s');
    assert.deepEqual(spreadEvenly(frames, 1), [5], 'a single pick is the middle');
    assert.deepEqual(spreadEvenly([0, 0.5, 1], 12), [0, 0.5, 1], 'each frame once when there are fewer than picks');
    assert.deepEqual(spreadEvenly([], 12), []);
  });

  it('sizes the sheet from the tile math: tile height follows the aspect ratio', () => {
    assert.deepEqual(sheetLayout({ width: 1920, height: 1080 }), { columns: 4, rows: 3, tileWidth: 480, tileHeight: 270, gap: 8, width: 1960, height: 842 });
    const portrait = sheetLayout({ width: 1080, height: 1920 }, { columns: 3, rows: 2, tileWidth: 200 });
    assert.equal(portrait.tileHeight, 356);
    assert.equal(portrait.height, 2 * 356 + 3 * 8);
    assert.throws(() => sheetLayout({ width: 320, height: 240 }, { columns: 0 }), RangeError);
    assert.throws(() => sheetLayout({ width: 320, height: 240 }, { rows: 2.5 }), RangeError);
    assert.throws(() => sheetLayout({ width: 320, height: 240 }, { tileWidth: 4000 }), RangeError);
  });

  it('renders 4×3 frames of an MP4 at even times, first frame to last, as one PNG, over any older sheet', async () => {
    await fs.writeFile(out('mp4.png'), 'an older sheet');
    const sheet = await renderContactSheet(media.mp4, out('mp4.png'));
    const layout = sheetLayout({ width: 320, height: 240 });
    assert.deepEqual(pngDimensions(await fs.readFile(out('mp4.png'))), { width: 1960, height: 3 * 360 + 4 * 8 });
    assert.deepEqual({ width: sheet.width, height: sheet.height, tiles: sheet.tiles }, { width: layout.width, height: layout.height, tiles: 12 });
    assert.equal(sheet.outFile, out('mp4.png'));
    assert.equal(sheet.labelled, fontInstalled);
    // 2 s at 30 fps: frames at 0, 33, ... 1967 ms. Picks every 1967/11 ms, each on the nearest frame (±half a frame).
    assert.equal(sheet.timesMs[0], 0);
    assert.equal(sheet.timesMs[11], 1967);
    sheet.timesMs.forEach((ms, i) => assert.ok(Math.abs(ms - (1967 * i) / 11) <= 17, `even steps: ${sheet.timesMs.join(', ')}`));
  });

  it('shows in each tile the frame of its time, in reading order', async () => {
    const sheet = await renderContactSheet(videos.ramp, out('ramp.png'), { tileWidth: 160 });
    const layout = sheetLayout({ width: 320, height: 180 }, { tileWidth: 160 });
    const pixels = await readSheet(out('ramp.png'), layout);
    const levels = sheet.timesMs.map((_, i) => meanOf(pixels.tile(i, 'lower-half')));
    sheet.timesMs.forEach((ms, i) => {
      // The fixture fades in linearly over 3 s, so brightness is 255 × t / 3 s (give or take video coding).
      const expected = (255 * ms) / 3000;
      assert.ok(Math.abs(levels[i]! - expected) < 16, `tile ${i} at ${ms} ms: brightness ${levels[i]!.toFixed(1)}, expected ${expected.toFixed(1)}`);
    });
    assert.ok(levels.every((level, i) => i === 0 || level > levels[i - 1]! + 10), `brighter tile after tile: ${levels.map((l) => l.toFixed(0)).join(', ')}`);
  });

  it('takes a portrait WebM: tall tiles, every one a different frame', async () => {
    const sheet = await renderContactSheet(videos.portrait, out('portrait.png'), { columns: 3, rows: 2, tileWidth: 180 });
    const layout = sheetLayout({ width: 180, height: 320 }, { columns: 3, rows: 2, tileWidth: 180 });
    assert.equal(layout.tileHeight, 320);
    assert.deepEqual(pngDimensions(await fs.readFile(out('portrait.png'))), { width: 3 * 180 + 4 * 8, height: 2 * 320 + 3 * 8 });
    assert.equal(sheet.tiles, 6);
    const pixels = await readSheet(out('portrait.png'), layout);
    const tiles = Array.from({ length: 6 }, (_, i) => pixels.tile(i, 'lower-half'));
    for (let a = 0; a < tiles.length; a++) {
      for (let b = a + 1; b < tiles.length; b++) {
        const difference = frameDifference(tiles[a]!, tiles[b]!);
        assert.ok(difference > 2, `tiles ${a} and ${b} differ by only ${difference.toFixed(2)}`);
      }
    }
  });

  it('keeps the grid when the clip has fewer frames than tiles, showing each frame once', async () => {
    const sheet = await renderContactSheet(videos.threeFrames, out('three.png'), { columns: 2, rows: 2, tileWidth: 160 });
    assert.deepEqual(sheet.timesMs, [0, 100, 200]);
    assert.deepEqual(pngDimensions(await fs.readFile(out('three.png'))), { width: 2 * 160 + 3 * 8, height: 2 * 120 + 3 * 8 });
    const layout = sheetLayout({ width: 160, height: 120 }, { columns: 2, rows: 2, tileWidth: 160 });
    const pixels = await readSheet(out('three.png'), layout);
    assert.ok(meanOf(pixels.tile(2)) > 30, 'the third tile holds a frame');
    assert.ok(Math.abs(meanOf(pixels.tile(3)) - 0x2b) < 2, 'the fourth is background');
  });

  it('labels tiles with their time (a font is always at hand: Chromium ships one), and leaves them bare on request', async () => {
    assert.equal(fontInstalled, true);
    const layout = sheetLayout({ width: 320, height: 180 }, { columns: 1, rows: 1, tileWidth: 320 });
    const labelled = await renderContactSheet(videos.ramp, out('labelled.png'), { columns: 1, rows: 1, tileWidth: 320 });
    const bare = await renderContactSheet(videos.ramp, out('bare.png'), { columns: 1, rows: 1, tileWidth: 320, labels: false });
    assert.equal(labelled.labelled, true);
    assert.equal(bare.labelled, false);
    const [withLabel, without] = await Promise.all([readSheet(out('labelled.png'), layout), readSheet(out('bare.png'), layout)]);
    assert.ok(frameDifference(withLabel.tile(0), without.tile(0)) > 1, 'the label changes the tile');
    assert.ok(frameDifference(withLabel.tile(0, 'lower-half'), without.tile(0, 'lower-half')) < 1, 'only in its corner');
  });

  it('explains a missing file, a file that is not a video and a video without frames', async () => {
    await assert.rejects(renderContactSheet(out('nothing.mp4'), out('x.png')), (error: Error) => {
      assert.ok(error instanceof ContactSheetError);
      assert.equal(error.message, `There is no file at ${out('nothing.mp4')}.`);
      return true;
    });
    await assert.rejects(renderContactSheet(media.dir, out('x.png')), { name: 'ContactSheetError', message: `${media.dir} is not a file.` });
    for (const file of [media.garbage, media.audioOnly, media.png]) {
      await assert.rejects(renderContactSheet(file, out('x.png')), { name: 'ContactSheetError', message: `${file} is not a readable MP4 or WebM video.` });
    }
    await assert.rejects(renderContactSheet(videos.empty, out('x.png')), { name: 'ContactSheetError', message: `${videos.empty} is a zero-length video: it holds no frames.` });
    await assert.rejects(renderContactSheet(media.mp4, out('x.png'), { columns: 13 }), RangeError);
    await assert.rejects(fs.stat(out('x.png')), { code: 'ENOENT' });
  });
});

/** Variables of the test runner and the server that must not leak into the script. */
const SCRUBBED = /^(DATABASE_URL|TEST_DATABASE_URL|TEST_LOG_LEVEL|NODE_TEST_CONTEXT|LOG_LEVEL|SHOWREEL_.*|S3_.*)$/;

interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runProcess(command: string, args: string[], cwd: string, extraEnv: Record<string, string>): Promise<ScriptRun> {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !SCRUBBED.test(name))), ...extraEnv };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `node --import tsx scripts/contact-sheet.ts ...args` from the repository, with node_modules/.bin/node. */
function runScript(args: string[], env: Record<string, string> = {}): Promise<ScriptRun> {
  const node = path.join(root, 'node_modules', '.bin', 'node');
  return runProcess(node, ['--import', 'tsx', path.join(root, 'scripts', 'contact-sheet.ts'), ...args], root, env);
}

/** `npm run contact-sheet -- ...args` typed in `cwd`, as an operator does (npm itself moves to the repository). */
function runNpmScript(args: string[], cwd: string): Promise<ScriptRun> {
  const npm = process.env.npm_execpath;
  const npmArgs = ['--prefix', root, 'run', '--silent', 'contact-sheet', '--', ...args];
  return npm ? runProcess(process.execPath, [npm, ...npmArgs], cwd, {}) : runProcess('npm', npmArgs, cwd, {});
}

describe('npm run contact-sheet', () => {
  let media: MediaFixtures;
  let app: TestApp;
  let user: TestUser;
  let projectId: string;
  const out = (name: string) => path.join(media.dir, name);
  before(async () => {
    [media, app] = await Promise.all([makeMediaFixtures(), startTestApp()]);
    user = await app.createUser();
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Sheets', url: 'https://sheets.example' } })).body.id;
  });
  after(async () => {
    await app.stop();
    await media.cleanup();
  });
  const serverEnv = () => ({ DATABASE_URL: app.databaseUrl, SHOWREEL_DATA_DIR: app.dataDir });

  it('writes the sheet of a video file where --out says and prints its path', async () => {
    const result = await runScript([media.mp4, '--out', out('script.png'), '--columns', '2', '--rows', '2']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${out('script.png')}\n`);
    assert.deepEqual(pngDimensions(await fs.readFile(out('script.png'))), { width: 2 * 480 + 3 * 8, height: 2 * 360 + 3 * 8 });
  });

  it('names the sheet after the file, in the directory npm was called from, by default', async () => {
    const result = await runNpmScript(['video.webm', '--rows', '1'], media.dir);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${path.join(media.dir, 'contact-sheet-video.png')}\n`);
    assert.deepEqual(pngDimensions(await fs.readFile(out('contact-sheet-video.png'))), { width: 1960, height: 360 + 2 * 8 });
  });

  it('fetches a demo video from storage by demo id, whoever owns it', async () => {
    const uploaded = await rawRequest(app.url, `/api/v1/demos/local-upload?project_id=${projectId}&prompt=x`, {
      body: await fs.readFile(media.mp4),
      headers: { 'content-type': 'video/mp4', authorization: `Bearer ${user.key}` },
    });
    assert.equal(uploaded.status, 201, uploaded.body.toString());
    const demoId: string = uploaded.json().id;
    const result = await runScript([demoId, '--columns', '3', '--rows', '1', '--out', out('demo.png')], serverEnv());
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${out('demo.png')}\n`);
    assert.deepEqual(pngDimensions(await fs.readFile(out('demo.png'))), { width: 3 * 480 + 4 * 8, height: 360 + 2 * 8 });
  });

  it('fails with one line for a bad file, an unknown demo and a demo with no video yet', async () => {
    const queued = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show the pricing page' } });
    assert.equal(queued.status, 202, queued.text);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const cases: [string[], RegExp][] = [
      [[media.garbage], /^Contact sheet failed: .*garbage\.bin is not a readable MP4 or WebM video\.\n$/],
      [[out('missing.mp4')], /^Contact sheet failed: There is no file at .*missing\.mp4\.\n$/],
      [[unknown], new RegExp(`^Contact sheet failed: There is no demo ${unknown}\\.\\n$`)],
      [[queued.body.id], /^Contact sheet failed: Demo .* has no video yet \(status: \w+\)\.\n$/],
      [[media.mp4, '--columns', 'four'], /^--columns must be a whole number\. Usage: npm run contact-sheet -- .*\n$/],
      [[], /^Name a demo id or a video file\. Usage: .*\n$/],
    ];
    const results = await Promise.all(cases.map(([args]) => runScript(args, serverEnv())));
    cases.forEach(([args, stderr], i) => {
      assert.equal(results[i]!.code, 1, `${args.join(' ')}: ${results[i]!.stderr}`);
      assert.match(results[i]!.stderr, stderr);
      assert.equal(results[i]!.stdout, '');
    });
  });
});
