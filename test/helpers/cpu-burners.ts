import { type ChildProcess, spawn } from 'node:child_process';
import { after, before } from 'node:test';

/**
 * Processes that keep the CPU busy while a test's recordings run (issue 58: a worker recording beside other work),
 * started before the describe's tests and stopped, by their own pids, after them. Tests beside them assert outcomes
 * (every step done, no picture lost), never how long anything took.
 */
export function cpuBurners(count: number): void {
  const children: ChildProcess[] = [];
  before(() => {
    for (let i = 0; i < count; i++) children.push(spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' }));
  });
  after(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
}
