/**
 * Uploads are metered (issue 34, finding 5): a 94 KB 4096×2304 @ 60 fps MP4 used to cost 3.5 s of ffmpeg in the API
 * process, with no cap on uploads in flight and 240 a minute per user allowed. Now the picture is bounded before
 * anything is derived, a user has a few uploads in flight at most, and the thumbnail and GIF are the worker's job.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { isAnimatedGif, sniffMedia } from '../../../src/platform/media-signatures.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-request.js';

const run = promisify(execFile);

/** A short test-pattern MP4 made with the bundled ffmpeg. */
async function makeVideo(folder: string, name: string, options: { size: string; rate: number; seconds: number }): Promise<Buffer> {
  const { ffmpeg } = await ffmpegBinaries();
  const file = path.join(folder, name);
  await run(ffmpeg, [
    '-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=${options.size}:rate=${options.rate}`, '-t', String(options.seconds),
    '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', file,
  ]);
  return fs.readFile(file);
}

describe('metered video uploads', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;
  let folder: string;
  let small: Buffer;

  before(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-metered-'));
    // The worker runs in this app: it derives the previews (no browser is launched for that).
    [app, small] = await Promise.all([
      startTestApp({ SHOWREEL_RUN_WORKER: 'true', WORKER_CONCURRENCY: '1', SHOWREEL_UPLOADS_PER_HOUR: '8' }),
      makeVideo(folder, 'small.mp4', { size: '320x240', rate: 30, seconds: 2 }),
    ]);
    user = await app.createUser();
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Uploads', url: 'https://uploads.example' } })).body.id;
  });
  after(async () => {
    await app?.stop();
    await fs.rm(folder, { recursive: true, force: true });
  });

  const uploadPath = () => `/api/v1/demos/local-upload?project_id=${projectId}&prompt=${encodeURIComponent('Recorded by hand')}`;
  const upload = (body: Buffer, key = user.key) =>
    rawRequest(app.url, uploadPath(), { body, headers: { 'content-type': 'video/mp4', authorization: `Bearer ${key}` } });
  const storedFiles = async () => (await fs.readdir(`${app.dataDir}/media`, { recursive: true }).catch(() => [])).filter((f) => /\.(mp4|webm|png|gif)$/.test(String(f)));

  it('refuses a 4096×2304 video with a 400 naming the limit, and stores nothing', async () => {
    const huge = await makeVideo(folder, 'huge.mp4', { size: '4096x2304', rate: 60, seconds: 0.5 });
    const before = await storedFiles();
    const response = await upload(huge);
    assert.equal(response.status, 400, response.body.toString());
    assert.deepEqual(response.json(), { error: 'The video is 4096×2304; the largest resolution taken is 3840×2160.' });
    assert.deepEqual(await storedFiles(), before, 'no video, thumbnail or GIF stored');
  });

  it('refuses a 120 fps video, naming the frame rate taken; a portrait 1080×1920 video is fine', async () => {
    const fast = await makeVideo(folder, 'fast.mp4', { size: '160x120', rate: 120, seconds: 0.5 });
    const refused = await upload(fast);
    assert.equal(refused.status, 400);
    assert.match(refused.json().error, /runs at 120 fps; the highest frame rate taken is 60 fps/);
    const portrait = await makeVideo(folder, 'portrait.mp4', { size: '1080x1920', rate: 30, seconds: 0.2 });
    assert.equal((await upload(portrait)).status, 201);
  });

  it('answers as soon as the video is stored; the worker then derives its thumbnail and GIF', async () => {
    const response = await upload(small);
    const answeredAt = Date.now();
    assert.equal(response.status, 201, response.body.toString());
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['embedUrl', 'id', 'jobId', 'shareUrl', 'status', 'videoUrl']);
    assert.equal(body.status, 'ready');
    assert.equal((await fetch(`${app.url}/video/${body.id}.mp4`)).status, 200, 'the video plays at once');

    // The previews come from the worker's task, after the answer: their files are written after it arrived.
    const deadline = Date.now() + 60_000;
    let thumb: Response;
    while ((thumb = await fetch(`${app.url}/thumb/${body.id}.png`)).status !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(thumb.status, 200, 'the worker derived the thumbnail');
    assert.equal(sniffMedia(Buffer.from(await thumb.arrayBuffer())), 'png');
    const thumbFile = (await storedFiles()).find((f) => String(f).includes(body.id) && String(f).endsWith('thumbnail.png'))!;
    const written = (await fs.stat(path.join(app.dataDir, 'media', String(thumbFile)))).mtimeMs;
    assert.ok(written > answeredAt - 5, `the thumbnail was written after the upload was answered (${Math.round(written - answeredAt)} ms)`);
    let gif: Response;
    while ((gif = await fetch(`${app.url}/gif/${body.id}.gif`)).status !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(isAnimatedGif(Buffer.from(await gif.arrayBuffer())), 'and the GIF');
    const [job] = await app.sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'demo_upload_derive' and j.key = ${`upload-derive:${body.id}`}`;
    assert.equal(job!.n, 0, 'the derive job ran and is gone from the queue');
  });

  it('holds at most two uploads of a user in flight: a third answers 429 with Retry-After, and a slot comes back', async () => {
    // Two uploads that send half their bytes and wait.
    const held = [0, 1].map(() => {
      const req = http.request(new URL(uploadPath(), app.url), {
        method: 'POST',
        headers: { 'content-type': 'video/mp4', authorization: `Bearer ${user.key}`, 'content-length': String(small.length) },
        agent: false,
      });
      req.on('error', () => undefined);
      req.write(small.subarray(0, small.length >> 1));
      return req;
    });
    try {
      // Until both are being received (the server has their slots).
      await new Promise((resolve) => setTimeout(resolve, 500));
      const third = await upload(small);
      assert.equal(third.status, 429, third.body.toString());
      assert.match(third.json().error, /at most 2 in flight per user/);
      assert.ok(Number(third.headers['retry-after']) > 0, 'Retry-After says when to come back');
      const other = await app.createUser();
      const otherProject = (await app.api('/api/v1/projects', { key: other.key, body: { name: 'Theirs', url: 'https://theirs.example' } })).body.id;
      const theirs = await rawRequest(app.url, `/api/v1/demos/local-upload?project_id=${otherProject}&prompt=x`, {
        body: small, headers: { 'content-type': 'video/mp4', authorization: `Bearer ${other.key}` },
      });
      assert.equal(theirs.status, 201, 'another user is not held up');
    } finally {
      for (const req of held) req.destroy();
    }
    const deadline = Date.now() + 10_000;
    let again = await upload(small);
    while (again.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await upload(small);
    }
    assert.equal(again.status, 201, 'once the held uploads are gone, the user uploads again');
  });

  it('limits a user to SHOWREEL_UPLOADS_PER_HOUR uploads an hour (429 with Retry-After), refused ones included', async () => {
    const heavy = await app.createUser();
    const project = (await app.api('/api/v1/projects', { key: heavy.key, body: { name: 'Heavy', url: 'https://heavy.example' } })).body.id;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 9; i++) {
      last = await rawRequest(app.url, `/api/v1/demos/local-upload?project_id=${project}&prompt=x`, {
        // Bytes that are no video: refused (415), but counted, as probing them is work too.
        body: i % 2 === 0 ? small : Buffer.from('not a video at all'),
        headers: { 'content-type': 'video/mp4', authorization: `Bearer ${heavy.key}` },
      });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [201, 415, 201, 415, 201, 415, 201, 415, 429]);
    assert.match(last!.json().error, /at most 8 video upload requests an hour/);
    assert.ok(Number(last!.headers['retry-after']) > 0);
  });
});
