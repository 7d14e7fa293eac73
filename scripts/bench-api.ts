/**
 * `npm run bench:api`: a benchmark, not a test. In one run, at 32 concurrent keep-alive connections against the real
 * app (a child process: `bin/showreel.mjs api`), it measures requests/s, p50 and p99 of
 *
 *   1. `POST /api/v1/projects`, every connection for one account, then each of 32 connections for its own account;
 *   2. `POST /api/v1/demos` the same two ways (one account: every charge queues on one credit stream);
 *   3. `POST /api/v1/embed/generate` on its reuse path (what every page view of a customer's site calls): a
 *      publishable key restricted to the page's host, an existing demo, every answer `200 cached: true`;
 *   3b. `POST /api/v1/beacon` (issue 38): view beacons as players send them (load, play, progress, chapter, watched,
 *      each view a fresh id), answered 202 from an in-memory queue written every 250 ms; every 202 must be a stored
 *      row once the app has stopped (count in = count stored), else the run fails; once as fast as answered
 *      (`beacons`), once paced at BENCH_BEACON_RATE a second (`beacons_5k`, default 5,000: issue 38's bar is a p99 at
 *      that rate, each latency counted from when its beacon was due);
 *   4. the raw ceiling of the same PostgreSQL through the same driver (postgres.js): 32 concurrent workers, each
 *      doing one `sql.begin(tx => insert one event)` at a time, every event on a stream of its own (no conflicts),
 *      and each write scenario's ratio to it.
 *
 * The database is a throwaway embedded PostgreSQL under a temp dir, with durability on (fsync and
 * synchronous_commit at their defaults; BENCH_DURABLE=0 uses the tests' fsync=off cluster instead), or, when
 * DATABASE_URL is set, a fresh database created on that server and dropped at the end.
 *
 * Environment: BENCH_SECONDS (measured seconds per scenario, default 10), BENCH_WARMUP_SECONDS (default 2),
 * BENCH_DURABLE (default 1), DATABASE_URL (optional), BENCH_CPU_PROF=DIR (runs the app under `node --cpu-prof`, writes
 * the profile to DIR and prints each scenario's top self-time functions: where a request's CPU goes, whatever the
 * machine's load), BENCH_PG_STATEMENTS=1 (embedded cluster only: loads pg_stat_statements and prints each scenario's
 * busiest statements, calls and execution time per request), BENCH_ONLY=demos_32,… (only these HTTP scenarios, the
 * ceiling always: for quick comparisons; the last line then prints 0 for the others), BENCH_NODE_ARGS='--flag …' (Node
 * or V8 flags for the app's process, e.g. a GC setting to compare), BENCH_APP_OUTPUT=FILE (the app's whole stdout and
 * stderr, e.g. with BENCH_NODE_ARGS='--trace-deopt').
 *
 * Beside each scenario's figures: the CPU the app, the load generator (scripts/bench-http-client.ts, this process)
 * and PostgreSQL (the embedded cluster's processes) used per request, from /proc: the machine's two cores are
 * shared by all three, so these say where a figure's limit is whatever the load. The ceiling's line gets the same
 * per transaction (its driver in this process, and PostgreSQL): with both cores busy in every scenario, a ratio to
 * the ceiling is about the ratio of these sums, which is the figure to compare across runs on a noisy machine.
 *
 * Human-readable lines first; the last line is `bench:api key=value …`. Exits 1 when a scenario has more than 1%
 * errors. To add an HTTP scenario: a `fire` function for `runLoad`, and its figures in the last line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect, type Sql } from '../src/platform/database.js';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.js';
import { registerDomain } from '../src/domain.js';
import { createApiKey } from '../src/keys/index.js';
import { inTransaction } from '../src/platform/command.js';
import { settleDriverClasses } from '../src/platform/driver-classes.js';
import { projectEventSchemas } from '../src/projects/events.js';
import { prepareRegistration, registerUser } from '../src/users/index.js';
import { describeSummary, readProfile, summariseProfile } from './cpu-profile.js';
import { httpClient } from './bench-http-client.js';

const root = path.resolve(import.meta.dirname, '..');
const CONCURRENCY = 32;
const MAX_ERROR_RATE = 0.01;
const measureMs = positiveSeconds('BENCH_SECONDS', 10) * 1000;
const warmupMs = positiveSeconds('BENCH_WARMUP_SECONDS', 2, true) * 1000;
const durable = process.env.BENCH_DURABLE !== '0';
const pgStatements = process.env.BENCH_PG_STATEMENTS === '1';
/** BENCH_APP_OUTPUT=FILE: the app's stdout and stderr, whole (e.g. with BENCH_NODE_ARGS='--trace-deopt'). */
const appOutput = process.env.BENCH_APP_OUTPUT || null;
/** BENCH_ONLY=demos_32,projects_32: run only these HTTP scenarios (the ceiling always runs), for quick comparisons. */
/** The paced beacon scenario's rate (issue 38: ≥ 5,000 beacons/s with p99 ≤ 10 ms). */
const BEACON_RATE = positiveSeconds('BENCH_BEACON_RATE', 5000);
const onlyScenarios = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
// The app must run on Node 22: the same binary as this script when it is 22+, else the one `npm ci` installed.
const nodeBinary = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : path.join(root, 'node_modules', '.bin', 'node');

// ---------------------------------------------------------------------------------------------------------------
// Load generation

interface LoadOptions {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  /** One operation; resolves on success, throws (message = error kind) on failure. */
  fire: (worker: number) => Promise<void>;
  /**
   * Paced (open loop): operations are due at this many per second, whatever the answers' speed, and each one's
   * latency counts from when it was due, so time spent queued behind a slow answer is counted (no coordinated
   * omission). Without it, closed loops: each connection fires again as soon as it is answered (saturation).
   */
  ratePerSecond?: number;
}

interface LoadResult {
  /** successful operations started inside the measured window */
  count: number;
  errors: number;
  /** error message -> occurrences, for the report */
  errorKinds: Map<string, number>;
  elapsedMs: number;
  rps: number;
  p50: number;
  p99: number;
  errorRate: number;
  /** the measured window on the monotonic clock (µs), to cut a CPU profile of the app to this scenario */
  window: { fromUs: number; toUs: number };
}

// performance.now() → the monotonic clock V8's profiles use (process.hrtime), in µs.
const hrOffsetUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;

/**
 * `concurrency` closed loops, each firing one operation after the other: a warm-up whose results are dropped, then
 * `durationMs` measured. Operations started in the measured window count; the window closes when the last of them
 * finishes, so rps = successes / (that time).
 */
async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorKinds = new Map<string, number>();
  let errors = 0;
  const start = performance.now();
  const measureFrom = start + options.warmupMs;
  const measureUntil = measureFrom + options.durationMs;

  let slot = 0;
  const loop = async (worker: number) => {
    for (;;) {
      let began = performance.now();
      if (options.ratePerSecond) {
        const due = start + (slot++ * 1000) / options.ratePerSecond;
        if (due > began) await new Promise((resolve) => setTimeout(resolve, due - began));
        began = due;
      }
      if (began >= measureUntil || interrupted) return;
      const measured = began >= measureFrom;
      try {
        await options.fire(worker);
        if (measured) latencies.push(performance.now() - began);
      } catch (error) {
        if (measured) {
          errors++;
          const kind = (error instanceof Error ? error.message : String(error)).slice(0, 300);
          errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, worker) => loop(worker)));

  const elapsedMs = performance.now() - measureFrom;
  latencies.sort((a, b) => a - b);
  const count = latencies.length;
  return {
    count,
    errors,
    errorKinds,
    elapsedMs,
    rps: count / (elapsedMs / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errorRate: count + errors === 0 ? 1 : errors / (count + errors),
    window: { fromUs: measureFrom * 1000 + hrOffsetUs, toUs: measureFrom * 1000 + elapsedMs * 1000 + hrOffsetUs },
  };
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

// ---------------------------------------------------------------------------------------------------------------
// Setup and teardown

/** Undone in reverse order on exit, on failure and on interruption. */
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const undo = cleanups.pop()!;
      try {
        await undo();
      } catch (error) {
        console.error('cleanup step failed:', error);
      }
    }
  })();
  return cleaning;
}

/**
 * The first SIGINT/SIGTERM stops the load loops; main() then gives up and the normal path cleans up in order. A
 * second one (or an unhandled rejection) cleans up at once and exits.
 */
let interrupted: NodeJS.Signals | null = null;
class Interrupted extends Error {}
function checkInterrupted(): void {
  if (interrupted) throw new Interrupted(`interrupted by ${interrupted}`);
}
function exitAfterCleanup(code: number): void {
  void cleanup().then(() => process.exit(code));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return exitAfterCleanup(130);
    interrupted = signal;
    console.error(`\n${signal}: stopping the load, then cleaning up (again to clean up at once)`);
  });
}
process.on('unhandledRejection', (error) => {
  console.error('unhandled rejection:', error);
  exitAfterCleanup(1);
});

interface BenchDatabase {
  url: string;
  description: string;
  /** The embedded cluster's data dir (its postmaster.pid names the server), for its CPU time; null when external. */
  dataDir: string | null;
}

async function provisionDatabase(): Promise<BenchDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) {
    const name = `showreel_bench_${randomBytes(4).toString('hex')}`;
    const admin = connect(external, { max: 1, applicationName: 'showreel-bench' });
    try {
      await admin.unsafe(`create database "${name}"`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    cleanups.push(async () => {
      const again = connect(external, { max: 1, applicationName: 'showreel-bench' });
      try {
        await again.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await again.end({ timeout: 5 });
      }
    });
    const url = new URL(external);
    url.pathname = `/${name}`;
    return { url: url.toString(), description: `fresh database "${name}" on DATABASE_URL (dropped at the end)`, dataDir: null };
  }

  const dataDir = await makeTempDir('showreel-bench-pg-');
  const settings = pgStatements ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all', 'pg_stat_statements.track_utility=on'] : [];
  const embedded = await startEmbeddedPostgres({ dataDir, ephemeral: !durable, settings });
  cleanups.push(async () => {
    // A Ctrl-C in a terminal reaches postgres too (same process group); embedded-postgres' stop() would then wait
    // forever for an exit that already happened. A cleanly stopped postmaster has removed its pid file.
    if (!existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))) return;
    await withTimeout(embedded.stop(), 30_000, 'stopping the embedded PostgreSQL');
  });
  return {
    url: embedded.url,
    description: `embedded PostgreSQL under ${dataDir} (${durable ? 'durable cluster, removed at the end' : 'ephemeral test cluster'})`,
    dataDir: path.join(dataDir, 'pg'),
  };
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function makeTempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  // The embedded cluster runs as the `postgres` OS user when we are root: it must be able to traverse this.
  await fs.chmod(dir, 0o755);
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

async function describeServer(url: string): Promise<string[]> {
  const sql = connect(url, { max: 1, applicationName: 'showreel-bench' });
  try {
    const [row] = await sql<Record<string, string>[]>`
      select current_setting('server_version') as version,
             current_setting('fsync') as fsync,
             current_setting('synchronous_commit') as synchronous_commit,
             current_setting('full_page_writes') as full_page_writes,
             current_setting('wal_sync_method') as wal_sync_method,
             current_setting('shared_buffers') as shared_buffers,
             current_setting('max_connections') as max_connections`;
    const settings = row!;
    return [
      `postgres ${settings.version}: fsync=${settings.fsync} synchronous_commit=${settings.synchronous_commit} full_page_writes=${settings.full_page_writes} wal_sync_method=${settings.wal_sync_method} shared_buffers=${settings.shared_buffers} max_connections=${settings.max_connections}`,
    ];
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Runs `bin/showreel.mjs …` to completion; its stdout. */
function runShowreel(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBinary, [path.join(root, 'bin', 'showreel.mjs'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`showreel ${args.slice(0, 2).join(' ')} exited ${code}:\n${stderr}${stdout}`)),
    );
  });
}

/** `bin/showreel.mjs api` as a child process, ready once /healthz answers 200. Stopped (by its PID) on cleanup. */
async function startApiProcess(
  env: NodeJS.ProcessEnv,
  port: number,
  nodeArgs: string[] = [],
): Promise<{ url: string; pid: number; output: () => string; stop: () => Promise<void> }> {
  const child = spawn(nodeBinary, [...nodeArgs, path.join(root, 'bin', 'showreel.mjs'), 'api'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString('utf8'));
    if (tail.length > 50) tail.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  if (appOutput) {
    const file = createWriteStream(appOutput);
    child.stdout!.pipe(file);
    child.stderr!.pipe(file);
  }
  let exited: number | string | null = null;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = code ?? signal ?? 'unknown';
      resolve();
    }),
  );
  const stop = () => stopChild(child, exit, () => exited !== null);
  cleanups.push(stop);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    checkInterrupted();
    if (exited !== null) throw new Error(`the API process exited (${exited}) before it was ready:\n${tail.join('')}`);
    if (Date.now() > deadline) throw new Error(`the API process was not ready within 60 s:\n${tail.join('')}`);
    const status = await fetch(`${url}/healthz`).then((r) => r.status, () => 0);
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid!, output: () => tail.join(''), stop };
}

async function stopChild(child: ChildProcess, exit: Promise<void>, hasExited: () => boolean): Promise<void> {
  if (hasExited()) return;
  child.kill('SIGTERM');
  const killed = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exit;
  clearTimeout(killed);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Reporting

function positiveSeconds(name: string, fallback: number, allowZero = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number of seconds.`);
  return value;
}

const ms = (value: number) => value.toFixed(1);

function describeResult(name: string, result: LoadResult): string {
  const lines = [
    `${name}: ${result.count} ok in ${(result.elapsedMs / 1000).toFixed(1)} s = ${Math.round(result.rps)} req/s; latency p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms; errors ${result.errors} (${(result.errorRate * 100).toFixed(2)}%)`,
  ];
  for (const [kind, n] of [...result.errorKinds].sort((a, b) => b[1] - a[1]).slice(0, 5)) lines.push(`  ${n} x ${kind}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// The benchmark

interface Account {
  userId: string;
  authorization: string;
}

/**
 * Accounts 1..n-1 beside the one the CLI made: straight through the domain's commands (what `admin create-user`
 * runs), a user with its credits and a live key each, so that 32 of them take seconds rather than 32 CLI starts.
 */
async function createAccounts(url: string, count: number): Promise<Account[]> {
  registerDomain();
  const sql = connect(url, { max: 4, applicationName: 'showreel-bench' });
  const metadata = { actor: 'bench', requestId: null, causationId: null, correlationId: null };
  try {
    const accounts: Account[] = [];
    for (let i = 0; i < count; i++) {
      const prepared = await prepareRegistration({ email: `bench-${i}@example.com`, password: 'bench-password-1', startingCredits: 1_000_000 });
      const key = await inTransaction(sql, async (tx) => {
        await registerUser(tx, prepared, metadata);
        return createApiKey(tx, { userId: prepared.userId, name: 'Bench key', type: 'live', projectId: null, allowedDomains: null }, metadata);
      });
      accounts.push({ userId: prepared.userId, authorization: `Bearer ${key.key}` });
    }
    return accounts;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function main(): Promise<number> {
  const database = await provisionDatabase();
  checkInterrupted();
  const appDataDir = await makeTempDir('showreel-bench-app-');
  // Everything (load generator, app, PostgreSQL) shares this machine: a busy machine skews every figure.
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`bench:api: ${os.availableParallelism()} cores (load average ${load}), node ${process.version}; ${CONCURRENCY} concurrent connections; warm-up ${warmupMs / 1000} s, measured ${measureMs / 1000} s per scenario`);
  console.log(`database: ${database.description}`);
  for (const line of await describeServer(database.url)) console.log(line);

  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    SHOWREEL_DATA_DIR: appDataDir,
    SHOWREEL_MASTER_KEY: randomBytes(32).toString('hex'),
    // warn, not info: info logs a line per request, which would measure pino rather than the API.
    LOG_LEVEL: 'warn',
    SHOWREEL_RUN_WORKER: 'false',
    // The benchmark measures throughput, not the request limits that protect a real account.
    SHOWREEL_RATE_LIMIT_PER_KEY: '0',
    SHOWREEL_RATE_LIMIT_PER_USER: '0',
    // All beacons come from this one address.
    SHOWREEL_BEACON_LIMIT_PER_ADDRESS: '0',
  };

  // The first user (and its live key) through the real CLI; this also applies the migrations.
  const created = JSON.parse((await runShowreel(['admin', 'create-user', '--email', 'bench@example.com', '--password', 'bench-password-1', '--credits', '1000000'], env)).trim().split('\n').pop()!) as {
    user_id: string;
    live_key: string;
  };
  const accounts = [{ userId: created.user_id, authorization: `Bearer ${created.live_key}` }, ...(await createAccounts(database.url, CONCURRENCY - 1))];
  const authorization = accounts[0]!.authorization;
  checkInterrupted();

  const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;
  if (profileDir) await fs.mkdir(profileDir, { recursive: true });
  const profileName = `api-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`;
  const profileArgs = (process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []).concat(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${profileName}`] : []);
  const api = await startApiProcess(env, port, profileArgs);
  console.log(`app: child process ${api.pid} (bin/showreel.mjs api, worker off, LOG_LEVEL=warn${profileDir ? ', --cpu-prof' : ''}) at ${api.url}; load from this process over 32 keep-alive sockets (scripts/bench-http-client.ts)`);

  // --- HTTP scenarios -----------------------------------------------------------------------------------------
  const client = httpClient(api.url, CONCURRENCY);
  const results: Record<string, LoadResult> = {};
  const apiCpuMsPerRequest: Record<string, number> = {};
  const pgCpuMsPerRequest: Record<string, number> = {};
  const ceilingCpuUs: { client?: number; pg?: number } = {};
  const run = async (name: string, title: string, fire: (worker: number) => Promise<void>, ratePerSecond?: number) => {
    if (onlyScenarios && !onlyScenarios.has(name)) return;
    // CPU time the app's process used (user + system, from /proc): unlike wall-clock figures, this barely moves
    // with the machine's load. Warm-up included, so per request it counts warm-up requests too (close enough).
    const cpuBefore = await processCpuMs(api.pid);
    const clientBefore = process.cpuUsage();
    const pgBefore = await postgresCpuMs(database.dataDir);
    if (pgStatements) await resetStatements(database.url);
    let fired = 0;
    const result = await runLoad({ concurrency: CONCURRENCY, durationMs: measureMs, warmupMs, fire: (worker) => (fired++, fire(worker)), ...(ratePerSecond ? { ratePerSecond } : {}) });
    const cpuAfter = await processCpuMs(api.pid);
    const clientCpu = process.cpuUsage(clientBefore);
    const pgAfter = await postgresCpuMs(database.dataDir);
    results[name] = result;
    checkInterrupted();
    console.log(describeResult(title, result));
    if (cpuBefore !== null && cpuAfter !== null && fired > 0) {
      apiCpuMsPerRequest[name] = (cpuAfter.total - cpuBefore.total) / fired;
      // The kernel's share, from /proc rather than the CPU profile: V8's profiler samples wall-clock time, so a
      // profile books to `writev` the time the app waits, runnable, while the process its write woke runs instead.
      const systemUs = ((cpuAfter.system - cpuBefore.system) / fired) * 1000;
      console.log(
        `  app CPU: ${((cpuAfter.total - cpuBefore.total) / 1000).toFixed(1)} s for ${fired} requests = ${(apiCpuMsPerRequest[name] * 1000).toFixed(0)} µs per request (${systemUs.toFixed(0)} µs of it in the kernel)`,
      );
      // The rest of the machine's two cores: what the load generator and PostgreSQL took per request.
      const others = [`load client ${((clientCpu.user + clientCpu.system) / fired).toFixed(0)} µs`];
      if (pgBefore !== null && pgAfter !== null) {
        pgCpuMsPerRequest[name] = (pgAfter - pgBefore) / fired;
        others.push(`PostgreSQL ${(pgCpuMsPerRequest[name] * 1000).toFixed(0)} µs`);
      }
      console.log(`  beside it, per request: ${others.join(', ')}`);
    }
    if (pgStatements && fired > 0) for (const line of await describeStatements(database.url, fired)) console.log(line);
  };

  // Literal public addresses: the SSRF check of project URLs runs (no DNS here, so no hostnames).
  let projectCounter = 0;
  const createProject = async (account: Account) => {
    const n = ++projectCounter;
    const response = await client.post('/api/v1/projects', { name: `Bench ${n}`, url: `https://93.184.215.14/bench-${n}` }, { authorization: account.authorization });
    if (response.status !== 201) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 200)}`);
    return (JSON.parse(response.body) as { id: string }).id;
  };
  // One account: every connection appends to the streams of one user. 32 accounts: connection i acts for account i.
  await run('projects_1', `POST /api/v1/projects (1 account)`, () => createProject(accounts[0]!).then(() => undefined));
  await run('projects_32', `POST /api/v1/projects (${CONCURRENCY} accounts)`, (worker) => createProject(accounts[worker]!).then(() => undefined));

  // POST /api/v1/demos: a demo stream (two events), a charge on the credits stream, projections of both and a job
  // enqueued, all in one transaction. With one account every demo charges the same credit stream (its lock is the
  // queue); with 32, each connection charges its own.
  const demoProjects = await Promise.all(accounts.map((account) => createProject(account)));
  const createDemo = async (worker: number) => {
    const response = await client.post(
      '/api/v1/demos',
      { project_id: demoProjects[worker]!, prompt: 'Show how to start a free trial' },
      { authorization: accounts[worker]!.authorization },
    );
    if (response.status !== 202) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 200)}`);
  };
  await run('demos_1', 'POST /api/v1/demos (1 account)', () => createDemo(0));
  await run('demos_32', `POST /api/v1/demos (${CONCURRENCY} accounts)`, (worker) => createDemo(worker));

  // POST /api/v1/beacon: each connection plays views one after another, a view being the beacons a player sends.
  // A demo to count views of (one more demo of account 0's; never recorded: the worker is off).
  await createDemo(0);
  const beaconDemo = await firstDemoId(database.url);
  const VIEW_EVENTS: Array<Record<string, unknown>> = [
    { event: 'load' }, { event: 'play' },
    ...[10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 100].map((value) => ({ event: 'progress', value })),
    { event: 'chapter', value: 0, title: 'Intro' }, { event: 'watched', value: 9 },
  ];
  const beaconHeaders = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36' };
  const viewOf = Array.from({ length: CONCURRENCY }, () => ({ id: '', next: VIEW_EVENTS.length }));
  let beaconsAccepted = 0;
  const sendBeacon = async (worker: number) => {
    const view = viewOf[worker]!;
    if (view.next === VIEW_EVENTS.length) Object.assign(view, { id: randomBytes(16).toString('hex'), next: 0 });
    const event = VIEW_EVENTS[view.next++]!;
    const response = await client.post('/api/v1/beacon', { demo: beaconDemo, view: view.id, surface: 'embed', host: 'www.bench.example', ...event }, beaconHeaders);
    if (response.status !== 202) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 200)}`);
    beaconsAccepted++;
  };
  await run('beacons', 'POST /api/v1/beacon (view beacons, as fast as answered)', sendBeacon);
  // Issue 38's bar is a latency at a throughput: 5,000 beacons a second, paced, p99 counted from when each was due.
  await run('beacons_5k', `POST /api/v1/beacon (view beacons, paced at ${BEACON_RATE}/s)`, sendBeacon, BEACON_RATE);

  // POST /api/v1/embed/generate, reuse path: key, allowlist, project, one indexed read of the context hash.
  // The key's domain is the projects' own site: a new generation must be for a page on both (issue 34's spend controls).
  const keyResponse = await client.post('/api/v1/api-keys', { type: 'publishable', allowed_domains: ['93.184.215.14'] }, { authorization });
  const publishableKey = (JSON.parse(keyResponse.body) as { key: string }).key;
  const embedHeaders = { 'x-api-key': publishableKey, origin: 'https://93.184.215.14' };
  const embedBody = { project_id: demoProjects[0]!, prompt: 'Show the pricing', context: { url: 'https://93.184.215.14/pricing', title: 'Pricing', headings: ['Plans', 'FAQ'] } };
  const first = await client.post('/api/v1/embed/generate', embedBody, embedHeaders);
  if (first.status !== 202) throw new Error(`embed/generate setup: HTTP ${first.status}: ${first.body.slice(0, 200)}`);
  await run('embed', 'POST /api/v1/embed/generate (cached)', async () => {
    const response = await client.post('/api/v1/embed/generate', embedBody, embedHeaders);
    if (response.status !== 200 || !response.body.includes('"cached":true')) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 200)}`);
  });

  const appConnections = await countConnections(database.url, 'showreel');
  console.log(`  (the app held ${appConnections} PostgreSQL connections: its pool)`);
  client.close();
  // Stop the app before the ceiling so it takes no CPU or connections from it (and so it writes its profile).
  await api.stop();
  // The app's shutdown writes what its buffer still held: every accepted beacon must now be a row.
  const beaconsStored = results.beacons || results.beacons_5k ? await countRows(database.url, 'view_beacons') : 0;
  if (results.beacons || results.beacons_5k) console.log(`  beacons: ${beaconsAccepted} accepted (202), ${beaconsStored} stored${beaconsAccepted === beaconsStored ? '' : '  <-- LOST'}`);
  const httpScenarios = Object.values(results);
  if (httpScenarios.some((r) => r.errors > 0)) console.log(`app output (last lines):\n${api.output().trimEnd() || '(none)'}`);

  if (profileDir) {
    const file = (await fs.readdir(profileDir)).find((name) => name === profileName);
    if (!file) console.log(`(no CPU profile ${profileName} in ${profileDir})`);
    else {
      const profile = await readProfile(path.join(profileDir, file));
      console.log(`CPU profile of the app: ${path.join(profileDir, file)}; self time per scenario (measured window):`);
      for (const [name, result] of Object.entries(results)) {
        console.log(`${name}:`);
        console.log(describeSummary(summariseProfile(profile, result.window, 12), result.count));
      }
    }
  }

  // --- the database ceiling -----------------------------------------------------------------------------------
  const ceilingClientBefore = process.cpuUsage();
  const ceilingPgBefore = await postgresCpuMs(database.dataDir);
  const { result: ceiling, fired: ceilingFired } = await runCeiling(database.url);
  const ceilingClientCpu = process.cpuUsage(ceilingClientBefore);
  const ceilingPgAfter = await postgresCpuMs(database.dataDir);
  checkInterrupted();
  console.log(describeResult(`ceiling (postgres.js, ${CONCURRENCY} workers, pool ${CONCURRENCY}, one event per sql.begin)`, ceiling));
  results.ceiling = ceiling;
  // What one ceiling transaction costs the machine, to set beside a request's app + load client + PostgreSQL: with
  // both cores busy in either case, the ratios are about the ratios of these sums.
  if (ceilingFired > 0) {
    const clientUs = (ceilingClientCpu.user + ceilingClientCpu.system) / ceilingFired;
    const parts = [`the driver in this process ${clientUs.toFixed(0)} µs`];
    ceilingCpuUs.client = clientUs;
    if (ceilingPgBefore !== null && ceilingPgAfter !== null) {
      ceilingCpuUs.pg = ((ceilingPgAfter - ceilingPgBefore) / ceilingFired) * 1000;
      parts.push(`PostgreSQL ${ceilingCpuUs.pg.toFixed(0)} µs`);
    }
    console.log(`  per transaction: ${parts.join(', ')}`);
  }

  const skipped: LoadResult = { count: 0, errors: 0, errorKinds: new Map(), elapsedMs: 0, rps: 0, p50: 0, p99: 0, errorRate: 0, window: { fromUs: 0, toUs: 0 } };
  const r = (name: string) => results[name] ?? skipped;
  const ratio = (name: string) => (r(name).rps / ceiling.rps).toFixed(3);
  console.log(
    `ratios to the ceiling: projects ${ratio('projects_1')} (1 account), ${ratio('projects_32')} (${CONCURRENCY} accounts); demos ${ratio('demos_1')} (1 account), ${ratio('demos_32')} (${CONCURRENCY} accounts)`,
  );

  const failed = Object.entries(results).filter(([, result]) => result.errorRate > MAX_ERROR_RATE);
  if (beaconsAccepted !== beaconsStored) {
    console.error(`FAIL: beacons: ${beaconsAccepted} accepted but ${beaconsStored} stored`);
    failed.push(['beacons_lost', r('beacons')]);
  }
  for (const [name, result] of failed) console.error(`FAIL: ${name} had ${(result.errorRate * 100).toFixed(2)}% errors (limit ${MAX_ERROR_RATE * 100}%)`);

  const rps = (name: string) => Math.round(r(name).rps).toString();
  const figures: Array<[string, string]> = [
    ['load', os.loadavg()[0]!.toFixed(2)],
    ['ceiling_rps', rps('ceiling')],
    ['ceiling_p99_ms', ms(ceiling.p99)],
    // projects_rps and ratio: the one-account figures under the names earlier runs printed.
    ['projects_rps', rps('projects_1')],
    ['projects_p99_ms', ms(r('projects_1').p99)],
    ['ratio', ratio('projects_1')],
    ['projects32_rps', rps('projects_32')],
    ['projects32_p99_ms', ms(r('projects_32').p99)],
    ['projects32_ratio', ratio('projects_32')],
    ['demos_rps', rps('demos_1')],
    ['demos_p99_ms', ms(r('demos_1').p99)],
    ['demos_ratio', ratio('demos_1')],
    ['demos32_rps', rps('demos_32')],
    ['demos32_p99_ms', ms(r('demos_32').p99)],
    ['demos32_ratio', ratio('demos_32')],
    ['embed_cached_rps', rps('embed')],
    ['embed_cached_p99_ms', ms(r('embed').p99)],
    ['beacons_rps', rps('beacons')],
    ['beacons_p99_ms', ms(r('beacons').p99)],
    ['beacons_ratio', ratio('beacons')],
    ['beacons5k_rps', rps('beacons_5k')],
    ['beacons5k_p99_ms', ms(r('beacons_5k').p99)],
    ['beacons_in', String(beaconsAccepted)],
    ['beacons_stored', String(beaconsStored)],
    ...Object.entries(apiCpuMsPerRequest).map(([name, cpuMs]): [string, string] => [`${name}_app_cpu_us`, (cpuMs * 1000).toFixed(0)]),
    ...Object.entries(pgCpuMsPerRequest).map(([name, cpuMs]): [string, string] => [`${name}_pg_cpu_us`, (cpuMs * 1000).toFixed(0)]),
    ...Object.entries(ceilingCpuUs).map(([part, us]): [string, string] => [`ceiling_${part}_cpu_us`, us.toFixed(0)]),
  ];
  console.log(`bench:api ${figures.map(([k, v]) => `${k}=${v}`).join(' ')}`);
  return failed.length > 0 ? 1 : 0;
}

/** One ProjectCreated event per transaction, each on a new stream: the database + driver, without the app. */
async function runCeiling(url: string): Promise<{ result: LoadResult; fired: number }> {
  const sql: Sql = connect(url, { max: CONCURRENCY, applicationName: 'showreel-bench-ceiling' });
  try {
    // The driver as the app runs it (openDatabase settles it too).
    await settleDriverClasses(sql);
    const run = randomBytes(4).toString('hex');
    // A payload shaped like the app's (valid against the registered schema), so rows are of a realistic size.
    const template = projectEventSchemas.ProjectCreated.parse({
      projectId: 'x',
      userId: `bench-user-${run}`,
      name: 'Bench',
      url: 'https://bench.example.com',
      viewport: 'desktop',
      refreshSchedule: 'manual',
      sealedSigningSecret: randomBytes(92).toString('base64'),
      sealedWebhookSecret: randomBytes(88).toString('base64'),
    });
    const metadata = { actor: `bench-user-${run}`, requestId: 'bench', causationId: null, correlationId: 'bench' };
    let seq = 0;
    const result = await runLoad({
      concurrency: CONCURRENCY,
      durationMs: measureMs,
      warmupMs,
      async fire() {
        const projectId = `${run}-${++seq}`;
        const data = { ...template, projectId };
        await sql.begin(
          (tx) => tx`
            insert into events (stream_id, stream_version, type, data, metadata)
            values (${`project-${projectId}`}, 1, 'ProjectCreated', ${tx.json(data)}, ${tx.json(metadata)})`,
        );
      },
    });
    // seq counts every transaction begun, warm-up included, as `fired` does for the HTTP scenarios.
    return { result, fired: seq };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** CPU time of a process, ms (Linux /proc): user + system, and system alone; null elsewhere. */
async function processCpuMs(pid: number): Promise<{ total: number; system: number } | null> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    return { total: ((user + system) * 1000) / CLOCK_TICKS_PER_SECOND, system: (system * 1000) / CLOCK_TICKS_PER_SECOND };
  } catch {
    return null;
  }
}
/**
 * CPU time of the embedded PostgreSQL, ms: the postmaster (with its reaped children) and every live child process
 * (backends, WAL writer, checkpointer). On this machine the app and PostgreSQL share two cores, so a write path is
 * bound by the sum of both per request. Null for an external server or off Linux.
 */
async function postgresCpuMs(dataDir: string | null): Promise<number | null> {
  if (dataDir === null) return null;
  try {
    const postmaster = Number((await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const ticks = async (pid: number, withChildren: boolean) => {
      const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? [];
      // utime, stime, cutime, cstime: the 14th to 17th fields, 12th to 15th after the command name.
      return Number(fields[11] ?? 0) + Number(fields[12] ?? 0) + (withChildren ? Number(fields[13] ?? 0) + Number(fields[14] ?? 0) : 0);
    };
    const tasks = await fs.readdir(`/proc/${postmaster}/task`);
    const children = (await Promise.all(tasks.map((t) => fs.readFile(`/proc/${postmaster}/task/${t}/children`, 'utf8').catch(() => ''))))
      .join(' ').split(' ').filter(Boolean).map(Number);
    const all = await Promise.all([ticks(postmaster, true), ...children.map((pid) => ticks(pid, false))]);
    return (all.reduce((a, b) => a + b, 0) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

// USER_HZ, 100 on every mainstream Linux.
const CLOCK_TICKS_PER_SECOND = 100;

/** BENCH_PG_STATEMENTS=1: pg_stat_statements, emptied before each scenario. */
async function resetStatements(url: string): Promise<void> {
  const sql = connect(url, { max: 1, applicationName: 'showreel-bench' });
  try {
    await sql`create extension if not exists pg_stat_statements`;
    await sql`select pg_stat_statements_reset()`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The statements that took the server's time in a scenario: calls and execution µs per request, busiest first. */
async function describeStatements(url: string, requests: number): Promise<string[]> {
  const sql = connect(url, { max: 1, applicationName: 'showreel-bench' });
  try {
    const rows = await sql<{ calls: string; total_ms: number; query: string }[]>`
      select calls::text, total_exec_time as total_ms, query
      from pg_stat_statements
      where query not like '%pg_stat_statements%'
      order by total_exec_time desc limit 15`;
    const total = rows.reduce((sum, row) => sum + row.total_ms, 0);
    return [
      `  PostgreSQL statements (execution time, ${((total * 1000) / requests).toFixed(0)} µs per request in the top 15):`,
      ...rows.map((row) => `    ${(Number(row.calls) / requests).toFixed(2)} calls ${((row.total_ms * 1000) / requests).toFixed(0).padStart(4)} µs  ${row.query.replace(/\s+/g, ' ').slice(0, 150)}`),
    ];
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A demo to send beacons about (any live one: the bench's demos are never recorded). */
async function firstDemoId(url: string): Promise<string> {
  const sql = connect(url, { max: 1, applicationName: 'showreel-bench-setup' });
  try {
    const [row] = await sql<{ id: string }[]>`select id from demos where deleted_at is null limit 1`;
    if (!row) throw new Error('beacons: no demo to send beacons about');
    return row.id;
  } finally {
    await sql.end();
  }
}

async function countRows(url: string, table: 'view_beacons'): Promise<number> {
  const sql = connect(url, { max: 1, applicationName: 'showreel-bench-setup' });
  try {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(table)}`;
    return row!.n;
  } finally {
    await sql.end();
  }
}

async function countConnections(url: string, applicationName: string): Promise<number> {
  const sql = connect(url, { max: 1, applicationName: 'showreel-bench' });
  try {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = ${applicationName}`;
    return row?.n ?? 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const code = await main().catch((error: unknown) => {
  if (error instanceof Interrupted) {
    console.error(error.message);
    return 130;
  }
  console.error(error);
  return 1;
});
await cleanup();
process.exit(code);
