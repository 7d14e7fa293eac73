import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The backends a dead postmaster left behind. When the postmaster is killed (kill -9, the OOM killer), its backends
 * run on: an idle one notices at once and exits, but one busy with a statement only notices when it next waits,
 * which for a long query can be minutes. Until the last of them exits, a new postmaster on the same data dir refuses
 * to start ("pre-existing shared memory block is still in use"), and the database stays down that long.
 *
 * A living postmaster ends its backends with SIGQUIT when one of them crashes; the dead one cannot, so the supervisor
 * does it for it: each is a process named `postgres` working in the cluster's directory (PostgreSQL's processes
 * chdir to their data dir). SIGQUIT makes a backend exit at once without committing anything, so its client gets no
 * acknowledgement for what is lost, and the new postmaster's crash recovery replays what had committed.
 *
 * Linux only (it reads /proc); elsewhere nothing is found, and the restart waits as before.
 */
export async function orphanedBackends(clusterDir: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = await fs.readdir('/proc');
  } catch {
    return [];
  }
  const directory = await fs.realpath(clusterDir).catch(() => path.resolve(clusterDir));
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    // A process that exits meanwhile, or that we may not look into, is not one of them.
    const [name, cwd] = await Promise.all([
      fs.readFile(`/proc/${entry}/comm`, 'utf8').catch(() => ''),
      fs.readlink(`/proc/${entry}/cwd`).catch(() => ''),
    ]);
    if (name.trim() === 'postgres' && cwd === directory) found.push(Number(entry));
  }
  return found;
}

/**
 * Ends the dead postmaster's backends (SIGQUIT) and waits, up to `limitMs`, until they have exited; resolves with
 * how many there were. Called only while no postmaster of ours runs on `clusterDir`.
 */
export async function endOrphanedBackends(clusterDir: string, limitMs = 5000): Promise<number> {
  const orphans = await orphanedBackends(clusterDir);
  for (const pid of orphans) {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // exited already
    }
  }
  const deadline = Date.now() + limitMs;
  let left = orphans;
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    left = (await Promise.all(left.map(async (pid) => ((await isRunning(pid)) ? pid : null)))).filter((pid) => pid !== null);
  }
  return orphans.length;
}

/** Still running: not gone, and not a zombie waiting for whoever inherited it to reap it (it holds nothing). */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The state follows the command name in parentheses, which may itself hold spaces or parentheses.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== '' && state !== 'Z' && state !== 'X';
}
