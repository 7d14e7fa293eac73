import { Logger as WorkerLogger, run, type Runner, type TaskList } from 'graphile-worker';
import type { Tx } from './database.js';
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
      identifier => ${task},
      payload => ${tx.json(payload as never)},
      queue_name => ${options.queueName ?? null},
      run_at => ${options.runAt ?? null},
      max_attempts => ${options.maxAttempts ?? null},
      job_key => ${options.jobKey ?? null}
    )`;
  if (!job) throw new Error(`graphile_worker.add_job returned no job for ${task}`);
  return job.id;
}

export interface WorkerOptions {
  connectionString: string;
  concurrency: number;
  taskList: TaskList;
  crontab?: string;
  logger: Logger;
}

/** Starts graphile-worker in this process. `runner.stop()` lets running jobs finish first. */
export async function startWorker(options: WorkerOptions): Promise<Runner> {
  return run({
    connectionString: options.connectionString,
    concurrency: options.concurrency,
    taskList: options.taskList,
    crontab: options.crontab ?? '',
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger(options.logger),
  });
}

function workerLogger(logger: Logger) {
  // graphile-worker logs through its own Logger class; route it into pino.
  const child = logger.child({ component: 'worker' });
  return new WorkerLogger(() => (level: string, message: string, meta?: unknown) => {
    const fn = level === 'error' ? child.error : level === 'warning' ? child.warn : level === 'debug' ? child.debug : child.info;
    fn.call(child, { meta }, message);
  });
}
