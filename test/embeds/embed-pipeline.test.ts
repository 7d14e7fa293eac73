import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

/** A dynamic embed end to end: the worker records the embedding page (on the project's site), not the project URL. */
describe('recording a dynamic embed', () => {
  let env: WorkerApp;
  before(async () => {
    env = await startWorkerApp({ credits: 5 });
  });
  after(() => env.stop());

  it('records the page the embed sits on, with its context stored for the planner', async () => {
    const { app, user, sites } = env;
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'SaaS', url: sites.url('saas') } })).body;
    const page = `${sites.url('docs')}#install`;
    const answer = await app.api('/api/v1/embed/generate', {
      key: user.key,
      body: { project_id: project.id, prompt: 'Show the getting started guide', context: { url: page, title: 'Docs', headings: ['Getting started'] } },
    });
    assert.equal(answer.status, 202, answer.text);
    const { progress } = await env.waitForOutcome(answer.body.demoId);
    assert.equal(progress.status, 'ready', progress.error ?? '');
    const demo = (await app.api(`/api/v1/demos/${answer.body.demoId}`, { key: user.key })).body;
    assert.equal(JSON.parse(demo.action_script).url, sites.url('docs'));
    assert.equal(JSON.parse(demo.context).title, 'Docs');
    const again = await app.api('/api/v1/embed/generate', { key: user.key, body: { project_id: project.id, prompt: 'Show the getting started guide', context: { url: page } } });
    assert.deepEqual([again.status, again.body.status, again.body.cached], [200, 'ready', true]);
  });
});
