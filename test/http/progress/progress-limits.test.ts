import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { reportDemoProgress } from '../../../src/demos/index.js';
import { createHttpServer } from '../../../src/http/server.js';
import { inTransaction } from '../../../src/platform/command.js';
import { loadConfig } from '../../../src/platform/config.js';
import { connect, type Sql } from '../../../src/platform/database.js';
import { createLogger } from '../../../src/platform/logger.js';
import { createSecretBox } from '../../../src/platform/secrets.js';
import { createStorage } from '../../../src/platform/storage/index.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';

interface Watcher {
  socket: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  /** resolves with the n-th message (1-based) */
  message(n: number): Promise<any>;
}

function watch(url: string, headers: Record<string, string> = {}): Promise<Watcher> {
  const socket = new WebSocket(url, { headers });
  const messages: any[] = [];
  const waiters: Array<{ n: number; resolve: (m: any) => void }> = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const waiter of waiters.filter((w) => w.n <= messages.length)) waiter.resolve(messages[waiter.n - 1]);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const watcher: Watcher = {
    socket,
    messages,
    closed,
    message: (n) => (messages.length >= n ? Promise.resolve(messages[n - 1]) : new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message ${n} within 5 s`)), 5000);
      waiters.push({ n, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    })),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(watcher));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body, headers: res.headers })));
    });
    socket.once('error', reject);
  });
}

const refused = (status: number) => (error: { status?: number; body?: string }) => {
  assert.equal(error.status, status);
  assert.deepEqual(Object.keys(JSON.parse(error.body ?? '{}')), ['error']);
  return true;
};

/**
 * Issue 34, finding 3: the embed player's progress socket needs no credential, so what one client can make the
 * service do through it is bounded: one database read per progress notification however many sockets watch a demo,
 * a cap on sockets per client address and per demo, and no socket held open forever.
 */
describe('the progress socket: limits', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;

  before(async () => {
    app = await startTestApp({
      SHOWREEL_TRUSTED_PROXIES: '1',
      SHOWREEL_PROGRESS_SOCKETS_PER_ADDRESS: '3',
      SHOWREEL_PROGRESS_SOCKETS_PER_DEMO: '5',
      SHOWREEL_PROGRESS_SOCKET_IDLE_SECONDS: '1',
      SHOWREEL_PROGRESS_SOCKET_MAX_SECONDS: '3',
    });
    user = await app.createUser({ credits: 50 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Live', url: 'https://live.example' } })).body.id;
  });
  after(() => app.stop());

  const create = async () => (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour' } })).body as { id: string; jobId: string };
  const progress = (demo: { id: string; jobId: string }, step: string, value: number) =>
    inTransaction(app.sql, (tx) => reportDemoProgress(tx, demo.id, demo.jobId, step, value, { actor: 'test' }));

  it('reads the demo once per notification, however many sockets watch it', async () => {
    const demo = await create();
    // The same server the app runs, on a pool that counts the statements it sends (postgres.js's debug hook).
    const statements: string[] = [];
    const counted: Sql = connect(app.databaseUrl, { max: 10, debug: (_connection, query) => void statements.push(query) });
    const dataDir = app.dataDir;
    const config = loadConfig({ DATABASE_URL: app.databaseUrl, PORT: '0', SHOWREEL_DATA_DIR: dataDir, LOG_LEVEL: 'silent', SHOWREEL_PROGRESS_SOCKETS_PER_ADDRESS: '1000', SHOWREEL_PROGRESS_SOCKETS_PER_DEMO: '1000' });
    const { server, closeSockets } = createHttpServer({ sql: counted, config, secrets: createSecretBox(randomBytes(32)), storage: createStorage(config), logger: createLogger('silent') });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/embed/${demo.id}/ws`;
      const watchers = await Promise.all(Array.from({ length: 50 }, () => watch(url)));
      await Promise.all(watchers.map((w) => w.message(1)));
      const readsBefore = statements.length;

      await progress(demo, 'loading', 0.2);
      const received = await Promise.all(watchers.map((w) => w.message(2)));
      assert.ok(received.every((m) => m.step === 'loading' && m.progress === 0.2), 'every socket heard the change');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const reads = statements.slice(readsBefore).filter((q) => /\bfrom demos\b|\bdemo_jobs\b/i.test(q));
      assert.equal(reads.length, 1, `one read for 50 sockets, not ${reads.length}`);
    } finally {
      await closeSockets();
      await new Promise<void>((resolve) => (server as http.Server).close(() => resolve()));
      await counted.end({ timeout: 5 });
    }
  });

  it('refuses sockets beyond the cap per client address with 429, and takes one again when a slot frees', async () => {
    const demo = await create();
    const url = `${app.url.replace('http', 'ws')}/embed/${demo.id}/ws`;
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const held = await Promise.all([1, 2, 3].map(() => watch(url, from('203.0.113.7'))));
    await assert.rejects(watch(url, from('203.0.113.7')), refused(429));
    // Another client is not affected.
    const neighbour = await watch(url, from('203.0.113.8'));
    held[0]!.socket.close();
    await held[0]!.closed;
    const again = await watch(url, from('203.0.113.7'));
    for (const w of [...held.slice(1), neighbour, again]) w.socket.close();
  });

  it('refuses sockets beyond the cap per demo with 429', async () => {
    const demo = await create();
    const url = `${app.url.replace('http', 'ws')}/embed/${demo.id}/ws`;
    const held = await Promise.all([1, 2, 3, 4, 5].map((i) => watch(url, { 'x-forwarded-for': `198.51.100.${i}` })));
    await assert.rejects(watch(url, { 'x-forwarded-for': '198.51.100.99' }), refused(429));
    // Another demo is not affected.
    const other = await create();
    const elsewhere = await watch(`${app.url.replace('http', 'ws')}/embed/${other.id}/ws`, { 'x-forwarded-for': '198.51.100.99' });
    for (const w of [...held, elsewhere]) w.socket.close();
  });

  it('closes a socket that heard no progress for the idle time, and any socket at its maximum lifetime', { timeout: 20_000 }, async () => {
    const demo = await create();
    const url = `${app.url.replace('http', 'ws')}/embed/${demo.id}/ws`;
    const idle = await watch(url, { 'x-forwarded-for': '192.0.2.1' });
    await idle.message(1);
    const started = Date.now();
    const idleClose = await idle.closed;
    assert.equal(idleClose.code, 4408);
    assert.match(idleClose.reason, /idle/);
    assert.ok(Date.now() - started < 2500, 'closed about a second after the last message');

    // Progress every 400 ms keeps a socket from idling, but not past its lifetime.
    const busy = await watch(url, { 'x-forwarded-for': '192.0.2.2' });
    const opened = Date.now();
    let step = 0;
    const ticker = setInterval(() => void progress(demo, `step ${++step}`, Math.min(0.9, step / 20)).catch(() => undefined), 400);
    try {
      const lifetimeClose = await busy.closed;
      const lived = Date.now() - opened;
      assert.equal(lifetimeClose.code, 4408);
      assert.match(lifetimeClose.reason, /lifetime/);
      assert.ok(lived >= 2800 && lived < 4500, `closed at its 3 s lifetime, not after ${lived} ms`);
      assert.ok(busy.messages.length >= 4, 'it heard the progress meanwhile');
    } finally {
      clearInterval(ticker);
    }
  });
});
