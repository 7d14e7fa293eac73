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
