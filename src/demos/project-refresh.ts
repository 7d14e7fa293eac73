import type { Sql } from '../platform/database.js';
import { QuotaError } from '../platform/errors.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { inTransaction } from '../platform/command.js';
import { queueDemoJob } from './commands.js';
import type { DurationTarget, Trigger } from './events.js';
import { listRefreshableDemos } from './queries.js';

/**
 * Queues a refresh for every ready, generated demo of a project (manual project refresh, deploy webhook, schedule).
 * One transaction per demo, so one demo's problem never undoes the others. When credits run out part-way, what
 * was queued stays queued and the rest is skipped; with nothing queued at all, the caller gets the 429.
 */
export async function refreshProjectDemos(sql: Sql, projectId: string, triggeredBy: Trigger, metadata: EventMetadata, options: { force?: boolean } = {}) {
  const jobs: Array<{ demoId: string; jobId: string }> = [];
  for (const demo of await listRefreshableDemos(sql, projectId)) {
    try {
      const job = await inTransaction(sql, (tx) =>
        queueDemoJob(
          tx,
          { demoId: demo.id, userId: null, kind: 'refresh', triggeredBy, onlyIfReady: true, durationTarget: (demo.duration_target ?? '10s') as DurationTarget, force: options.force },
          metadata,
        ),
      );
      if (job?.queued) jobs.push({ demoId: demo.id, jobId: job.jobId });
    } catch (error) {
      if (error instanceof QuotaError) {
        if (jobs.length === 0) throw error;
        break;
      }
      throw error;
    }
  }
  return jobs;
}
