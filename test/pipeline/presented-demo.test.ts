import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';
import { frameAt } from '../helpers/video-frames.js';

const run = promisify(execFile);

/** End to end: a background the user uploads ends up behind the window of their demo. */
describe('a demo presented on an uploaded background', () => {
  let env: WorkerApp;
  let work: string;

  before(async () => {
    env = await startWorkerApp({ credits: 10 });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-presented-'));
  });
  after(async () => {
    await env.stop();
    await fs.rm(work, { recursive: true, force: true });
  });

  it('draws the uploaded image around a minimal window, from the demo’s presentation', async () => {
    const { app, user, sites } = env;
    const { ffmpeg } = await ffmpegBinaries();
    const { stdout: png } = await run(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x10c040:s=320x180', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', '-'], {
      encoding: 'buffer',
    });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'green.png');
    const uploaded = await fetch(`${app.url}/api/v1/backgrounds/upload`, { method: 'POST', headers: { authorization: `Bearer ${user.key}` }, body: form });
    assert.equal(uploaded.status, 201);
    const { imageUrl } = (await uploaded.json()) as { imageUrl: string };

    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Agency', url: sites.url('agency') } })).body;
    const presentation = { background: { imageUrl }, mockup: 'minimal', padding: 0.15, windowAnimation: { intro: false }, fade: { inMs: 0, outMs: 0 } };
    const created = await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'Show the work', resolution: '720p', duration_target: '5s', presentation },
    });
    assert.equal(created.status, 202);
    const { progress } = await env.waitForOutcome(created.body.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');

    const file = path.join(work, 'demo.mp4');
    await fs.writeFile(file, Buffer.from(await (await fetch(`${app.url}/video/${created.body.id}.mp4`)).arrayBuffer()));
    const frame = await frameAt(file, 2.5, 64, 36);
    const corner = [...frame.subarray(0, 3)];
    assert.ok(Math.abs(corner[0]! - 16) < 30 && Math.abs(corner[1]! - 192) < 30 && Math.abs(corner[2]! - 64) < 30, `green corner, not ${corner}`);
    const middle = [...frame.subarray((18 * 64 + 32) * 3, (18 * 64 + 32) * 3 + 3)];
    assert.ok(!(middle[1]! > 160 && middle[0]! < 60), `the page in the middle, not the background (${middle})`);
  });

  it('fails before recording, refunded, when the background image does not exist', async () => {
    const { app, user, sites } = env;
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Docs', url: sites.url('docs') } })).body;
    const balance = (await app.api('/api/v1/credits', { key: user.key })).body.balance;
    const imageUrl = `${app.url}/background/00000000-0000-4000-8000-000000000000.png`;
    const created = await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'Tour', resolution: '720p', duration_target: '5s', presentation: { background: { imageUrl } } },
    });
    assert.equal(created.status, 202);
    const { progress, steps } = await env.waitForOutcome(created.body.id);
    assert.equal(progress.status, 'failed');
    assert.match(progress.error ?? '', /background/i);
    assert.ok(!steps.has('recording'), `nothing was recorded (${[...steps]})`);
    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, balance, 'refunded');
  });
});
