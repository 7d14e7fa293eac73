import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { reportDemoProgress } from '../../../src/demos/index.js';
import { inTransaction } from '../../../src/platform/command.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { failJob, finishJob } from '../../helpers/pipeline.js';

/** Collects a socket's messages; `next()` waits for the next one. */
function watch(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const messages: any[] = [];
  const waiters: Array<(m: any) => void> = [];
  let closed: { code: number } | null = null;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else messages.push(message);
  });
  const closedPromise = new Promise<{ code: number }>((resolve) => socket.on('close', (code) => resolve((closed = { code }))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
    socket.once('error', reject);
  });
  return {
    opened,
    next: () => (messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no message within 5 s')), 5000);
      waiters.push((m) => { clearTimeout(timer); resolve(m); });
    })),
    closed: () => closedPromise,
    isClosed: () => closed !== null,
    close: () => socket.close(),
  };
}

describe('generation progress: polling and WebSocket', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 50 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Live', url: 'https://live.example' } })).body.id;
  });
  after(() => app.stop());

  const create = async () => (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour' } })).body;
  const wsUrl = (created: { wsUrl: string }) => created.wsUrl.replace(/^ws:\/\/[^/]+/, app.url.replace('http', 'ws'));

  it('sends the current state on connect, each change, and closes after ready', async () => {
    const created = await create();
    const socket = watch(`${wsUrl(created)}?token=${user.key}`);
    await socket.opened;
    const first = await socket.next();
    assert.deepEqual(Object.keys(first).sort(), ['error', 'id', 'phase', 'progress', 'status', 'step', 'updated_at']);
    assert.equal(first.status, 'pending');
    assert.equal(first.step, 'queued');

    await inTransaction(app.sql, (tx) => reportDemoProgress(tx, created.id, created.jobId, 'loading', 0.05, { actor: 'test' }));
    let message = await socket.next();
    assert.equal(message.step, 'loading');
    assert.equal(message.progress, 0.05);

    await finishJob(app.sql, created.id, created.jobId);
    do message = await socket.next();
    while (message.status !== 'ready');
    assert.equal(message.progress, 1);
    assert.equal((await socket.closed()).code, 1000);

    const polled = await app.api(`/api/v1/demos/${created.id}/progress`, { key: user.key });
    assert.equal(polled.body.status, 'ready');
    assert.equal(polled.body.progress, 1);
  });

  it('reports a failure with its error and closes', async () => {
    const created = await create();
    const socket = watch(wsUrl(created), { authorization: `Bearer ${user.key}` });
    await socket.opened;
    await socket.next();
    await failJob(app.sql, created.id, created.jobId, 'The page did not load within 30 s.');
    let message = await socket.next();
    while (message.status !== 'failed') message = await socket.next();
    assert.equal(message.error, 'The page did not load within 30 s.');
    assert.equal((await socket.closed()).code, 1000);
  });

  it('authenticates like the API: no credential 401, another user’s demo 404', async () => {
    const created = await create();
    await assert.rejects(watch(wsUrl(created)).opened, (error: { status?: number }) => error.status === 401);
    const stranger = await app.createUser();
    await assert.rejects(watch(`${wsUrl(created)}?token=${stranger.key}`).opened, (error: { status?: number }) => error.status === 404);
  });

  it('accepts the session cookie', async () => {
    const signIn = await app.api('/api/v1/auth/sign-in', { body: { email: user.email, password: user.password } });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const created = await create();
    const socket = watch(wsUrl(created), { cookie });
    await socket.opened;
    assert.equal((await socket.next()).id, created.id);
    socket.close();
  });

  it('nudges listeners at a demo’s changes, not at its creation, when no one can be watching its new id yet', async () => {
    const heard: string[] = [];
    const listening = await app.sql.listen('demo_progress', (demoId) => void heard.push(demoId));
    try {
      const created = await create();
      await inTransaction(app.sql, (tx) => reportDemoProgress(tx, created.id, created.jobId, 'planning', 0.1, {}));
      // Nudges leave after COMMIT, on any connection of the pool: wait for the report's, then a while for a late one.
      for (let waited = 0; !heard.includes(created.id) && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(heard.filter((id) => id === created.id), [created.id], 'one nudge, for the progress report');
    } finally {
      await listening.unlisten();
    }
  });
});
