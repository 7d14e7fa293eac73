import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import { probeVideo } from '../../src/pipeline/encode/probe.js';
import { ocrLines } from '../helpers/ocr.js';
import { browserProcesses } from '../helpers/processes.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

/**
 * Issue 59: a cut added to a demo that is already made. Asking for a 1:1 cut of a recorded 16:9 demo records
 * nothing: the cut is composed from the capture kept with the version shown, no browser page is opened, no credit
 * is charged, and the 16:9 video stays the very same file; the cut closes on the end card as the video does. The new version keeps the capture again, so a 9:16
 * cut can be added to it the same way.
 */
describe('adding a cut to a demo without recording it again', () => {
  let env: WorkerApp;
  let work: string;
  let ffmpeg: string;
  const run = promisify(execFile);

  before(async () => {
    ({ ffmpeg } = await ffmpegBinaries());
    env = await startWorkerApp({ credits: 10 });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-cut-later-'));
  });
  after(async () => {
    await env.stop();
    await fs.rm(work, { recursive: true, force: true });
  });

  const download = async (url: string, name: string) => {
    const response = await fetch(url.replace(/^https?:\/\/[^/]+/, env.app.url));
    assert.equal(response.status, 200, url);
    const file = path.join(work, name);
    await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
    return file;
  };
  const sha = async (file: string) => createHash('sha256').update(await fs.readFile(file)).digest('hex');
  const wordsAt = async (file: string, seconds: number) => {
    const png = `${file}-${seconds}.png`;
    await run(ffmpeg, ['-v', 'error', '-y', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', png]);
    return (await ocrLines(png)).map((line) => line.text).join('\n');
  };

  it('makes a 1:1, then a 9:16 cut from the kept capture: no page opened, no credit, the 16:9 video unchanged', async () => {
    const { app, user, sites } = env;
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Saas', url: sites.url('saas') } })).body;
    const created = await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'Show the pricing plans', resolution: '720p', duration_target: '5s', presentation: { endCard: { enabled: true } } },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const demoId = created.body.id as string;
    assert.equal((await env.waitForOutcome(demoId)).progress.status, 'ready');
    const first = (await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body;
    assert.deepEqual(first.variants, []);
    const wide = await sha(await download(`${app.url}/video/${demoId}.mp4`, 'v1.mp4'));
    const balance = (await app.api('/api/v1/credits', { key: user.key })).body.balance;

    const addCut = async (aspect: string[], version: number) => {
      const before = browserProcesses();
      const seen = new Set<number>();
      const watch = setInterval(() => {
        for (const pid of browserProcesses()) if (!before.has(pid)) seen.add(pid);
      }, 50);
      try {
        const restyled = await app.api(`/api/v1/demos/${demoId}/restyle`, { key: user.key, body: { presentation: { endCard: { enabled: true }, aspect } } });
        assert.equal(restyled.status, 202, JSON.stringify(restyled.body));
        const { progress, steps } = await env.waitForOutcome(demoId);
        assert.equal(progress.status, 'ready', progress.error ?? '');
        assert.ok(!steps.has('recording') && !steps.has('analyzing'), `nothing recorded: ${[...steps].join(', ')}`);
      } finally {
        clearInterval(watch);
      }
      assert.deepEqual([...seen], [], 'no browser process or page was started for the cut');
      const detail = (await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body;
      assert.equal(detail.version, version);
      assert.equal(detail.recording_log, first.recording_log, 'the recording is the one made first');
      assert.equal(await sha(await download(`${app.url}/video/${demoId}.mp4`, `v${version}.mp4`)), wide, 'the 16:9 video is the same file');
      return detail;
    };

    const square = await addCut(['16:9', '1:1'], 2);
    assert.deepEqual(square.variants.map((v: { aspect: string }) => v.aspect), ['1:1']);
    const squareFile = await download(square.variants[0].video_url, 'v2-1x1.mp4');
    const main = await probeVideo(path.join(work, 'v1.mp4'));
    const cut = await probeVideo(squareFile);
    assert.deepEqual([cut.width, cut.height], [720, 720]);
    assert.ok(Math.abs((cut.durationMs ?? 0) - (main.durationMs ?? 0)) <= 40, 'the cut is as long as the video');
    // It closes on the end card drawn for its frame when the video was made, as the video does (the page's name).
    const [wideCard, squareCard] = await Promise.all([wordsAt(path.join(work, 'v1.mp4'), 4.4), wordsAt(squareFile, 4.4)]);
    assert.match(wideCard, /Flowboard/);
    assert.match(squareCard, /Flowboard/, 'the 1:1 cut ends on the card too');

    const both = await addCut(['16:9', '1:1', '9:16'], 3);
    assert.deepEqual(both.variants.map((v: { aspect: string }) => v.aspect), ['1:1', '9:16']);
    assert.equal(await sha(await download(both.variants[0].video_url, 'v3-1x1.mp4')), await sha(squareFile), 'the 1:1 cut it had is kept as it was');
    const tallFile = await download(both.variants[1].video_url, 'v3-9x16.mp4');
    const tall = await probeVideo(tallFile);
    assert.deepEqual([tall.width, tall.height], [720, 1280]);

    // After a restore of v2, the next version is v4: its files go under v4/, and v3's stay what they were.
    assert.equal((await app.api(`/api/v1/demos/${demoId}/versions/2/restore`, { key: user.key, method: 'POST' })).status, 200);
    const again = await addCut(['16:9', '1:1', '9:16'], 4);
    assert.deepEqual(again.variants.map((v: { aspect: string }) => v.aspect), ['1:1', '9:16']);
    assert.equal(await sha(await download(`${app.url}/video/${demoId}.mp4?v=3&aspect=9x16`, 'v3-again-9x16.mp4')), await sha(tallFile), 'v3 kept its own cut');
    const [row] = await app.sql<{ video_key: string; variants: string; capture_key: string }[]>`select video_key, variants, capture_key from demo_versions where demo_id = ${demoId} and version = 4`;
    const prefix = `demos/${demoId}/v4/`;
    const keys = [row!.video_key, row!.capture_key, ...JSON.parse(row!.variants).flatMap((v: { videoKey: string; gifKey: string; thumbnailKey: string }) => [v.videoKey, v.gifKey, v.thumbnailKey])];
    assert.deepEqual(keys.filter((key: string) => !key.startsWith(prefix)), [], 'every file of v4 under v4/');

    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, balance, 'no credit for either cut');
  });
});
