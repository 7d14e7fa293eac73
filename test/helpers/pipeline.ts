import { completeDemoJob, failDemoJob, startDemoJob } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import type { Sql } from '../../src/platform/database.js';

/** Stands in for the recording pipeline: reports a job's outcome through the same commands it will use. */
/** `changes`: what the pipeline found changed on the page (issue 37), as a refresh reports it. */
export async function finishJob(sql: Sql, demoId: string, jobId: string, options: { actionScript?: string | null; changes?: string[] } = {}) {
  return inTransaction(sql, async (tx) => {
    await startDemoJob(tx, demoId, jobId, 1, { actor: 'pipeline' });
    return completeDemoJob(
      tx,
      {
        demoId,
        jobId,
        videoKey: `demos/${demoId}/video.mp4`,
        gifKey: `demos/${demoId}/preview.gif`,
        thumbnailKey: `demos/${demoId}/thumb.png`,
        durationMs: 10_000,
        title: 'A demo',
        actionScript: options.actionScript === undefined ? JSON.stringify({ steps: [{ action: 'scroll' }] }) : options.actionScript,
        ...(options.changes ? { changes: options.changes } : {}),
      },
      { actor: 'pipeline' },
    );
  });
}

export async function failJob(sql: Sql, demoId: string, jobId: string, error = 'The page did not load within 30 s.') {
  return inTransaction(sql, (tx) => failDemoJob(tx, demoId, jobId, error, { actor: 'pipeline' }));
}

export async function queuedJobs(sql: Sql, task: string) {
  return sql<{ payload: { demoId: string; jobId: string }; key: string | null }[]>`
    select j.payload, j.key from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier = ${task} order by j.id`;
}
