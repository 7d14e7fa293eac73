import type { Sql } from '../platform/database.js';
import type { Logger } from '../platform/logger.js';

const BEAT_EVERY_MS = 5_000;

/** Beats for one running job until stopped. */
export function startHeartbeat(sql: Sql, jobId: string, workerId: string): () => Promise<void> {
  const beat = () => sql`
    insert into job_heartbeats (job_id, worker_id, beat_at) values (${jobId}, ${workerId}, now())
    on conflict (job_id) do update set worker_id = excluded.worker_id, beat_at = now()`.catch(() => undefined);
  void beat();
  const timer = setInterval(beat, BEAT_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await sql`delete from job_heartbeats where job_id = ${jobId}`.catch(() => undefined);
  };
}

/**
 * Unlocks pipeline jobs held by workers that stopped beating (kill -9, a lost machine), so another worker picks
 * them up. Safe even if such a worker were alive after all: every outcome of a job is idempotent (one version,
 * one charge).
 */
export async function sweepDeadWorkers(sql: Sql, logger: Logger, tasks: string[], staleAfterSeconds: number): Promise<string[]> {
  const rows = await sql<{ locked_by: string }[]>`
    select distinct j.locked_by
    from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id
    left join job_heartbeats h on h.job_id = j.id
    where j.locked_by is not null
      and t.identifier in ${sql(tasks)}
      and j.locked_at < now() - make_interval(secs => ${staleAfterSeconds})
      and (h.beat_at is null or h.beat_at < now() - make_interval(secs => ${staleAfterSeconds}))`;
  const workers = rows.map((r) => r.locked_by);
  if (workers.length > 0) {
    await sql`select graphile_worker.force_unlock_workers(${workers}::text[])`;
    logger.warn({ workers }, 'unlocked the jobs of workers that stopped beating');
  }
  return workers;
}

/**
 * Sweeps every half stale-period in this worker process (graphile-worker's cron runs at most once a minute; a
 * killed worker's demo should resume sooner). Returns a stop function.
 */
export function startDeadWorkerSweeper(sql: Sql, logger: Logger, tasks: string[], staleAfterSeconds: number): () => void {
  const sweep = () => void sweepDeadWorkers(sql, logger, tasks, staleAfterSeconds).catch((error: unknown) => logger.warn({ err: error }, 'dead-worker sweep failed'));
  sweep();
  const timer = setInterval(sweep, Math.max(1000, (staleAfterSeconds * 1000) / 2));
  timer.unref();
  return () => clearInterval(timer);
}
