import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { queuedJobs } from '../helpers/pipeline.js';

/**
 * The first demos a fresh installation is asked for, by several accounts at once: all of them create the job
 * queue's task row at the same moment, and each charge reads its account (nothing remembered yet) right behind.
 */
describe('the first demos on a fresh database', () => {
  let app: TestApp;
  const users: Array<{ user: TestUser; projectId: string }> = [];

  before(async () => {
    app = await startTestApp({ SHOWREEL_RATE_LIMIT_PER_KEY: '0', SHOWREEL_RATE_LIMIT_PER_USER: '0' });
    for (let i = 0; i < 8; i++) {
      const user = await app.createUser({ credits: 10 });
      const project = await app.api('/api/v1/projects', { key: user.key, body: { name: `Site ${i}`, url: `https://site${i}.example` } });
      users.push({ user, projectId: project.body.id });
    }
  });
  after(() => app.stop());

  it('are each accepted once, with one job and one charge', async () => {
    const responses = await Promise.all(
      users.map(({ user, projectId }) => app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show the signup flow' } })),
    );
    assert.deepEqual(responses.map((r) => r.status), Array(users.length).fill(202));
    const jobs = await queuedJobs(app.sql, 'demo_generate');
    assert.deepEqual(jobs.map((j) => j.payload.demoId).sort(), responses.map((r) => r.body.id).sort());
    for (const { user } of users) {
      assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, 9);
      assert.equal((await app.api('/api/v1/demos', { key: user.key })).body.demos.length, 1);
    }
  });
});
