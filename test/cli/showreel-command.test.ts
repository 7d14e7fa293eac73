/**
 * The `showreel` command end to end, as an operator runs it: real processes, and the real embedded PostgreSQL
 * in a data dir of its own (no DATABASE_URL anywhere).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAdminClient } from '../../scripts/admin-client.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin', 'showreel.mjs');

/** Variables of ours (and of the test runner) that must not leak into the command under test. */
const SCRUBBED = /^(DATABASE_URL|TEST_DATABASE_URL|TEST_LOG_LEVEL|NODE_TEST_CONTEXT|PORT|HOST|PUBLIC_URL|LOG_LEVEL|WORKER_CONCURRENCY|SHOWREEL_.*|S3_.*|FFMPEG_PATH|FFPROBE_PATH)$/;

const spawned = new Set<ChildProcess>();

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function commandEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SCRUBBED.test(name)));
  // Projects here use made-up hosts (no DNS on this machine): the address check and the try of the URL are off, as
  // in every app test.
  return { ...env, SHOWREEL_DATA_DIR: dataDir, SHOWREEL_ALLOW_PRIVATE_URLS: '1', SHOWREEL_CHECK_PROJECT_URLS: '0', ...extra };
}

function launch(args: string[], env: NodeJS.ProcessEnv): ChildProcess & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  spawned.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  child.once('exit', () => spawned.delete(child));
  return Object.assign(child, { output });
}

function exited(child: ChildProcess & { output: { stdout: string; stderr: string } }, withinMs: number): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const report = () => ({ code: child.exitCode, signal: child.signalCode, ...child.output });
    // 'close' waits for stdout and stderr to be fully read, unlike 'exit'.
    if (child.exitCode !== null || child.signalCode !== null) {
      if (child.stdout!.readableEnded && child.stderr!.readableEnded) return resolve(report());
    }
    const timer = setTimeout(() => reject(new Error(`showreel did not exit within ${withinMs} ms; stderr: ${child.output.stderr}`)), withinMs);
    child.once('close', () => {
      clearTimeout(timer);
      resolve(report());
    });
  });
}

/** Runs `showreel <args>` to completion. */
function showreel(args: string[], env: NodeJS.ProcessEnv, withinMs = 45_000): Promise<Finished> {
  return exited(launch(args, env), withinMs);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The pid in the cluster's postmaster.pid, or null when there is none. */
function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** No postmaster.pid left, or the pid in it is dead: the cluster is not running. */
function assertClusterStopped(dataDir: string) {
  const pid = postmasterPid(dataDir);
  assert.ok(pid === null || !alive(pid), `the embedded PostgreSQL (pid ${pid}) is still running`);
}

async function until<T>(what: string, withinMs: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the showreel command', () => {
  let dataDir: string;
  let port: number;
  let server: ReturnType<typeof launch> | null = null;
  let firstUser: { user_id: string; email: string; live_key: string };

  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-cli-'));
    // The cluster runs as the `postgres` OS user, which must be able to enter the data dir.
    await fs.chmod(dataDir, 0o755);
    port = await freePort();
  });

  after(async () => {
    // Whatever a failed test left running: ask nicely (it stops its cluster), then insist.
    for (const child of spawned) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      const stopped = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!stopped) child.kill('SIGKILL');
    }
    if (!dataDir) return;
    // A postmaster whose parent was killed outlives it: fast shutdown by its pid.
    const pid = postmasterPid(dataDir);
    if (pid !== null && alive(pid)) {
      process.kill(pid, 'SIGINT');
      await until('the orphaned PostgreSQL to stop', 10_000, () => (alive(pid) ? undefined : true)).catch(() => undefined);
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('refuses bad usage with exit code 2 and says what is wrong', async () => {
    const env = commandEnv(dataDir);
    const [noEmail, badCredits, negative, unknown] = await Promise.all([
      showreel(['admin', 'create-user', '--password', 'password123'], env),
      showreel(['admin', 'create-user', '--email', 'x@example.com', '--password', 'password123', '--credits', 'lots'], env),
      showreel(['admin', 'create-user', '--email', 'x@example.com', '--password', 'password123', '--credits=-1'], env),
      showreel(['frobnicate'], env),
    ]);
    assert.equal(noEmail.code, 2);
    assert.equal(noEmail.stdout, '');
    assert.match(noEmail.stderr, /--email is required/);

    assert.equal(badCredits.code, 2);
    assert.equal(badCredits.stdout, '');
    assert.match(badCredits.stderr, /credits must be a number/);

    assert.equal(negative.code, 2);
    assert.match(negative.stderr, /credits must be at least 0/);

    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command "frobnicate"/);

    // None of them touched the database.
    assert.equal(existsSync(path.join(dataDir, 'pg')), false);
  });

  it('parses the service, admin and local commands like the client ones: --help on each, groups listed, strict options', async () => {
    const env = commandEnv(dataDir);
    const commands = [['start'], ['api'], ['worker'], ['migrate'], ['admin', 'create-user'], ['admin', 'set-plan'], ['admin', 'replay'], ['demo'], ['embed-url']];
    const helps = await Promise.all(commands.map((words) => showreel([...words, '--help'], env)));
    helps.forEach((help, i) => {
      assert.equal(help.code, 0, `${commands[i]!.join(' ')} --help: ${help.stderr}`);
      assert.match(help.stdout, new RegExp(`Usage: showreel ${commands[i]!.join(' ')}\\b`));
      assert.match(help.stdout, /-h, --help/);
    });
    assert.match(helps[4]!.stdout, /--email E/);

    const [group, groupHelp, everything, unknownOption, extraWord] = await Promise.all([
      showreel(['admin'], env),
      showreel(['admin', '--help'], env),
      showreel(['--help'], env),
      showreel(['admin', 'replay', '--force'], env),
      showreel(['migrate', 'now'], env),
    ]);
    assert.equal(group.code, 2);
    assert.match(group.stdout, /admin create-user[\s\S]*admin set-plan[\s\S]*admin replay/);
    assert.equal(groupHelp.code, 0);
    assert.equal(everything.code, 0);
    for (const name of ['login', 'demos create', 'admin create-user', 'demo', 'embed-url', 'migrate']) assert.match(everything.stdout, new RegExp(`\\n  ${name} `));
    assert.equal(unknownOption.code, 2);
    assert.match(unknownOption.stderr, /Unknown option '--force'.*Run "showreel admin replay --help"/);
    assert.equal(extraWord.code, 2);
    assert.match(extraWord.stderr, /Usage: showreel migrate/);
    // Help and bad usage never start the database.
    assert.equal(existsSync(path.join(dataDir, 'pg')), false);
  });

  it('creates a user with the server stopped, prints one JSON line, and stops the database it started', async () => {
    const result = await showreel(['admin', 'create-user', '--email', 'first@example.com', '--password', 'correct horse battery', '--credits', '7'], commandEnv(dataDir), 60_000);
    assert.equal(result.code, 0, result.stderr);

    const lines = result.stdout.split('\n');
    assert.equal(lines.length, 2, `exactly one line: ${JSON.stringify(result.stdout)}`);
    assert.equal(lines[1], '');
    firstUser = JSON.parse(lines[0]!);
    assert.deepEqual(Object.keys(firstUser).sort(), ['email', 'live_key', 'user_id']);
    assert.equal(firstUser.email, 'first@example.com');
    assert.match(firstUser.user_id, /\S/);
    assert.match(firstUser.live_key, /^sr_live_/);

    assert.ok(existsSync(path.join(dataDir, 'pg', 'PG_VERSION')), 'the cluster lives in the data dir');
    // A new cluster: said on stderr, in case the server runs on another data dir and would never see this user.
    assert.match(result.stderr, /no database in .+ yet, so a new one is created there\. A server started with another SHOWREEL_DATA_DIR/);
    assertClusterStopped(dataDir);
  });

  it('starts the server on the data dir; create-user reuses its running cluster and the key works at once', async () => {
    server = launch(['start'], commandEnv(dataDir, { PORT: String(port), HOST: '127.0.0.1' }));
    const running = server;
    const health = await until('GET /healthz', 60_000, async () => {
      if (running.exitCode !== null) throw new Error(`the server exited with ${running.exitCode}: ${running.output.stderr}`);
      const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      return response ? { status: response.status, body: await response.json() } : undefined;
    });
    assert.deepEqual(health, { status: 200, body: { status: 'ok' } });
    const clusterPid = postmasterPid(dataDir);
    assert.ok(clusterPid !== null && alive(clusterPid), 'the server started the embedded PostgreSQL');

    // The key made while the server was down works now.
    const before = await fetch(`http://127.0.0.1:${port}/api/v1/projects`, { headers: { authorization: `Bearer ${firstUser.live_key}` } });
    assert.equal(before.status, 200);

    const created = await showreel(
      ['admin', 'create-user', '--email', 'ops@example.com', '--password', 'correct horse battery', '--admin'],
      commandEnv(dataDir, { LOG_LEVEL: 'info' }),
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim().split('\n').length, 1);
    const ops = JSON.parse(created.stdout) as { user_id: string; live_key: string };
    assert.match(created.stderr, /using the embedded PostgreSQL already running on this data dir/);
    assert.doesNotMatch(created.stderr, /no database in/);
    assert.doesNotMatch(created.stderr, /embedded PostgreSQL (started|stopped)/);

    // Same cluster, still running: the command did not stop what it did not start.
    assert.equal(postmasterPid(dataDir), clusterPid);
    assert.ok(alive(clusterPid!));

    const projects = await fetch(`http://127.0.0.1:${port}/api/v1/projects`, { headers: { authorization: `Bearer ${ops.live_key}` } });
    assert.equal(projects.status, 200);
    assert.deepEqual(await projects.json(), { projects: [] });

    // The new admin can read what the first command recorded: exactly 7 starting credits, as asked.
    const admin = createAdminClient({ url: `http://127.0.0.1:${port}`, apiKey: ops.live_key });
    const { events } = await admin.readStream.query({ streamId: `user-${firstUser.user_id}` });
    assert.equal(events[0]?.type, 'UserRegistered');
    assert.equal((events[0]!.data as { startingCredits: number }).startingCredits, 7);
    assert.equal((events[0]!.metadata as { actor: string }).actor, 'admin-cli');
  });

  it('refuses a duplicate email with a clear message and nothing on stdout', async () => {
    const duplicate = await showreel(['admin', 'create-user', '--email', 'first@example.com', '--password', 'another password'], commandEnv(dataDir));
    assert.notEqual(duplicate.code, 0);
    assert.equal(duplicate.stdout, '');
    assert.match(duplicate.stderr, /first@example\.com already exists/);
  });

  it('drains an in-flight request on SIGTERM, logs "stopped", exits 0 and stops its cluster', async () => {
    assert.ok(server, 'the server is running');
    const running = server;
    const clusterPid = postmasterPid(dataDir)!;

    // A request whose body is still arriving when the signal comes.
    const body = JSON.stringify({ name: 'Slow upload', url: 'https://slow.example' });
    const socket = net.connect({ port, host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let raw = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      [
        'POST /api/v1/projects HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${firstUser.live_key}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body.slice(0, 10),
      ].join('\r\n'),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    assert.ok(running.pid !== undefined);
    process.kill(running.pid, 'SIGTERM');
    await until('"shutting down" in the log', 5_000, () => (/"shutting down"/.test(running.output.stdout) ? true : undefined));

    // Draining: no new connections, but the process waits for the request in flight.
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(running.exitCode, null, 'the server waits for the in-flight request');

    // write, not end: a client that half-closes its side has abandoned the request, as far as node's HTTP server is concerned.
    socket.write(body.slice(10));
    await closed;
    assert.match(raw, /^HTTP\/1\.1 201 /, raw);
    const created = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { name: string };
    assert.equal(created.name, 'Slow upload');

    const finished = await exited(running, 10_000);
    server = null;
    assert.equal(finished.code, 0, finished.stderr);
    const messages = jsonLines(finished.stdout).map((line) => line.msg);
    assert.ok(messages.includes('stopped'), `logs "stopped": ${messages.join(', ')}`);
    assert.ok(messages.indexOf('embedded PostgreSQL stopped') < messages.indexOf('stopped'));
    assert.ok(!alive(clusterPid), 'the PostgreSQL the server started is gone');
    assertClusterStopped(dataDir);
    assert.equal(existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), false);
  });

  it('refuses to start with bad environment variables, one line per variable', async () => {
    const result = await showreel(['start'], commandEnv(dataDir, { PORT: 'abc', LOG_LEVEL: 'loud' }));
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, '');
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 2, result.stderr);
    assert.ok(lines.some((line) => /^Invalid environment variable PORT\b/.test(line)), result.stderr);
    assert.ok(lines.some((line) => /^Invalid environment variable LOG_LEVEL\b/.test(line)), result.stderr);
    // It never got as far as the database.
    assertClusterStopped(dataDir);
  });
});
