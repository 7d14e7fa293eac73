import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startApp } from '../../src/app.js';
import { createApiKey } from '../../src/keys/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { loadConfig } from '../../src/platform/config.js';
import type { Sql } from '../../src/platform/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { prepareRegistration, registerUser } from '../../src/users/index.js';
import { createTestDatabase } from './database.js';

export interface TestApp {
  url: string;
  sql: Sql;
  databaseUrl: string;
  dataDir: string;
  /** the master key the app seals secrets with (hex), for a test that opens what it stored */
  masterKey: string;
  /** fetch against the app: `api('/api/v1/projects', { key, method, body })`. */
  api(pathname: string, options?: RequestOptions): Promise<ApiResponse>;
  createUser(options?: { email?: string; password?: string; admin?: boolean; credits?: number }): Promise<TestUser>;
  stop(): Promise<void>;
}

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  key: string;
}

export interface RequestOptions {
  method?: string;
  key?: string;
  /** sent as X-API-Key instead of a bearer token */
  headerKey?: string;
  cookie?: string;
  body?: unknown;
  /** raw body text, sent as is */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * A real app (HTTP server, worker, its own database) on a free port. `log`: where its log lines go (with LOG_LEVEL
 * in `env`), for tests that read them.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { log?: NodeJS.WritableStream } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const masterKey = env.SHOWREEL_MASTER_KEY ?? randomBytes(32).toString('hex');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-app-'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    PORT: '0',
    HOST: '127.0.0.1',
    SHOWREEL_DATA_DIR: dataDir,
    SHOWREEL_MASTER_KEY: masterKey,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SHOWREEL_RUN_WORKER: 'false',
    // Fixture sites live on 127.0.0.1 and project hosts like acme.example do not resolve: no SSRF checks unless a
    // test turns them on with SHOWREEL_ALLOW_PRIVATE_URLS: '0'.
    SHOWREEL_ALLOW_PRIVATE_URLS: '1',
    // Those made-up hosts are not tried either (nothing of the internet is reached by a test); the tests of the check
    // turn it on with SHOWREEL_CHECK_PROJECT_URLS: '1', against servers of their own.
    SHOWREEL_CHECK_PROJECT_URLS: '0',
    ...env,
  });
  const logger = createLogger(config.LOG_LEVEL, options.log);
  const app = await startApp(config, logger, { http: true, worker: config.SHOWREEL_RUN_WORKER });
  let counter = 0;

  const api = async (pathname: string, options: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.headerKey) headers['x-api-key'] = options.headerKey;
    if (options.cookie) headers.cookie = options.cookie;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${app.url}${pathname}`, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };

  return {
    url: app.url,
    sql: database.sql,
    databaseUrl: database.url,
    dataDir,
    masterKey,
    api,
    async createUser(options = {}) {
      const email = options.email ?? `user${++counter}-${randomBytes(3).toString('hex')}@example.com`;
      const password = options.password ?? 'correct horse battery';
      const prepared = await prepareRegistration({ email, password, isAdmin: options.admin ?? false, startingCredits: options.credits ?? 10 });
      const metadata = { actor: 'test' };
      const key = await inTransaction(database.sql, async (tx) => {
        await registerUser(tx, prepared, metadata);
        return createApiKey(tx, { userId: prepared.userId, name: 'Test key', type: 'live', projectId: null, allowedDomains: null }, metadata);
      });
      return { userId: prepared.userId, email, password, key: key.key };
    },
    async stop() {
      await app.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
