import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startWorkerApp, type WorkerApp } from '../../helpers/worker-app.js';

/**
 * Issue 59: with narration off the video is byte for byte what it was before narration existed. The pipeline is
 * deterministic on a fixture page (frames captured on demand, a seeded plan), so a demo whose presentation says
 * `narration: {enabled: false}` must be the very same file as one whose presentation has no narration at all (the
 * pipeline as it was), with a server that has a speech engine configured (the engine is never asked).
 */
describe('a demo with narration off', () => {
  let env: WorkerApp;
  before(async () => {
    env = await startWorkerApp({ credits: 10, env: { SHOWREEL_SPEECH: 'openai', SHOWREEL_SPEECH_BASE_URL: 'http://127.0.0.1:9' } });
  });
  after(() => env?.stop());

  it('is the same video, byte for byte, as one made without the member', async () => {
    const { app, user, sites } = env;
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Docs', url: sites.url('docs') } })).body;
    const make = async (presentation: object | null) => {
      const created = await app.api('/api/v1/demos', {
        key: user.key,
        body: { project_id: project.id, prompt: 'A quick tour of the docs', resolution: '720p', duration_target: '5s', ...(presentation ? { presentation } : {}) },
      });
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const { progress } = await env.waitForOutcome(created.body.id);
      assert.equal(progress.status, 'ready', progress.error ?? '');
      const video = Buffer.from(await (await fetch(`${app.url}/video/${created.body.id}.mp4`)).arrayBuffer());
      const detail = (await app.api(`/api/v1/demos/${created.body.id}`, { key: user.key })).body;
      return { sha: createHash('sha256').update(video).digest('hex'), bytes: video.length, narration: detail.narration, durationMs: detail.duration_ms };
    };
    const without = await make(null);
    const off = await make({ narration: { enabled: false, voice: 'nova', speed: 1.1 } });
    assert.ok(without.bytes > 10_000);
    assert.equal(off.sha, without.sha, `narration off: ${off.bytes} bytes; without the member: ${without.bytes} bytes`);
    assert.equal(off.narration, null);
    assert.equal(off.durationMs, 5000, 'the planned length: nothing stretched');
  });
});
