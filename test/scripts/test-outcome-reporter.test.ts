/**
 * npm test runs the files that only timed out once more (scripts/test.ts); the reporter it reads tells a hang from
 * a failure. Run here on made-up test files under node's own runner.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestOutcome } from '../../scripts/test-outcome-reporter.js';

const reporter = path.resolve(import.meta.dirname, '../../scripts/test-outcome-reporter.ts');

describe('the outcome npm test reads after a run', () => {
  let dir: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-outcome-'));
    await fs.writeFile(path.join(dir, 'hangs.test.mjs'), `
      import { it } from 'node:test';
      const keepAlive = setInterval(() => {}, 1000);
      setTimeout(() => clearInterval(keepAlive), 1500);
      it('waits for a frame that never comes', { timeout: 500 }, () => new Promise(() => {}));
    `);
    await fs.writeFile(path.join(dir, 'passes.test.mjs'), `import { it } from 'node:test'; it('passes', () => {});`);
    await fs.writeFile(path.join(dir, 'fails.test.mjs'), `import { it } from 'node:test'; import assert from 'node:assert'; it('adds up', () => assert.equal(1 + 1, 3));`);
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  async function outcomeOf(...files: string[]): Promise<TestOutcome> {
    const destination = path.join(dir, 'outcome.json');
    const args = ['--import', 'tsx', '--test', `--test-reporter=${reporter}`, `--test-reporter-destination=${destination}`, ...files.map((f) => path.join(dir, f))];
    // A runner of its own, not a child of this one (node marks its test processes with NODE_TEST_CONTEXT).
    const { NODE_TEST_CONTEXT: _child, ...env } = process.env;
    await new Promise((resolve) => spawn(process.execPath, args, { stdio: 'ignore', env }).on('exit', resolve));
    return JSON.parse(await fs.readFile(destination, 'utf8')) as TestOutcome;
  }

  it('names the file that timed out, and nothing else failed', async () => {
    const outcome = await outcomeOf('hangs.test.mjs', 'passes.test.mjs');
    assert.deepEqual(outcome.timedOutFiles, [path.join(dir, 'hangs.test.mjs')]);
    assert.deepEqual(outcome.otherFailures, []);
  });

  it('counts a failed assertion as another failure, so the run is not retried', async () => {
    const outcome = await outcomeOf('hangs.test.mjs', 'fails.test.mjs');
    assert.equal(outcome.timedOutFiles.length, 1);
    assert.equal(outcome.otherFailures.length, 1);
    assert.match(outcome.otherFailures[0]!, /fails\.test\.mjs: adds up/);
  });
});
