import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp, TestUser } from '../helpers/app.js';
import type { FixtureServer } from '../helpers/fixture-server.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

/**
 * Issue 55, end to end: a prompt that asks for something the page does not have. The worker records the beat it
 * found, and the demo says, in its API answer, its dashboard page and its recording log, what it could not find.
 */
describe('a demo whose prompt asks for something the page lacks', () => {
  let env: WorkerApp;
  let app: TestApp;
  let user: TestUser;
  let sites: FixtureServer;

  before(async () => {
    env = await startWorkerApp({ credits: 20 });
    ({ app, user, sites } = env);
  });
  after(() => env.stop());

  // The SaaS fixture has pricing and no podcast; the prompt's markup is what a careless or hostile user might type.
  const prompt = 'Show the <i>podcast</i>, then end on the pricing';
  const warning = 'Couldn’t find “the <i>podcast</i>” on this page; the video shows the parts that were found.';

  it('says so in the API, the dashboard (escaped) and the recording log, and a restyle keeps saying it', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'SaaS', url: sites.url('saas') } })).body;
    const created = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt, resolution: '720p', duration_target: '5s' } })).body;
    const { progress } = await env.waitForOutcome(created.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');

    const demo = (await app.api(`/api/v1/demos/${created.id}`, { key: user.key })).body;
    assert.deepEqual(demo.warnings, [warning]);
    // The plan frames the pricing and nothing in the podcast's place.
    const framed = JSON.parse(demo.ai_plan).steps.filter((step: { action: string }) => step.action === 'focus').map((step: { sectionId: string }) => step.sectionId);
    assert.deepEqual([...new Set(framed)], ['pricing']);
    const log = JSON.parse(demo.recording_log) as Array<{ action: string; target: string | null }>;
    assert.deepEqual(log.filter((entry) => entry.action === 'not-found').map((entry) => entry.target), [warning]);
    // The list of demos carries them too.
    const listed = (await app.api('/api/v1/demos', { key: user.key })).body.demos.find((d: { id: string }) => d.id === created.id);
    assert.deepEqual(listed.warnings, [warning]);

    // The owner's page says it, with the prompt's words as text, never as markup.
    const origin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    const signedIn = await fetch(`${app.url}/app/sign-in`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const page = await (await fetch(`${app.url}/app/demos/${created.id}`, { headers: { cookie } })).text();
    const box = /<div class="warning" role="status" data-warnings>([\s\S]*?)<\/div>/.exec(page)?.[1];
    assert.ok(box, 'the page has a warnings box');
    assert.match(box, /<li>Couldn’t find “the &lt;i&gt;podcast&lt;\/i&gt;” on this page; the video shows the parts that were found\.<\/li>/);
    assert.doesNotMatch(page, /<i>podcast<\/i>/, 'the typed markup is never markup');

    // A restyle re-records the same plan: the same beat is missing, and the new version says so.
    const restyle = await app.api(`/api/v1/demos/${created.id}/restyle`, { key: user.key, body: { presentation: { background: '#223344' } } });
    assert.equal(restyle.status, 202, restyle.text);
    assert.equal((await env.waitForOutcome(created.id)).progress.status, 'ready');
    const restyled = (await app.api(`/api/v1/demos/${created.id}`, { key: user.key })).body;
    assert.equal(restyled.version, 2);
    assert.deepEqual(restyled.warnings, [warning]);
  });
});
