import assert from 'node:assert/strict';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { inTransaction } from '../../src/platform/command.js';
import { createSecretBox } from '../../src/platform/secrets.js';
import { notifyDemoWebhooks } from '../../src/webhooks/index.js';
import { createWebhookEndpoint } from '../../src/webhooks/commands.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startWebhookReceiver, type ReceivedCall, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { startWorkerApp, type WorkerApp } from '../helpers/worker-app.js';

/** What a receiver does (docs/decisions.md has it for customers): recompute the HMAC, compare, check the time. */
function verifySignature(secret: string, call: ReceivedCall, toleranceSeconds = 300): boolean {
  const header = String(call.headers['showreel-signature'] ?? '');
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const expected = createHmac('sha256', secret).update(`${timestamp}.${call.body}`).digest('hex');
  const given = parts.get('v1') ?? '';
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected)) && Math.abs(Date.now() / 1000 - timestamp) <= toleranceSeconds;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Deliveries to a receiver on 127.0.0.1 (SHOWREEL_ALLOW_PRIVATE_URLS, as in development), by the real worker. */
describe('delivering demo events to a project’s endpoints', () => {
  let env: WorkerApp;
  let app: TestApp;
  let user: TestUser;
  let receiver: WebhookReceiver;

  before(async () => {
    [env, receiver] = await Promise.all([startWorkerApp({ credits: 20 }), startWebhookReceiver()]);
    ({ app, user } = env);
  });
  after(async () => {
    await env.stop();
    await receiver.close();
  });

  const newProject = async (url = 'https://site.example') => (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Site', url } })).body as { id: string };
  const register = async (projectId: string, path: string, events: string[]) => {
    const created = await app.api(`/api/v1/projects/${projectId}/webhooks`, { key: user.key, body: { url: receiver.url(path), events } });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; secret: string };
  };
  const deliveries = async (projectId: string, webhookId: string) =>
    (await app.api(`/api/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`, { key: user.key })).body.deliveries as any[];

  it('signs demo.changed with the endpoint’s secret and carries the change summary; other subscribers hear nothing', async () => {
    const project = await newProject();
    const hook = await register(project.id, '/changed', ['demo.changed', 'demo.unchanged']);
    const readyOnly = await register(project.id, '/ready-only', ['demo.ready']);
    const summary = ['Pricing: Pro $12 → $15 per user', 'New section: Integrations', "'Start free trial' is now 'Try it free'"];
    const queued = await notifyDemoWebhooks(app.sql, {
      projectId: project.id,
      demoId: 'demo-1',
      type: 'demo.changed',
      data: { summary, before_thumbnail_url: 'https://showreel.example/thumb/demo-1.png?v=1', after_thumbnail_url: 'https://showreel.example/thumb/demo-1.png?v=2' },
    });
    assert.equal(queued.deliveries, 1, 'only the endpoint subscribed to demo.changed');

    const call = await receiver.waitForCall('/changed');
    assert.ok(verifySignature(hook.secret, call), `the signature verifies: ${String(call.headers['showreel-signature'])}`);
    assert.ok(!verifySignature(hook.secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), call), 'and not with another secret');
    assert.equal(call.headers['content-type'], 'application/json');
    const body = JSON.parse(call.body);
    assert.equal(body.id, queued.eventId);
    assert.equal(call.headers['showreel-event-id'], queued.eventId, 'the event id is in the header too, for dedupe');
    assert.equal(call.headers['showreel-event-type'], 'demo.changed');
    assert.equal(body.type, 'demo.changed');
    assert.deepEqual(body.data.summary, summary);
    assert.equal(body.data.project_id, project.id);
    assert.equal(body.data.demo_id, 'demo-1');
    assert.match(body.data.after_thumbnail_url, /\?v=2$/);

    const [logged] = await waitFor(() => deliveries(project.id, hook.id), (d) => d[0]?.status === 'delivered', 'the delivery log');
    assert.equal(logged.attempts, 1);
    assert.equal(logged.response_status, 200);
    assert.equal(logged.event_id, queued.eventId);
    assert.deepEqual(await deliveries(project.id, readyOnly.id), []);
    assert.equal(receiver.calls.filter((c) => c.path === '/ready-only').length, 0);
  });

  it('retries a receiver that answers 500, with backoff, the same event and body, and logs only an excerpt of its answer', async () => {
    const project = await newProject();
    const hook = await register(project.id, '/flaky', ['demo.unchanged']);
    receiver.failNext('/flaky', [500], `<html>${'stack trace '.repeat(2000)}</html>`);
    const queued = await notifyDemoWebhooks(app.sql, { projectId: project.id, demoId: 'demo-2', type: 'demo.unchanged', data: { checked_at: new Date().toISOString() } });

    const first = await receiver.waitForCall('/flaky');
    const [retrying] = await waitFor(() => deliveries(project.id, hook.id), (d) => d[0]?.status === 'retrying', 'the first failure logged');
    assert.equal(retrying.attempts, 1);
    assert.equal(retrying.response_status, 500);
    assert.match(retrying.error, /HTTP 500/);
    assert.ok(retrying.response_excerpt.length <= 500 && retrying.response_excerpt.startsWith('<html>stack trace'), 'a bounded excerpt of the answer');
    const waitMs = Date.parse(retrying.next_attempt_at) - Date.parse(retrying.last_attempt_at);
    assert.ok(waitMs >= 29_000 && waitMs <= 31_000, `the first retry waits 30 s, not ${waitMs} ms`);
    const [job] = await app.sql<{ id: string; run_at: Date }[]>`
      select j.id::text, j.run_at from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'webhook_deliver' and j.payload->>'deliveryId' = ${retrying.id}`;
    assert.ok(job, 'the next attempt is a queued job');
    assert.equal(job.run_at.toISOString(), new Date(retrying.next_attempt_at).toISOString());

    // Thirty seconds later, in test time: the job is made due now.
    await app.sql`update graphile_worker._private_jobs set run_at = now() where id = ${job.id}::bigint`;
    const second = await receiver.waitForCall('/flaky', 2);
    assert.equal(second.body, first.body, 'the same body');
    assert.equal(second.headers['showreel-event-id'], queued.eventId, 'the same event id: a receiver that got both can drop one');
    assert.ok(verifySignature(hook.secret, second));
    const [delivered] = await waitFor(() => deliveries(project.id, hook.id), (d) => d[0]?.status === 'delivered', 'the retry logged');
    assert.equal(delivered.attempts, 2);
    assert.equal(delivered.error, null);
    assert.equal(delivered.next_attempt_at, null);
  });

  it('signs with the new secret once it is rotated', async () => {
    const project = await newProject();
    const hook = await register(project.id, '/rotated', ['demo.ready']);
    const { secret } = (await app.api(`/api/v1/projects/${project.id}/webhooks/${hook.id}/rotate-secret`, { key: user.key, method: 'POST' })).body;
    await notifyDemoWebhooks(app.sql, { projectId: project.id, demoId: 'demo-3', type: 'demo.ready', data: {} });
    const call = await receiver.waitForCall('/rotated');
    assert.ok(verifySignature(secret, call));
    assert.ok(!verifySignature(hook.secret, call), 'the old secret no longer verifies');
  });

  it('queues nothing when the transaction that reports the event rolls back', async () => {
    const project = await newProject();
    const hook = await register(project.id, '/rolled-back', ['demo.ready']);
    await assert.rejects(
      inTransaction(app.sql, async (tx) => {
        await notifyDemoWebhooks(tx, { projectId: project.id, demoId: 'demo-4', type: 'demo.ready', data: {} });
        throw new Error('the job’s outcome did not commit');
      }),
    );
    assert.deepEqual(await deliveries(project.id, hook.id), []);
  });

  it('sends demo.ready when a recorded demo is ready, with the new version’s media, and demo.failed when a job fails', async () => {
    const project = await newProject(env.sites.url('saas'));
    const hook = await register(project.id, '/outcomes', ['demo.ready', 'demo.failed']);
    const created = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.id, prompt: 'Show our pricing plans', resolution: '720p', duration_target: '10s' } })).body;
    const { progress } = await env.waitForOutcome(created.id);
    assert.equal(progress.status, 'ready', progress.error ?? '');

    const call = await receiver.waitForCall('/outcomes');
    assert.ok(verifySignature(hook.secret, call));
    const body = JSON.parse(call.body);
    assert.equal(body.type, 'demo.ready');
    assert.equal(body.data.demo_id, created.id);
    assert.equal(body.data.job_id, created.jobId);
    assert.equal(body.data.kind, 'generate');
    assert.equal(body.data.version, 1);
    assert.ok(body.data.title, 'the title the recording gave it');
    const thumbnail = await fetch(body.data.thumbnail_url);
    assert.equal(thumbnail.status, 200, body.data.thumbnail_url);
    assert.equal(thumbnail.headers.get('content-type'), 'image/png');
    assert.match(body.data.video_url, new RegExp(`/video/${created.id}\\.mp4\\?v=1$`));

    // The project's page now answers 404: the refresh fails for good, and the endpoint hears so.
    await app.api(`/api/v1/projects/${project.id}`, { key: user.key, method: 'PATCH', body: { url: `${env.sites.origin}/no-such-site/` } });
    const refresh = (await app.api(`/api/v1/demos/${created.id}/refresh`, { key: user.key, method: 'POST' })).body;
    const failed = JSON.parse((await receiver.waitForCall('/outcomes', 2, 120_000)).body);
    assert.equal(failed.type, 'demo.failed');
    assert.equal(failed.data.job_id, refresh.jobId);
    assert.equal(failed.data.kind, 'refresh');
    assert.match(failed.data.error, /404/);
  });
});

/** As in production (no SHOWREEL_ALLOW_PRIVATE_URLS): the egress guard at delivery time. */
describe('delivering to an endpoint whose host is private', () => {
  const masterKey = randomBytes(32).toString('hex');
  let app: TestApp;
  let user: TestUser;
  let receiver: WebhookReceiver;

  before(async () => {
    [app, receiver] = await Promise.all([
      startTestApp({ SHOWREEL_RUN_WORKER: 'true', SHOWREEL_ALLOW_PRIVATE_URLS: '0', SHOWREEL_MASTER_KEY: masterKey }),
      startWebhookReceiver(),
    ]);
    user = await app.createUser();
  });
  after(async () => {
    await app.stop();
    await receiver.close();
  });

  it('refuses the delivery, logs it as refused with the reason, and does not retry it', async () => {
    const project = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Site', url: 'https://93.184.215.14/' } })).body;
    // Registering such an address through the API is refused outright...
    const refused = await app.api(`/api/v1/projects/${project.id}/webhooks`, { key: user.key, body: { url: receiver.url('/internal').replace('http:', 'https:'), events: ['demo.ready'] } });
    assert.equal(refused.status, 400);
    // ...so this endpoint stands for one whose public name came to resolve to a private address after it was registered.
    const { webhookId } = await inTransaction(app.sql, (tx) =>
      createWebhookEndpoint(tx, createSecretBox(Buffer.from(masterKey, 'hex')), { projectId: project.id, userId: user.userId, url: receiver.url('/internal'), events: ['demo.ready'] }, { actor: 'test' }),
    );
    await notifyDemoWebhooks(app.sql, { projectId: project.id, demoId: 'demo-5', type: 'demo.ready', data: {} });

    const path = `/api/v1/projects/${project.id}/webhooks/${webhookId}/deliveries`;
    const [logged] = await waitFor(async () => (await app.api(path, { key: user.key })).body.deliveries as any[], (d) => d[0] && d[0].status !== 'pending', 'the attempt');
    assert.equal(logged.status, 'refused');
    assert.equal(logged.attempts, 1);
    assert.match(logged.error, /loopback address/);
    assert.match(logged.error, /public addresses/);
    assert.equal(logged.next_attempt_at, null);
    const [counted] = await app.sql<{ queued: number }[]>`
      select count(*)::int as queued from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'webhook_deliver'`;
    assert.equal(counted?.queued, 0, 'no attempt is left queued');
    assert.equal(receiver.calls.length, 0, 'nothing reached the private address');
  });
});
