/**
 * `npm test`: starts one throwaway embedded PostgreSQL for the whole run (unless TEST_DATABASE_URL points at
 * one), migrates its `showreel` database as the template, then runs every test file under node's test runner in
 * parallel. Each test file clones the template into a database of its own, so files never see each other's rows.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { registerDomain } from '../src/domain.js';
import { connect } from '../src/platform/database.js';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.js';
import { migrate } from '../src/platform/migrate.js';
import type { TestOutcome } from './test-outcome-reporter.js';

const root = path.resolve(import.meta.dirname, '..');
let embedded = null as Awaited<ReturnType<typeof startEmbeddedPostgres>> | null;
let dataDir: string | null = null;

async function main(): Promise<number> {
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-test-'));
    await fs.chmod(dataDir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    url = embedded.url;
  }
  registerDomain();
  const sql = connect(url, { max: 2 });
  await migrate(sql, url);
  await sql.end();

  const files = process.argv.slice(2);
  const first = await runTests(url, files.length > 0 ? files : ['test/**/*.test.ts']);
  if (first.code === 0 || first.outcome === null) return first.code;
  // Real Chromium now and then hangs under a loaded machine (once in CI: a recorded test file ran into its 300 s
  // limit, never seen in 80 recordings under load since). A run whose only failures are such hangs runs those
  // files once more, and says so; a second hang, or any other failure, fails the run.
  const { timedOutFiles, otherFailures } = first.outcome;
  if (timedOutFiles.length === 0 || otherFailures.length > 0) return first.code;
  const relative = timedOutFiles.map((file) => path.relative(root, file));
  console.error(`\nOnly timeouts failed this run, in ${relative.join(', ')}; running ${relative.length === 1 ? 'that file' : 'those files'} once more.\n`);
  const second = await runTests(url, relative);
  return second.code;
}

async function runTests(url: string, files: string[]): Promise<{ code: number; outcome: TestOutcome | null }> {
  const outcomeFile = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-test-outcome-')), 'outcome.json');
  const args = [
    '--import', 'tsx',
    '--test',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(import.meta.dirname, 'test-outcome-reporter.ts')}`, `--test-reporter-destination=${outcomeFile}`,
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? Math.max(2, os.availableParallelism())}`,
    '--test-timeout=300000',
    ...files,
  ];
  // The runner leads a process group of its own, so whatever its test files leave behind can be stopped with it.
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', detached: true, env: { ...process.env, TEST_DATABASE_URL: url } });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone already
    }
  };
  const onSignal = (signal: NodeJS.Signals) => signalGroup(signal);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A test file that ignores the runner's SIGTERM after its own timeout keeps the runner waiting for ever (seen in
  // CI: the summary printed, then nothing until CI's limit). The whole run gets a limit of its own, well inside CI's.
  // 75 min: inside CI's 90, above what a busy two-core machine takes (a fresh clone's run beside two recordings was
  // stopped at the former 40 min while its tests still passed one by one).
  const limitMs = Number(process.env.TEST_RUN_TIMEOUT_MS ?? 75 * 60_000);
  let overran = false;
  const watchdog = setTimeout(() => {
    overran = true;
    console.error(`\nThe test run did not finish within ${Math.round(limitMs / 1000)} s; stopping it and every process it left.`);
    signalGroup('SIGKILL');
  }, limitMs);
  const code = await new Promise<number>((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  clearTimeout(watchdog);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  signalGroup('SIGKILL'); // anything a test file left running
  if (overran) return { code: 1, outcome: null };
  const outcome = await fs.readFile(outcomeFile, 'utf8').then((text) => JSON.parse(text) as TestOutcome, () => null);
  await fs.rm(path.dirname(outcomeFile), { recursive: true, force: true });
  return { code, outcome };
}

const code = await main().catch((error: unknown) => {
  console.error(error);
  return 1;
});
await embedded?.stop();
if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
process.exit(code);
