import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { completeDemoJob, DEMO_VERSIONS_EXPIRE_TASK, removeExpiredVersionMedia, startDemoJob } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { createLocalStorage, mediaKey } from '../../src/platform/storage/index.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { queuedJobs } from '../helpers/pipeline.js';

/**
 * Versions kept (issue 35): each recording keeps its media under its own version, served by `?v=N`; past the
 * retention a job removes the files of old versions (never the one shown) and records it, after which the version
 * is listed as not kept and cannot be restored.
 */
describe('demo versions and their retention', () => {
  let app: TestApp;
  let user: TestUser;
  let demoId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 20 });
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Versions', url: 'https://v.example/' } })).body;
    demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'Tour', duration_target: '5s' } })).body.id;
  });
  after(() => app.stop());

  /** Stands in for the worker: the version's files (their bytes name it), then the job completed with their keys. */
  async function publish(warnings?: string[]): Promise<number> {
    const [demo] = await app.sql<{ latest_job_id: string; latest_version: number }[]>`select latest_job_id, latest_version from demos where id = ${demoId}`;
    const version = demo!.latest_version + 1;
    const keys = { videoKey: mediaKey(demoId, version, 'video', 'mp4'), thumbnailKey: mediaKey(demoId, version, 'thumbnail', 'png'), gifKey: mediaKey(demoId, version, 'gif', 'gif') };
    for (const key of Object.values(keys)) {
      const file = path.join(app.dataDir, 'media', ...key.split('/'));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, `version ${version}`);
    }
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, demoId, demo!.latest_job_id, 1, { actor: 'pipeline' });
      await completeDemoJob(tx, { demoId, jobId: demo!.latest_job_id, ...keys, durationMs: 5000, actionScript: '{"steps":[]}', ...(warnings ? { warnings } : {}) }, { actor: 'pipeline' });
    });
    return version;
  }
  const refresh = () => app.api(`/api/v1/demos/${demoId}/refresh`, { key: user.key, method: 'POST' });
  const media = async (query: string) => {
    const response = await fetch(`${app.url}/video/${demoId}.mp4${query}`);
    return { status: response.status, text: await response.text() };
  };

  it('serves each version by ?v=N and the current one without it; a restored version numbers the next recording after the latest', async () => {
    assert.equal(await publish(), 1);
    assert.equal((await refresh()).status, 202);
    assert.equal(await publish(), 2);
    assert.equal((await media('?v=1')).text, 'version 1');
    assert.equal((await media('?v=2')).text, 'version 2');
    assert.equal((await media('')).text, 'version 2');
    assert.equal((await media('?v=2024-01-01T00:00:00Z')).text, 'version 2', 'a cache-buster that is not a version is ignored');

    const restored = await app.api(`/api/v1/demos/${demoId}/versions/1/restore`, { key: user.key, method: 'POST' });
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.body.version, 1);
    assert.equal((await media('')).text, 'version 1');
    assert.equal((await refresh()).status, 202);
    assert.equal((await app.api(`/api/v1/demos/${demoId}/versions/2/restore`, { key: user.key, method: 'POST' })).status, 409, 'not while a job runs');
    assert.equal(await publish(), 3, 'after v2, whatever was restored');
    const stranger = await app.createUser();
    assert.equal((await app.api(`/api/v1/demos/${demoId}/versions/1/restore`, { key: stranger.key, method: 'POST' })).status, 404);
    assert.equal((await app.api(`/api/v1/demos/${demoId}/versions/9/restore`, { key: user.key, method: 'POST' })).status, 404);
  });

  it('removes old versions’ media in a job queued by each new version, keeping the last ones and the one shown', async () => {
    const jobs = await queuedJobs(app.sql, DEMO_VERSIONS_EXPIRE_TASK);
    assert.ok(jobs.some((job) => job.payload.demoId === demoId), 'queued with the new version, not done in the request');
    // Restore v1, then keep 1: v3 is the most recent, v1 is shown, v2 goes.
    assert.equal((await app.api(`/api/v1/demos/${demoId}/versions/1/restore`, { key: user.key, method: 'POST' })).status, 200);
    const storage = createLocalStorage(path.join(app.dataDir, 'media'));
    assert.deepEqual(await removeExpiredVersionMedia(app.sql, storage, demoId, 1, { actor: 'test' }), [2]);
    assert.deepEqual(await removeExpiredVersionMedia(app.sql, storage, demoId, 1, { actor: 'test' }), [], 'once');
    await assert.rejects(fs.stat(path.join(app.dataDir, 'media', 'demos', demoId, 'v2')), 'its files are gone');
    assert.equal((await media('?v=2')).status, 404);
    assert.equal((await media('?v=1')).text, 'version 1');
    assert.equal((await media('?v=3')).text, 'version 3');
    const { versions } = (await app.api(`/api/v1/demos/${demoId}/versions`, { key: user.key })).body;
    assert.deepEqual(versions.map((v: any) => [v.version, v.current, v.kept, v.made_by]), [[3, false, true, 'refresh'], [2, false, false, 'refresh'], [1, true, true, 'generate']]);
    assert.equal(versions[1].video_url, null);
    const gone = await app.api(`/api/v1/demos/${demoId}/versions/2/restore`, { key: user.key, method: 'POST' });
    assert.equal(gone.status, 409);
    assert.match(gone.body.error, /no longer kept/);
  });

  it('shows the warnings of the version shown: a restored version says its own again (issue 55)', async () => {
    const warned = 'Couldn’t find “the roadmap” on this page; the video shows the parts that were found.';
    const warnings = async () => (await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body.warnings;
    assert.equal((await refresh()).status, 202);
    const first = await publish([warned]);
    assert.deepEqual(await warnings(), [warned]);
    assert.equal((await refresh()).status, 202);
    await publish([]);
    assert.deepEqual(await warnings(), [], 'the page has the roadmap now');
    assert.equal((await app.api(`/api/v1/demos/${demoId}/versions/${first}/restore`, { key: user.key, method: 'POST' })).status, 200);
    assert.deepEqual(await warnings(), [warned]);
  });
});
