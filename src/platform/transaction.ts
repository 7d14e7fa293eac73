import type { Sql, Tx } from './database.js';
import { isDatabaseUnavailable } from './database-availability.js';
import { ConcurrencyError } from './errors.js';

/**
 * The command transaction, driven by hand on a reserved connection so that it costs no round trip of its own:
 * BEGIN goes out with the command's first statements, COMMIT with its last ones (see beforeCommit). Each round
 * trip costs the API process about 90 µs of CPU, and an account's lock is held until COMMIT has run: both are why.
 *
 * postgres.js's `sql.begin` awaits BEGIN before running the callback and COMMIT after it: two round trips more.
 */

// Measured: 20 writers racing on one stream all succeed within 20 attempts; 8 left some failing (test/platform/event-store.test.ts).
export const MAX_COMMAND_ATTEMPTS = 20;

/** Statements a command sent and does not wait for, per transaction: COMMIT is sent right behind them. */
const unawaited = new WeakMap<object, (statement: Promise<unknown>) => void>();
/** Notifications to send once the transaction has committed (see notifyAfterCommit), per transaction. */
const notifications = new WeakMap<object, Array<{ channel: string; payload: string }>>();
/** The command's pool and what to call once it has committed or rolled back (see commandOf), per transaction. */
const commands = new WeakMap<object, CommandScope>();

/**
 * What a module may know of the command it sends statements for, when that command runs in inTransaction: the pool
 * (for state kept per database) and a hook for the command's end. Such a command is run again from scratch when a
 * stream moved (ConcurrencyError), so a module may decide on state it remembers, as long as its append checks the
 * version (see chargeNewReference).
 */
export interface CommandScope {
  sql: Sql;
  /**
   * Called once, after COMMIT (true) or after the rollback of this attempt (false, with the error the command failed
   * with: a ConcurrencyError names the stream that moved).
   */
  whenSettled(hook: (committed: boolean, failure: unknown) => void): void;
}

/** The inTransaction command `tx` belongs to; null inside any other transaction (`sql.begin`), which no one retries. */
export function commandOf(tx: Tx): CommandScope | null {
  return commands.get(tx) ?? null;
}

/**
 * Runs `work` in one transaction and, when a stream moved underneath it (ConcurrencyError), runs all of it again
 * from a fresh read. Because the whole transaction is retried, an effect is never half-applied and never doubled.
 */
export async function inTransaction<T>(sql: Sql, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(sql, work);
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= MAX_COMMAND_ATTEMPTS) throw error;
      // Jittered backoff so writers that collided do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

/**
 * How long a command waits for a connection of its own before it is answered 503 (CONNECTION_WAIT_TIMEOUT). The
 * pool hands one over in milliseconds, under load too; the wait only runs out when the database is away, or when
 * postgres.js has lost the request for a connection (it drops one that it used to start a connect which then
 * succeeds: seen right after a restart, a write held for ever).
 */
export const CONNECTION_WAIT_MS = 2000;

async function reserveWithin(sql: Sql, ms: number): Promise<Awaited<ReturnType<Sql['reserve']>>> {
  const reservation = sql.reserve();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = Object.assign(new Error(`No database connection within ${ms} ms.`), { code: 'CONNECTION_WAIT_TIMEOUT' });
  try {
    return await Promise.race([reservation, new Promise<never>((_, reject) => (timer = setTimeout(reject, ms, timedOut)))]);
  } catch (error) {
    // A connection that comes after all goes back to the pool.
    if (error === timedOut) reservation.then((late) => late.release(), () => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function runOnce<T>(sql: Sql, work: (tx: Tx) => Promise<T>): Promise<T> {
  const connection = await reserveWithin(sql, CONNECTION_WAIT_MS);
  const tx = connection as unknown as Tx;
  const pending: Promise<unknown>[] = [];
  let closed = false;
  // Settles (fails) when this connection is found gone. postgres.js queues a reserved connection's statements
  // behind one whose answer it waits for (one it must describe first, say), and a close rejects only the ones sent:
  // the queued ones neither run nor fail. The command then fails with the close, not wait on them for ever.
  let lose: (error: unknown) => void = () => {};
  const lost = new Promise<never>((_, reject) => (lose = reject));
  lost.catch(() => undefined);
  const watch = <P extends Promise<unknown>>(statement: P): P => {
    statement.catch((error: unknown) => {
      // A connection error, or the server ending the session (57P01 when it shuts down or its postmaster died):
      // either way this connection is gone, and the pool reconnects it.
      if (String((error as { code?: unknown }).code).startsWith('CONNECTION_') || isDatabaseUnavailable(error)) {
        closed = true;
        lose(error);
      }
    });
    return statement;
  };
  unawaited.set(tx, (statement) => pending.push(watch(statement)));
  const afterCommit: Array<{ channel: string; payload: string }> = [];
  notifications.set(tx, afterCommit);
  const settledHooks: Array<(committed: boolean, failure: unknown) => void> = [];
  commands.set(tx, { sql, whenSettled: (hook) => settledHooks.push(hook) });
  let committed = false;
  let failure: unknown = null;
  /** COMMIT has run (it committed, or it rolled back an aborted transaction): nothing is left to roll back. */
  let ended = false;
  // Not awaited: sent in the same write as the statements `work` sends before its first await. Its failure (a
  // broken connection) fails those statements too, and is checked with them before COMMIT.
  const begun = watch(connection.unsafe('begin').then(() => undefined));
  try {
    const result = await Promise.race([work(tx), lost]);
    // Sent behind the unawaited statements in the same round trip. PostgreSQL runs them in order: when one of them
    // fails, the transaction is aborted and COMMIT only rolls back, and the failure is the command's error.
    const commitSent = watch(
      connection.unsafe('commit').then(
        (r) => ((ended = true), r),
        (error: unknown) => {
          // A server's answer (e.g. a deferred check that failed) ends the transaction; a broken connection does too.
          ended = true;
          throw error;
        },
      ),
    );
    const [, , commit] = await Promise.race([settleInOrder([begun, settleInOrder(pending), commitSent] as const), lost]);
    if ((commit as { command?: string }).command !== 'COMMIT') throw new Error('The transaction was rolled back at COMMIT.');
    committed = true;
    if (afterCommit.length > 0) sendNotifications(sql, afterCommit);
    return result;
  } catch (error) {
    // A statement the command did not wait for may have failed first (a job whose task row it could not see): what
    // the command awaited after it then failed only because the transaction was aborted. The earlier failure is the
    // command's error, and a ConcurrencyError among them runs the command again.
    const cause = isAbortedTransaction(error) ? await Promise.race([settleInOrder(pending), lost]).then(() => null, (earlier: unknown) => earlier) : null;
    // Queued behind anything still in flight. Once COMMIT has answered there is nothing to roll back: a command that
    // failed on the database's side (a stream that moved, a project not found) costs no round trip more.
    failure = cause ?? error;
    if (isDatabaseUnavailable(failure)) closed = true;
    // Nothing to roll back on a connection that is gone (the server rolled it back), and nothing may be written to it.
    if (!ended && !closed) await watch(connection.unsafe('rollback').then(() => undefined)).catch(() => undefined);
    throw failure;
  } finally {
    unawaited.delete(tx);
    notifications.delete(tx);
    commands.delete(tx);
    for (const hook of settledHooks) hook(committed, failure);
    // A connection that closed is already back in the pool's closed queue (it reconnects on demand); releasing it
    // would hand the next caller a dead socket.
    if (!closed) connection.release();
  }
}

/** SQLSTATE 25P02: a statement sent after one that failed, in the same transaction. */
const IN_FAILED_TRANSACTION = '25P02';

function isAbortedTransaction(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === IN_FAILED_TRANSACTION;
}

/**
 * NOTIFY `channel` once the transaction has committed, for listeners that only need a nudge (a worker that also
 * polls, a cache that also expires). A NOTIFY inside a transaction takes PostgreSQL's one database-wide NOTIFY lock
 * at COMMIT and holds it through the commit's WAL flush, so every notifying transaction of the database commits one
 * after the other; sent after COMMIT on its own, it writes no WAL and holds that lock for microseconds. Measured
 * (`npm run bench:api`): demos of 32 accounts 200–230 → ~390 req/s with the job's and the demo's notifications
 * moved out. A notification lost with a crash right after COMMIT only costs its listener the wait for its poll.
 * Inside any other transaction (`sql.begin`) it is sent in the transaction, as before.
 */
export async function notifyAfterCommit(tx: Tx, channel: string, payload: string): Promise<void> {
  const queued = notifications.get(tx);
  if (queued) queued.push({ channel, payload });
  else await tx`select pg_notify(${channel}, ${payload})`;
}

/** Notifications of commands that committed during this turn of the event loop, per pool, sent together. */
const outbox = new WeakMap<Sql, Array<{ channel: string; payload: string }>>();

/**
 * Queues the nudges of a command that committed; the next turn of the event loop sends every command's in one
 * statement. At hundreds of demos a second, several COMMITs come back in the same turn: one write and one
 * notifying transaction instead of one per command (each costs both processes a system call, PostgreSQL a
 * transaction and every listener a wake-up). Identical notifications in one statement reach listeners once, as
 * PostgreSQL folds them: a payload that must be counted must differ (see enqueueNewJob).
 */
function sendNotifications(sql: Sql, queued: Array<{ channel: string; payload: string }>): void {
  const waiting = outbox.get(sql);
  if (waiting) {
    waiting.push(...queued);
    return;
  }
  outbox.set(sql, [...queued]);
  setImmediate(() => {
    const batch = outbox.get(sql) ?? [];
    outbox.delete(sql);
    const channels = batch.map((n) => n.channel);
    const payloads = batch.map((n) => n.payload);
    // Not awaited by any command: the answer does not wait for a nudge, and a failed one is only a later poll.
    sql`select pg_notify(c, p) from unnest(${channels}::text[], ${payloads}::text[]) as n(c, p)`.catch(() => undefined);
  });
}

/**
 * Lets the command go on without waiting for `statements` (already sent), whose results it does not need: in
 * inTransaction, COMMIT is sent right behind them, and their failure is the command's failure (a ConcurrencyError
 * retries it). Inside any other transaction (`sql.begin`), which would commit without looking, it waits for them.
 */
export async function beforeCommit(tx: Tx, statements: Promise<unknown>): Promise<void> {
  const add = unawaited.get(tx);
  if (!add) {
    await statements;
    return;
  }
  // Handled here so that a failure while the command is still running is not an unhandled rejection; it is
  // reported from the list, in order, at COMMIT.
  statements.catch(() => undefined);
  add(statements);
}

/**
 * Waits for every promise, then fails with the first failure in the order given (not the first in time): the
 * caller decides which error wins, e.g. a missing project before the statements sent behind its read.
 */
export async function settleInOrder<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
