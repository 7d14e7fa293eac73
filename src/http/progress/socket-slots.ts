/**
 * Counts of progress sockets held (or being opened) per client address and per demo, so that one client cannot hold
 * thousands of sockets open and one demo cannot gather an unbounded audience in one process (issue 34). A slot is
 * taken before any database work of the upgrade and given back exactly once, when the upgrade is refused or the
 * socket closes. Per process: each API process bounds what it holds.
 */
export interface SocketSlots {
  /** Takes a slot of `address` and of `demoId`, or says which cap is full (and takes nothing). */
  take(address: string, demoId: string): { release(): void } | { full: 'address' | 'demo' };
  /** sockets held or being opened on this demo; 0 when none */
  onDemo(demoId: string): number;
}

export function createSocketSlots(limits: { perAddress: number; perDemo: number }): SocketSlots {
  const byAddress = new Map<string, number>();
  const byDemo = new Map<string, number>();
  const decrement = (counts: Map<string, number>, key: string) => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left <= 0) counts.delete(key);
    else counts.set(key, left);
  };
  return {
    take(address, demoId) {
      if ((byAddress.get(address) ?? 0) >= limits.perAddress) return { full: 'address' };
      if ((byDemo.get(demoId) ?? 0) >= limits.perDemo) return { full: 'demo' };
      byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
      byDemo.set(demoId, (byDemo.get(demoId) ?? 0) + 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          decrement(byAddress, address);
          decrement(byDemo, demoId);
        },
      };
    },
    onDemo: (demoId) => byDemo.get(demoId) ?? 0,
  };
}
