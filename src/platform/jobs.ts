import { createRequire } from 'node:module';
import { Logger as WorkerLogger, run, type Runner, type RunnerOptions, type TaskList } from 'graphile-worker';
import { isDatabaseUnavailable } from './database-availability.js';
import type { Sql, Tx } from './database.js';
import { ConcurrencyError } from './errors.js';
import { commandOf, notifyAfterCommit } from './transaction.js';
import type { Logger } from './logger.js';

/**
 * Enqueue a graphile-worker job inside the caller's transaction, through its SQL API, so that a committed command
 * always has its job and a rolled-back one never does.
 */
export async function enqueueJob(
  tx: Tx,
  task: string,
  payload: unknown,
  options: { jobKey?: string; maxAttempts?: number; runAt?: Date; queueName?: string } = {},
): Promise<string> {
  const [job] = await tx<{ id: string }[]>`
    select id::text from graphile_worker.add_job(
      identifier => ${task}::text,
      payload => ${tx.json(payload as never)}::json,
      queue_name => ${options.queueName ?? null}::text,
      run_at => ${options.runAt ?? null}::timestamptz,
      max_attempts => ${options.maxAttempts ?? null}::smallint,
      job_key => ${options.jobKey ?? null}::text
    )`;
  if (!job) throw new Error(`graphile_worker.add_job returned no job for ${task}`);
  return job.id;
}

const NOT_NULL_VIOLATION = '23502';

/** graphile-worker's wake-up channel: its workers LISTEN here, and poll every few seconds besides. */
const JOBS_INSERTED_CHANNEL = 'jobs:insert';

/**
 * Enqueues a job under a key nobody used before (one with a freshly minted id in it), in the caller's transaction,
 * and wakes the workers once it has committed.
 *
 * Why not add_job: graphile-worker's add_job NOTIFYs its workers inside the transaction, and a NOTIFY makes every
 * notifying transaction of the database commit one after another (see notifyAfterCommit): all new demos, whatever
 * their account, queued on it. So this inserts the row add_job would insert for a new key (task, payload, run_at,
 * max_attempts, key, priority; graphile-worker 0.18's `_private_jobs`, test/platform/jobs.test.ts runs such jobs
 * through a real worker) and sends the nudge after COMMIT. A key already in use is refused (no replace semantics
 * here: use enqueueJob). The task's row is created when missing, as add_job does; should another transaction be
 * creating it at the same moment, the insert fails (no task id for it) and the command is run again
 * (ConcurrencyError). It must fail in the database: a command sends COMMIT without waiting for this statement, so
 * a job row merely not inserted let the demo and its charge commit without their job, and the retry made them twice.
 */
export function enqueueNewJob(tx: Tx, task: string, payload: unknown, options: { jobKey: string; maxAttempts?: number }): Promise<void> {
  const command = commandOf(tx);
  const known = command !== null && knownTasks(command.sql).has(task);
  // A task whose row a committed command of this pool saw needs no creating: the job reads its id. The CTE that
  // creates it ran an insert on graphile-worker's task table each time (the job's statement was ~15–20% dearer in
  // pg_stat_statements, some 15–30 µs of PostgreSQL's execution per demo). Should the row be gone after all
  // (graphile-worker's GC_TASK_IDENTIFIERS cleanup deletes tasks without jobs), the id is null, the NOT NULL below
  // fails the statement, and the retry creates it.
  const json = tx.json(payload as never);
  const maxAttempts = options.maxAttempts ?? 25;
  // Two whole statements, not one with a fragment for the task (a fragment costs the API CPU at every call).
  const statement = known
    ? tx`
        insert into graphile_worker._private_jobs (task_id, payload, run_at, max_attempts, key, priority)
        select (select id from graphile_worker._private_tasks where identifier = ${task}::text), ${json}::json, now(),
               ${maxAttempts}::smallint, ${options.jobKey}::text, 0`
    : tx`
        with new_task as (
          insert into graphile_worker._private_tasks (identifier)
          select ${task}::text where not exists (select 1 from graphile_worker._private_tasks where identifier = ${task}::text)
          on conflict do nothing
          returning id
        ), task as (
          select id from new_task
          union all
          select id from graphile_worker._private_tasks where identifier = ${task}::text
          limit 1
        )
        insert into graphile_worker._private_jobs (task_id, payload, run_at, max_attempts, key, priority)
        select (select id from task), ${json}::json, now(), ${maxAttempts}::smallint, ${options.jobKey}::text, 0`;
  const inserted = statement.then(
    () => {
      if (!known) command?.whenSettled((committed) => committed && knownTasks(command.sql).add(task));
    },
    (error: unknown) => {
      // No task row visible (another transaction was creating it, or it was cleaned up): task_id is null, and its
      // NOT NULL fails the statement, so the transaction cannot commit without its job even when COMMIT was sent
      // right behind. The command runs again, creating the row.
      if ((error as { code?: string }).code === NOT_NULL_VIOLATION) {
        if (command) knownTasks(command.sql).delete(task);
        throw new ConcurrencyError(`job-task:${task}`, 0, null);
      }
      throw error;
    },
  );
  // The key in the payload keeps the nudges of several jobs apart when they leave in one statement (PostgreSQL
  // folds identical ones): graphile-worker wakes one worker per `count`, and ignores the rest.
  const nudge = JSON.stringify({ count: 1, key: options.jobKey });
  return Promise.all([inserted, notifyAfterCommit(tx, JOBS_INSERTED_CHANNEL, nudge)]).then(() => undefined);
}

/** The task identifiers whose row a committed command saw, per pool (per database): see enqueueNewJob. */
const tasksSeen = new WeakMap<Sql, Set<string>>();
function knownTasks(sql: Sql): Set<string> {
  let seen = tasksSeen.get(sql);
  if (!seen) tasksSeen.set(sql, (seen = new Set()));
  return seen;
}

export interface WorkerOptions {
  connectionString: string;
  concurrency: number;
  taskList: TaskList;
  crontab?: string;
  logger: Logger;
}

type PgPool = NonNullable<RunnerOptions['pgPool']>;
// graphile-worker's own `pg`, so the pool is exactly the class it expects.
const { Pool } = createRequire(import.meta.resolve('graphile-worker'))('pg') as {
  Pool: new (config: { connectionString: string; max: number }) => PgPool;
};

/** The worker as the app holds it: only a stop, since the graphile-worker runner under it may be replaced. */
export interface Worker {
  stop(reason?: string): Promise<void>;
}

/**
 * Starts graphile-worker in this process. `worker.stop()` lets running jobs finish first, and resolves only once
 * the worker's connections are closed.
 *
 * Supervised: graphile-worker shuts its pool down for good when it cannot record a job's completion ("queue is in
 * an inconsistent state"), which is what a database restart at that moment does (issue 34: the embedded database
 * is restarted when it dies). Its runner's promise then rejects; unwatched, that rejection would end the process.
 * So a runner that ends on its own is logged and started again, with a backoff (1 s doubling to 30 s) while the
 * database is still away; a job it had not completed is retried by graphile-worker once its lock expires.
 *
 * The worker's pg pool is ours, not graphile-worker's: when it owns the pool, its stop removes the pool's error
 * handler and ends the pool without waiting, so an embedded PostgreSQL stopped right afterwards could terminate a
 * still-open idle connection, whose unhandled 'error' event crashes the process on shutdown.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const logger = options.logger.child({ component: 'worker' });
  let stopping = false;
  let current = await startRunner(options, logger);
  let restarting: Promise<void> | null = null;

  survivePoolShutdownRejections(logger);
  // graphile-worker's runner resolves even when its pool died of an error (it logs the error itself): any end we
  // did not ask for is a reason to start again.
  const watch = (running: RunningWorker) => {
    const restart = (error?: unknown) => {
      if (stopping) return;
      logger.error({ err: error }, 'the job worker stopped on its own; starting it again');
      restarting = restartAfter(running).finally(() => (restarting = null));
    };
    running.runner.promise.then(() => restart(), restart);
  };
  const restartAfter = async (dead: RunningWorker) => {
    // Its pool is closed aside: a connection that died under a query may never be released, and ending a pool
    // waits for every connection.
    void dead.close();
    for (let delayMs = 1000; !stopping; delayMs = Math.min(delayMs * 2, 30_000)) {
      try {
        current = await startRunner(options, logger);
        if (stopping) return void (await current.stop());
        logger.info('the job worker is running again');
        watch(current);
        return;
      } catch (error) {
        logger.warn({ err: error, retryInMs: delayMs }, 'the job worker could not start again yet');
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  };
  watch(current);
  return {
    async stop(reason?: string) {
      stopping = true;
      await restarting;
      await current.stop(reason);
    },
  };
}

/**
 * graphile-worker (0.18) shuts its pool down from callbacks that do not wait for the shutdown's promise, and that
 * promise rejects with the error that caused it: with the database gone, an unhandled rejection that ends the
 * process. Those (and only those: the database being away) are logged; any other unhandled rejection still ends
 * the process, as Node would.
 */
let rejectionGuardInstalled = false;
function survivePoolShutdownRejections(logger: Logger): void {
  if (rejectionGuardInstalled) return;
  rejectionGuardInstalled = true;
  process.on('unhandledRejection', (reason) => {
    if (!isWorkerDatabaseLoss(reason)) throw reason;
    logger.warn({ err: reason }, 'the job worker lost the database; it starts again once the database is back');
  });
}

/**
 * graphile-worker retries only a few connection errors (57P03, EHOSTUNREACH, ETIMEDOUT): a refused connect while
 * the database restarts (ECONNREFUSED, its socket gone) makes the worker that asked exit, and with it the pool. A
 * connect through this pool waits for the database instead, up to a minute (backoff 250 ms doubling to 5 s), so
 * that a restart is a pause for the worker, not its end.
 */
function waitForTheDatabaseOnConnect(pgPool: PgPool, logger: Logger): void {
  const pool = pgPool as unknown as { connect(callback?: unknown): unknown };
  const connect = pool.connect.bind(pool) as (callback?: unknown) => unknown;
  pool.connect = (callback?: unknown) => {
    if (callback) return connect(callback);
    return (async () => {
      const startedAt = Date.now();
      for (let delayMs = 250; ; delayMs = Math.min(delayMs * 2, 5000)) {
        try {
          return await (connect() as Promise<unknown>);
        } catch (error) {
          if (!isWorkerDatabaseLoss(error) || Date.now() - startedAt > 60_000) throw error;
          logger.debug({ err: error, retryInMs: delayMs }, 'the job worker waits for the database');
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
      }
    })();
  };
}

/** The database errors of graphile-worker's `pg` connections (pg names them `error`, not PostgresError). */
function isWorkerDatabaseLoss(thrown: unknown): boolean {
  if (isDatabaseUnavailable(thrown)) return true;
  const code = thrown instanceof Error ? (thrown as Error & { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return false;
  if (/^57P0[1235]$/.test(code) || code.startsWith('08')) return true;
  // A socket error raised by pg's client inside graphile-worker (`write EPIPE` from batchCompleteJobs when the kill
  // fell on a completion, seen in CI): it carries no address, but its stack says whose connection it was.
  return WORKER_SOCKET_LOSS.has(code) && /[\\/]node_modules[\\/](?:pg|graphile-worker)[\\/]/.test((thrown as Error).stack ?? '');
}

/** Socket errors that mean the worker's database connection is gone. */
const WORKER_SOCKET_LOSS = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ENOENT', 'ETIMEDOUT']);

interface RunningWorker {
  runner: Runner;
  /** stops the runner (jobs finish first), then closes its pool */
  stop(reason?: string): Promise<void>;
  /** closes the pool of a runner that already ended on its own */
  close(): Promise<void>;
}

async function startRunner(options: WorkerOptions, logger: Logger): Promise<RunningWorker> {
  const pgPool = new Pool({ connectionString: options.connectionString, max: 10 });
  waitForTheDatabaseOnConnect(pgPool, logger);
  pgPool.on('error', (error) => logger.warn({ err: error }, 'idle worker database connection failed'));
  pgPool.on('connect', (client) => client.on('error', (error) => logger.warn({ err: error }, 'worker database connection failed')));
  let runner: Runner;
  try {
    runner = await run({
      pgPool,
      concurrency: options.concurrency,
      taskList: options.taskList,
      crontab: options.crontab ?? '',
      noHandleSignals: true,
      pollInterval: 1000,
      logger: workerLogger(options.logger),
    });
  } catch (error) {
    await pgPool.end().catch(() => undefined);
    throw error;
  }
  let poolEnded: Promise<void> | null = null;
  const close = () => (poolEnded ??= pgPool.end().catch(() => undefined));
  return {
    runner,
    close,
    async stop(reason?: string) {
      try {
        await runner.stop(reason);
      } catch {
        // it had already ended on its own (the supervisor saw why)
      } finally {
        await close();
      }
    },
  };
}

function workerLogger(logger: Logger) {
  // graphile-worker logs through its own Logger class; route it into pino.
  const child = logger.child({ component: 'worker' });
  return new WorkerLogger(() => (level: string, message: string, meta?: unknown) => {
    const fn = level === 'error' ? child.error : level === 'warning' ? child.warn : level === 'debug' ? child.debug : child.info;
    fn.call(child, { meta }, message);
  });
}
