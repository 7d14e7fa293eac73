import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runScheduledRefresh } from '../../src/demos/index.js';
import { createLogger } from '../../src/platform/logger.js';
import { uploadDemo } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { finishJob } from '../helpers/pipeline.js';

describe('refresh triggers: project, deploy webhook and schedules', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 100 });
  });
  after(() => app.stop());

  /** A project with one ready generated demo, one still generating, and one uploaded. */
  async function projectWithDemos(schedule = 'manual') {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Site', url: 'https://site.example', refresh_schedule: schedule } })).body;
    const ready = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'Tour' } })).body;
    await finishJob(app.sql, ready.id, ready.jobId);
    const pending = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'Still going' } })).body;
    const uploadedId = crypto.randomUUID();
    await inTransaction(app.sql, (tx) =>
      uploadDemo(tx, {
        demoId: uploadedId, projectId: project.id, userId: user.userId, jobId: crypto.randomUUID(), prompt: 'Uploaded', title: null,
        format: 'mp4', resolution: '1080p', videoKey: 'k', gifKey: null, thumbnailKey: null, durationMs: 1000,
      }, { actor: 'test' }),
    );
    return { project, readyId: ready.id, pendingId: pending.id, uploadedId };
  }

  it('POST /projects/{id}/refresh queues only ready generated demos', async () => {
    const { project, readyId } = await projectWithDemos();
    const response = await app.api(`/api/v1/projects/${project.id}/refresh`, { key: user.key, method: 'POST' });
    assert.equal(response.status, 200);
    assert.equal(response.body.queued, 1);
    assert.equal(response.body.jobs.length, 1);
    const demo = (await app.api(`/api/v1/demos/${readyId}`, { key: user.key })).body;
    assert.equal(demo.latestJob.id, response.body.jobs[0]);
    assert.equal(demo.refreshHistory[0].triggered_by, 'project');

    const again = await app.api(`/api/v1/projects/${project.id}/refresh`, { key: user.key, method: 'POST' });
    assert.deepEqual(again.body, { queued: 0, jobs: [] }, 'a refresh in flight is not queued twice');
  });

  it('refuses to refresh or restyle an uploaded demo', async () => {
    const { uploadedId } = await projectWithDemos();
    const refresh = await app.api(`/api/v1/demos/${uploadedId}/refresh`, { key: user.key, method: 'POST' });
    assert.equal(refresh.status, 400);
    assert.match(refresh.body.error, /Uploaded demos cannot be refreshed/);
    const restyle = await app.api(`/api/v1/demos/${uploadedId}/restyle`, { key: user.key, body: { presentation: {} } });
    assert.equal(restyle.status, 400);
  });

  it('the deploy webhook refreshes with X-Webhook-Secret (or a live key) and nothing else', async () => {
    const { project, readyId } = await projectWithDemos();
    const url = `/api/v1/webhooks/projects/${project.id}/refresh`;

    const wrong = await app.api(url, { method: 'POST', headers: { 'x-webhook-secret': 'whsec_wrong' } });
    assert.equal(wrong.status, 401);
    assert.equal((await app.api(url, { method: 'POST' })).status, 401);
    // A publishable key is a credential of the wrong kind: 403, as everywhere it cannot be used.
    const publishable = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['shop.example'] } })).body.key;
    const withPublishable = await app.api(url, { method: 'POST', headers: { 'x-api-key': publishable } });
    assert.equal(withPublishable.status, 403);
    assert.match(withPublishable.body.error, /Publishable keys can only call POST \/api\/v1\/embed\/generate/);

    const refreshed = await app.api(url, { method: 'POST', headers: { 'x-webhook-secret': project.webhook_secret } });
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.refreshed, 1);
    assert.equal(refreshed.body.jobs[0].demoId, readyId);
    const demo = (await app.api(`/api/v1/demos/${readyId}`, { key: user.key })).body;
    assert.equal(demo.refreshHistory[0].triggered_by, 'webhook');
    await finishJob(app.sql, readyId, refreshed.body.jobs[0].jobId);

    const byKey = await app.api(url, { method: 'POST', key: user.key });
    assert.equal(byKey.status, 200);
    assert.equal(byKey.body.refreshed, 1);

    const stranger = await app.createUser();
    assert.equal((await app.api(url, { method: 'POST', key: stranger.key })).status, 404);
    // With a secret, an unknown project answers as a wrong secret does: the webhook tells nobody which ids exist.
    const unknown = await app.api('/api/v1/webhooks/projects/nope/refresh', { method: 'POST', headers: { 'x-webhook-secret': 'whsec_wrong' } });
    assert.deepEqual([unknown.status, unknown.body], [401, wrong.body]);
  });

  it("the deploy webhook takes whatever payload the deployment tool posts, and ignores it", async () => {
    const { project, readyId } = await projectWithDemos();
    const url = `/api/v1/webhooks/projects/${project.id}/refresh`;
    const payloads: Array<[string, string]> = [
      ['application/x-www-form-urlencoded', 'payload=%7B%22ref%22%3A%22main%22%7D'],
      ['application/json', JSON.stringify({ deployment: { state: 'success', projectId: 'not-this-one' } })],
      ['text/plain', 'deployed'],
    ];
    for (const [type, rawBody] of payloads) {
      const response = await app.api(url, { method: 'POST', rawBody, headers: { 'content-type': type, 'x-webhook-secret': project.webhook_secret } });
      assert.equal(response.status, 200, `${type}: ${response.text}`);
      assert.equal(response.body.refreshed, 1, type);
      assert.equal(response.body.jobs[0].demoId, readyId, 'the project is the one in the path');
      await finishJob(app.sql, readyId, response.body.jobs[0].jobId);
    }
    const tooLarge = await app.api(url, { method: 'POST', rawBody: 'x'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'text/plain', 'x-webhook-secret': project.webhook_secret } });
    assert.equal(tooLarge.status, 413);
  });

  it('daily and weekly schedules queue refreshes for their projects only', async () => {
    const daily = await projectWithDemos('daily');
    const weekly = await projectWithDemos('weekly');
    const logger = createLogger('silent');
    assert.equal(await runScheduledRefresh(app.sql, logger, 'daily'), 1);
    const dailyDemo = (await app.api(`/api/v1/demos/${daily.readyId}`, { key: user.key })).body;
    assert.equal(dailyDemo.refreshHistory[0].triggered_by, 'schedule');
    const weeklyDemo = (await app.api(`/api/v1/demos/${weekly.readyId}`, { key: user.key })).body;
    assert.equal(weeklyDemo.refreshHistory.length, 0);
    assert.equal(await runScheduledRefresh(app.sql, logger, 'daily'), 0, 'already in flight: not queued twice');
    assert.equal(await runScheduledRefresh(app.sql, logger, 'weekly'), 1);
  });

  it('takes JSON types strictly: a string is not a number or a boolean', async () => {
    const { project } = await projectWithDemos();
    for (const presentation of [{ padding: '0.1' }, { debugHud: 'false' }, { zoom: { enabled: 'true' } }]) {
      const response = await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'x', presentation } });
      assert.equal(response.status, 400, JSON.stringify(presentation));
    }
  });
});
