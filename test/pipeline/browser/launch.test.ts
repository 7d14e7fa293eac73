/**
 * A browser never outlives its worker (issue 15, finding 6): when the process that launched Chromium is killed with
 * SIGKILL (no handler runs, nothing closes the browser), Chromium goes too, within seconds, with every process of
 * its own. Chromium runs in a process group of its own, so nothing else would ever stop it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { descendantsOf } from '../../helpers/processes.js';

const launchModule = path.resolve(import.meta.dirname, '../../../src/pipeline/browser/launch.ts');


/** Alive and not a zombie waiting for its parent to reap it. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('the browser a worker launched', () => {
  const workers: ChildProcess[] = [];
  const chromium: number[] = [];

  after(() => {
    for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    // Whatever survived the test is stopped here, by PID, so a failing run leaves nothing behind.
    for (const pid of chromium) {
      try {
        if (running(pid)) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  /** A stand-in worker: launches the browser exactly as the pool does, says its PID, and waits (a timer keeps it up). */
  async function startWorker(): Promise<{ worker: ChildProcess; processes: number[] }> {
    const program = `
      const { launchBrowser } = await import(${JSON.stringify(launchModule)});
      const browser = await launchBrowser();
      const page = await browser.newPage();
      await page.goto('about:blank');
      process.stdout.write(String(browser.process().pid) + '\\n');
      setInterval(() => {}, 1000);
    `;
    const worker = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
    workers.push(worker);
    const browserPid = await new Promise<number>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error('the browser did not start within 60 s')), 60_000);
      worker.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const line = /^(\d+)\n/.exec(text);
        if (line) (clearTimeout(timer), resolve(Number(line[1])));
      });
      worker.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the worker exited (${code}) before its browser started`))));
    });
    const processes = [browserPid, ...descendantsOf(browserPid)];
    chromium.push(...processes);
    assert.ok(running(browserPid), 'Chromium runs');
    assert.ok(processes.length > 1, `Chromium has its renderer and helpers: ${processes.join(' ')}`);
    return { worker, processes };
  }

  async function within(ms: number, done: () => boolean): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  it('exits within a few seconds after its worker is killed with SIGKILL', async () => {
    const { worker, processes } = await startWorker();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGKILL');
    await exited;
    await within(5_000, () => !processes.some(running));
    assert.deepEqual(processes.filter(running), [], 'no Chromium process outlives its worker by 5 s');
  });

  it('leaves SIGTERM to its worker: a process without a handler of its own ends, and Chromium with it', async () => {
    // puppeteer's own SIGTERM handler only closed the browser and kept the process alive: a test file timed out by
    // the runner (SIGTERM) lived on, and the whole test run waited for it until CI's limit.
    const { worker, processes } = await startWorker();
    worker.kill('SIGTERM');
    await within(5_000, () => worker.exitCode !== null || worker.signalCode !== null);
    assert.equal(worker.signalCode, 'SIGTERM', 'the worker ended on SIGTERM');
    await within(5_000, () => !processes.some(running));
    assert.deepEqual(processes.filter(running), [], 'no Chromium process outlives its worker by 5 s');
  });
});
