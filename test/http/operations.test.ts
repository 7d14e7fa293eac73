/**
 * What an operator relies on: a health check, a request id on every response, and JSON logs that carry it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { type RunningApp, startApp } from '../../src/app.js';
import { createApiKey } from '../../src/keys/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { prepareRegistration, registerUser } from '../../src/users/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type LogLine = Record<string, unknown> & { msg?: string; requestId?: string };

describe('operations', () => {
  let database: TestDatabase;
  let dataDir: string;
  let app: RunningApp;
  let adminKey: string;
  /** Every log line the app wrote, parsed: the app logs to this sink instead of stdout. */
  const logs: LogLine[] = [];
  let rawLogs = '';

  before(async () => {
    database = await createTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-ops-'));
    const config = loadConfig({
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      SHOWREEL_DATA_DIR: dataDir,
      SHOWREEL_MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      SHOWREEL_RUN_WORKER: 'false',
    });
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        const text = chunk.toString();
        rawLogs += text;
        for (const line of text.split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    app = await startApp(config, createLogger(config.LOG_LEVEL, sink), { http: true, worker: false });

    const prepared = await prepareRegistration({ email: 'ops@example.com', password: 'correct horse battery', isAdmin: true, startingCredits: 0 });
    adminKey = await inTransaction(database.sql, async (tx) => {
      await registerUser(tx, prepared, { actor: 'test' });
      const key = await createApiKey(tx, { userId: prepared.userId, name: 'Ops key', type: 'live', projectId: null, allowedDomains: null }, { actor: 'test' });
      return key.key;
    });
  });

  after(async () => {
    try {
      await app?.stop();
      await database?.drop();
    } finally {
      if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  /** The log lines of one request, once its access line is written (it is written when the response finishes). */
  async function logsOf(requestId: string): Promise<LogLine[]> {
    const deadline = Date.now() + 2_000;
    while (!logs.some((line) => line.requestId === requestId && line.msg === 'request') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return logs.filter((line) => line.requestId === requestId);
  }

  it('answers GET /healthz with 200 {"status":"ok"} when the database is reachable and migrated', async () => {
    const response = await fetch(`${app.url}/healthz`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(await response.json(), { status: 'ok' });

    const post = await fetch(`${app.url}/healthz`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  it('puts an X-Request-Id on every response, success or error, unique per request', async () => {
    const requests: Array<[string, RequestInit?]> = [
      ['/healthz'],
      ['/api/v1/openapi.json'],
      ['/api/v1/projects'], // 401: no key
      ['/api/v1/projects', { headers: { authorization: `Bearer ${adminKey}` } }],
      ['/api/v1/projects', { method: 'POST', headers: { authorization: `Bearer ${adminKey}` }, body: '{not json' }], // 400
      ['/api/v1/no-such-thing'], // 404
      ['/nowhere'], // 404 outside the API
      ['/trpc/admin.readAll'], // tRPC error: 401
    ];
    const ids = new Set<string>();
    for (const [pathname, init] of requests) {
      const response = await fetch(`${app.url}${pathname}`, init);
      await response.arrayBuffer();
      const id = response.headers.get('x-request-id');
      assert.match(id ?? '', UUID, `${pathname} (${response.status}) carries a request id`);
      ids.add(id!);
    }
    assert.equal(ids.size, requests.length, 'every request gets its own id');
  });

  it("echoes a client's sane X-Request-Id and replaces one that is not", async () => {
    for (const supplied of ['abc-123', 'trace.42_x', 'a'.repeat(100)]) {
      const response = await fetch(`${app.url}/healthz`, { headers: { 'x-request-id': supplied } });
      assert.equal(response.headers.get('x-request-id'), supplied);
    }
    for (const insane of ['has spaces', 'a/b', 'a'.repeat(101), '<script>', '%0d%0aSet-Cookie:x', '']) {
      const response = await fetch(`${app.url}/healthz`, { headers: { 'x-request-id': insane } });
      const id = response.headers.get('x-request-id') ?? '';
      assert.match(id, UUID, `${JSON.stringify(insane)} is replaced by a fresh id`);
    }
  });

  it('writes one JSON access line per request, carrying the request id, method, full path, status and duration', async () => {
    const requestId = `ops-${randomBytes(4).toString('hex')}`;
    const response = await fetch(`${app.url}/api/v1/projects?limit=5`, { headers: { 'x-request-id': requestId, authorization: `Bearer ${adminKey}` } });
    assert.equal(response.status, 200);
    await response.arrayBuffer();

    const lines = await logsOf(requestId);
    const access = lines.filter((line) => line.msg === 'request');
    assert.equal(access.length, 1, JSON.stringify(lines));
    assert.equal(access[0]!.method, 'GET');
    assert.equal(access[0]!.path, '/api/v1/projects');
    assert.equal(access[0]!.status, 200);
    assert.equal(typeof access[0]!.ms, 'number');
    assert.equal(access[0]!.service, 'showreel');
    assert.equal(access[0]!.level, 30);
  });

  it('carries the request id into what procedures log, and never logs the key', async () => {
    const requestId = `rebuild-${randomBytes(4).toString('hex')}`;
    const response = await fetch(`${app.url}/trpc/admin.rebuildReadModels`, {
      method: 'POST',
      headers: { 'x-request-id': requestId, authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('x-request-id'), requestId);
    await response.arrayBuffer();

    const lines = await logsOf(requestId);
    assert.ok(
      lines.some((line) => line.msg === 'read models rebuilt'),
      `the procedure's own log line has the request id: ${JSON.stringify(lines)}`,
    );
    assert.ok(lines.some((line) => line.msg === 'request' && line.path === '/trpc/admin.rebuildReadModels' && line.status === 200));
    assert.equal(rawLogs.includes(adminKey), false, 'the API key never reaches the logs');
  });
});
