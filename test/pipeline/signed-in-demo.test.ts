import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { TestApp, TestUser } from '../helpers/app.js';
import { SITE_USER, startSignInSite, type SignInSite } from '../helpers/sign-in-site.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

/**
 * Issue 56, end to end: a project whose page is behind a sign-in (it answers 302 to /login without a session). With
 * its sign-in recipe the worker records the app itself; with a wrong password the demo fails saying why, and the
 * credit comes back. The password is in no API answer, no log line and no stored event in clear.
 */
describe('a demo of an app behind a sign-in', () => {
  const password = 'Tr0ub4dor&3-sealed';
  let env: WorkerApp;
  let app: TestApp;
  let user: TestUser;
  let site: SignInSite;
  const logLines: string[] = [];

  before(async () => {
    const log = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    [env, site] = await Promise.all([startWorkerApp({ credits: 5, log }), startSignInSite({ password })]);
    ({ app, user } = env);
  });
  after(async () => {
    await env.stop();
    await site.close();
  });

  const createProject = async (name: string, signInPassword: string) => {
    const created = await app.api('/api/v1/projects', {
      key: user.key,
      body: { name, url: site.appUrl, access: { sign_in: { url: `${site.origin}/login`, username: SITE_USER, password: signInPassword } } },
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; access: unknown };
  };
  const requestDemo = async (projectId: string) => {
    const created = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show the invoices and their status', resolution: '720p', duration_target: '5s' } });
    assert.equal(created.status, 202, created.text);
    return created.body.id as string;
  };
  const balance = async () => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;

  it('signs in off camera and records the app, not its sign-in page', async () => {
    const project = await createProject('Ledgerly', password);
    const demoId = await requestDemo(project.id);
    const { progress } = await env.waitForOutcome(demoId);
    assert.equal(progress.status, 'ready', progress.error ?? '');

    const demo = (await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body;
    const plan = JSON.parse(demo.ai_plan) as { steps: Array<{ action: string; sectionId?: string }> };
    const framed = new Set(plan.steps.filter((step) => step.action === 'focus').map((step) => step.sectionId));
    assert.ok(framed.has('invoices'), `the video frames the app’s invoices (framed: ${[...framed].join(', ')})`);
    assert.deepEqual(demo.warnings, [], 'what the prompt asked for was on the recorded page');
    // The app saw one sign-in, with the recipe's user and password; the video starts after it.
    assert.deepEqual(site.posts, [{ email: SITE_USER, password }]);
    const log = JSON.parse(demo.recording_log) as Array<{ target?: string | null }>;
    assert.ok(!JSON.stringify(log).includes(password));
  });

  it('fails a sign-in that does not work with a clear reason, and refunds the credit', async () => {
    const wrong = 'not-it-at-all-7';
    const project = await createProject('Ledgerly, wrong password', wrong);
    const before = await balance();
    const demoId = await requestDemo(project.id);
    const { progress } = await env.waitForOutcome(demoId);
    assert.equal(progress.status, 'failed');
    assert.match(progress.error!, /^The sign-in did not work: after submitting, the page still asks for a password\. Check the project’s sign-in user name and password\.$/);
    assert.equal(await balance(), before, 'the credit is refunded');
    const demo = (await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body;
    assert.ok(!JSON.stringify(demo).includes(wrong));
  });

  it('holds the password in no answer, log line or stored event in clear', async () => {
    const answers = [await app.api('/api/v1/projects', { key: user.key }), await app.api('/api/v1/demos', { key: user.key })];
    for (const answer of answers) assert.ok(!answer.text.includes(password), 'in no API answer');
    assert.ok(logLines.length > 20, 'the app logged the jobs (the check reads real lines)');
    assert.ok(logLines.some((line) => line.includes('demo job failed')), 'including the failed sign-in');
    for (const secret of [password, 'not-it-at-all-7']) {
      assert.deepEqual(logLines.filter((line) => line.includes(secret)), [], 'in no log line');
      const [{ count }] = await app.sql<[{ count: number }]>`select count(*)::int as count from events where data::text like ${`%${secret}%`} or metadata::text like ${`%${secret}%`}`;
      assert.equal(count, 0, 'in no stored event');
    }
    const [{ sealed }] = await app.sql<[{ sealed: number }]>`select count(*)::int as sealed from events where type = 'ProjectCreated' and data->'siteAccess'->>'sealedCredentials' like 'v1.%'`;
    assert.equal(sealed, 2, 'each project’s recipe is stored, sealed');
  });
});
