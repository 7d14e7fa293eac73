import { createRequire } from 'node:module';
import { Logger as WorkerLogger, run, type Runner, type RunnerOptions, type TaskList } from 'graphile-worker';
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

/**
 * Starts graphile-worker in this process. `runner.stop()` lets running jobs finish first, and resolves only once
 * the worker's connections are closed.
 *
 * The worker's pg pool is ours, not graphile-worker's: when it owns the pool, its stop removes the pool's error
 * handler and ends the pool without waiting, so an embedded PostgreSQL stopped right afterwards could terminate a
 * still-open idle connection, whose unhandled 'error' event crashes the process on shutdown.
 */
export async function startWorker(options: WorkerOptions): Promise<Runner> {
  const logger = options.logger.child({ component: 'worker' });
  const pgPool = new Pool({ connectionString: options.connectionString, max: 10 });
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
    await pgPool.end();
    throw error;
  }
  const stop = runner.stop.bind(runner);
  runner.stop = async (reason?: string) => {
    try {
      await stop(reason);
    } finally {
      await pgPool.end();
    }
  };
  return runner;
}

function workerLogger(logger: Logger) {
  // graphile-worker logs through its own Logger class; route it into pino.
  const child = logger.child({ component: 'worker' });
  return new WorkerLogger(() => (level: string, message: string, meta?: unknown) => {
    const fn = level === 'error' ? child.error : level === 'warning' ? child.warn : level === 'debug' ? child.debug : child.info;
    fn.call(child, { meta }, message);
  });
}
