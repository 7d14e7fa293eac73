import { inTransaction } from '../platform/command.js';
import type { Sql, Tx } from '../platform/database.js';

/**
 * How many commands that charge one account a process runs at once; the others wait here, in order.
 *
 * Charges of one account are serialised anyway, by the account's lock in PostgreSQL (see lockStream), and each
 * command waiting on that lock holds a pooled connection. Unbounded, one account asking for many demos at once took
 * the whole pool, and every other account's requests queued behind its lock: a customer's burst stalled everyone.
 * Waiting here holds no connection. A few at once still, so that while one holds the lock the next has already sent
 * its first statements and waits at the lock in PostgreSQL, ready the moment it is released: that overlap is what
 * lets one account's demos go out at the rate the lock allows.
 *
 * Other processes (API replicas, the worker's refunds) are not counted here; the lock and the append's version
 * check still order them with these.
 */
export function accountTurnsFor(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 4));
}

interface Turns {
  running: number;
  waiting: Array<() => void>;
}

const turnsByPool = new WeakMap<Sql, Map<string, Turns>>();

/** Runs `work` (a command's transaction that charges `userId`) once the account has a turn free in this process. */
export async function inAccountTurn<T>(sql: Sql, userId: string, work: () => Promise<T>): Promise<T> {
  let accounts = turnsByPool.get(sql);
  if (!accounts) {
    accounts = new Map();
    turnsByPool.set(sql, accounts);
  }
  let turns = accounts.get(userId);
  if (!turns) {
    turns = { running: 0, waiting: [] };
    accounts.set(userId, turns);
  }
  if (turns.running >= accountTurnsFor(poolSizeOf(sql))) await new Promise<void>((resolve) => turns.waiting.push(resolve));
  else turns.running++;
  try {
    return await work();
  } finally {
    // The turn passes straight to the next in line (running stays the same), or is given back.
    const next = turns.waiting.shift();
    if (next) next();
    else if (--turns.running === 0) accounts.delete(userId);
  }
}

/** `work` as a command (inTransaction) in one of the account's turns: what every command that charges `userId` runs in. */
export function inAccountTransaction<T>(sql: Sql, userId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return inAccountTurn(sql, userId, () => inTransaction(sql, work));
}

function poolSizeOf(sql: Sql): number {
  const max = (sql.options as { max?: number }).max;
  return typeof max === 'number' && max > 0 ? max : 10;
}
