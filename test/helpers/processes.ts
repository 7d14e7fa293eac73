import { readFileSync, readdirSync } from 'node:fs';

/** Every process below `pid`, read from /proc, so a test can inspect or stop what it started, by PID. */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parents) if (ppid === parent) (found.push(child), queue.push(child));
  }
  return found;
}

/**
 * Chromium's processes started by this test process (its descendants): other people's recordings on the machine do
 * not count. One that appears while something is made "without a browser" would be a browser started (or a page
 * opened: each page has a renderer process of its own).
 */
export function browserProcesses(): Set<number> {
  const named = (pid: number) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    } catch {
      return '';
    }
  };
  return new Set(descendantsOf(process.pid).filter((pid) => /chrom|headless/i.test(named(pid))));
}
