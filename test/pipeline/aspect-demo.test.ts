import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { probeVideo } from '../../src/pipeline/encode/probe.js';
import { isAnimatedGif, sniffMedia } from '../../src/platform/media-signatures.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

/**
 * End to end, issue 59: a demo asked for in 16:9, 9:16 and 1:1 is recorded once and published with all three, each at
 * its own media URL, for the price of the demo alone (docs/decisions.md, "Aspect variants").
 */
describe('a demo with aspect variants', () => {
  let env: WorkerApp;
  let work: string;

  before(async () => {
    env = await startWorkerApp({ credits: 10 });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-aspect-demo-'));
  });
  after(async () => {
    await env.stop();
    await fs.rm(work, { recursive: true, force: true });
  });

  it('publishes the 16:9 video with a 9:16 and a 1:1 cut of the same recording, charged as one demo', async () => {
    const { app, user, sites } = env;
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Saas', url: sites.url('saas') } })).body;
    const balance = (await app.api('/api/v1/credits', { key: user.key })).body.balance;
    const created = await app.api('/api/v1/demos', {
      key: user.key,
      body: { project_id: project.id, prompt: 'Show the pricing plans', resolution: '720p', duration_target: '5s', presentation: { aspect: ['16:9', '9:16', '1:1'] } },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const { progress } = await env.waitForOutcome(created.body.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');
    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, balance - 1, 'one credit, as a 5 s demo without variants');

    const detail = (await app.api(`/api/v1/demos/${created.body.id}`, { key: user.key })).body;
    assert.deepEqual(detail.variants.map((v: { aspect: string }) => v.aspect), ['9:16', '1:1']);
    const fetchTo = async (url: string, name: string) => {
      const response = await fetch(url);
      assert.equal(response.status, 200, url);
      const file = path.join(work, name);
      await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
      return file;
    };
    const main = await probeVideo(await fetchTo(`${app.url}/video/${created.body.id}.mp4`, 'main.mp4'));
    assert.deepEqual([main.width, main.height], [1280, 720]);
    for (const [aspect, size] of [['9x16', [720, 1280]], ['1x1', [720, 720]]] as const) {
      const variant = detail.variants.find((v: { aspect: string }) => v.aspect === aspect.replace('x', ':'));
      const info = await probeVideo(await fetchTo(variant.video_url.replace(/^https?:\/\/[^/]+/, app.url), `${aspect}.mp4`));
      assert.deepEqual([info.width, info.height], size, aspect);
      assert.ok(Math.abs((info.durationMs ?? 0) - (main.durationMs ?? 0)) <= 40, `${aspect} is as long as the video`);
      assert.ok(isAnimatedGif(await fs.readFile(await fetchTo(`${app.url}/gif/${created.body.id}.gif?aspect=${aspect}`, `${aspect}.gif`))));
      assert.equal(sniffMedia(await fs.readFile(await fetchTo(`${app.url}/thumb/${created.body.id}.png?aspect=${aspect}`, `${aspect}.png`))), 'png');
    }
  });
});
