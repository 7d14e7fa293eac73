import type { Sql, Tx } from '../platform/database.js';
import { ConcurrencyError } from '../platform/errors.js';
import { commandOf } from '../platform/transaction.js';
import type { CreditState } from './decide.js';
import { creditStream } from './events.js';

/**
 * The state this process last committed for each credit account, so that a charge can be decided without reading
 * the account first: its append then goes out with the command's other statements and COMMIT, one round trip for a
 * whole demo instead of two. Sound because the append still carries the expected version: when anything else wrote
 * to the account since (another process, a refund by the worker), the append fails under the account's lock, the
 * command rolls back, forgets the entry, and inTransaction runs it again from a fresh read.
 *
 * An entry is only handed out while no other command of this process is using the same account: two charges
 * decided on one remembered version would send the second back every time (one account, many demos at once). Those
 * take the lock-then-read path instead, which queues them.
 *
 * Several API processes behind a balancer each see only some of an account's commands, so what each remembers is
 * often stale, and every stale use costs a whole command run in vain. So after a command that used an account rolled
 * back because the account's stream had moved, this process remembers nothing of it for a while: an account written
 * from elsewhere costs one wasted attempt per process per cool-down, not one per command. Any other rollback (a
 * project not found, another stream that moved, a lost connection) only forgets the entry: the next command reads
 * the account once and is remembered again. Cooling down then too sent every demo of an account through the read
 * for 10 s after, say, the first demos of a fresh process raced to create the job's task row (bench:api, 32
 * accounts: ~20% of demos read the account, in runs where that race happened).
 */

interface Remembered {
  /** Balance, auto top-off and opened; `charges` is empty (a charge under a reference just minted needs none). */
  state: CreditState;
  version: number;
}

interface Accounts {
  remembered: Map<string, Remembered>;
  /** Commands of this process between their first look at the account and their COMMIT or rollback. */
  inUse: Map<string, number>;
  /** Accounts not to remember until the time given (ms since the epoch), after a rollback. */
  coolingDown: Map<string, number>;
}

/** Enough for every account active at once; the oldest are dropped first (they only cost a read again). */
const MAX_REMEMBERED = 10_000;
/** How long an account is not remembered after a command that used it rolled back. */
export const COOL_DOWN_MS = 10_000;

const byPool = new WeakMap<Sql, Accounts>();

function accountsOf(sql: Sql): Accounts {
  let accounts = byPool.get(sql);
  if (!accounts) {
    accounts = { remembered: new Map(), inUse: new Map(), coolingDown: new Map() };
    byPool.set(sql, accounts);
  }
  return accounts;
}

export interface AccountUse {
  /** What this process last committed for the account, when no other command of it is using the account; else null. */
  remembered: Remembered | null;
  /** Call when the command's append to the account is decided: on COMMIT it becomes what is remembered. */
  willBe(state: CreditState, version: number): void;
}

/**
 * Marks the account as in use by the command `tx` runs, until that command commits or rolls back. Outside
 * inTransaction (no retry when the version moved) nothing is remembered or handed out: null.
 */
export function useAccount(tx: Tx, userId: string): AccountUse | null {
  const command = commandOf(tx);
  if (!command) return null;
  const accounts = accountsOf(command.sql);
  const users = accounts.inUse.get(userId) ?? 0;
  const remembered = users === 0 ? (accounts.remembered.get(userId) ?? null) : null;
  accounts.inUse.set(userId, users + 1);
  let next: Remembered | null = null;
  command.whenSettled((committed, failure) => {
    const left = (accounts.inUse.get(userId) ?? 1) - 1;
    if (left === 0) accounts.inUse.delete(userId);
    else accounts.inUse.set(userId, left);
    if (!committed) {
      // Whatever was remembered may be stale (a lost connection leaves the COMMIT's fate unknown): read it next time.
      accounts.remembered.delete(userId);
      if (!(failure instanceof ConcurrencyError && failure.streamId === creditStream(userId))) return;
      // The account moved underneath this process: others write to it, so do not remember it for a while.
      accounts.coolingDown.delete(userId); // re-inserted last: the oldest are the first dropped
      accounts.coolingDown.set(userId, Date.now() + COOL_DOWN_MS);
      if (accounts.coolingDown.size > MAX_REMEMBERED) accounts.coolingDown.delete(accounts.coolingDown.keys().next().value!);
      return;
    }
    if (!next) return;
    const until = accounts.coolingDown.get(userId);
    if (until !== undefined) {
      if (Date.now() < until) return;
      accounts.coolingDown.delete(userId);
    }
    // Two commands of this process may commit in either order as seen from here: the higher version is the later.
    const current = accounts.remembered.get(userId);
    if (current && current.version > next.version) return;
    accounts.remembered.delete(userId);
    accounts.remembered.set(userId, next);
    if (accounts.remembered.size > MAX_REMEMBERED) accounts.remembered.delete(accounts.remembered.keys().next().value!);
  });
  return {
    remembered,
    willBe(state, version) {
      next = { state: { ...state, charges: new Map() }, version };
    },
  };
}
