import type { Sql } from '../platform/database.js';
import { notifyDemoWebhooks } from '../webhooks/notify.js';

/** What a scheduled or webhook refresh found (issue 37), for the systems a project tells about it. */
export interface RefreshOutcome {
  projectId: string;
  demoId: string;
  jobId: string;
  type: 'demo.changed' | 'demo.unchanged';
  triggeredBy: string;
  /** What changed, in a marketer's words; [] for demo.unchanged. */
  changes: string[];
  /** The thumbnails of the version the refresh started from and of the one it recorded (null when none). */
  beforeThumbnailUrl: string | null;
  afterThumbnailUrl: string | null;
  oldVersion: number | null;
  newVersion: number | null;
  checkedAt: string;
}

/**
 * Called once a scheduled or webhook refresh has finished and its outcome is committed: the project's webhook
 * endpoints subscribed to `demo.changed` / `demo.unchanged` get it (src/webhooks), with the changes in words and the
 * before and after thumbnails. The pipeline awaits it and logs what it throws, so an announcement that fails never
 * fails the refresh. (A re-recorded refresh's endpoints also get `demo.ready` when its version is published.)
 */
export async function announceRefreshOutcome(sql: Sql, outcome: RefreshOutcome): Promise<void> {
  await notifyDemoWebhooks(sql, {
    projectId: outcome.projectId,
    demoId: outcome.demoId,
    type: outcome.type,
    data: {
      status: outcome.type === 'demo.unchanged' ? 'unchanged' : 'changed',
      job_id: outcome.jobId,
      triggered_by: outcome.triggeredBy,
      changes: outcome.changes,
      before_thumbnail_url: outcome.beforeThumbnailUrl,
      after_thumbnail_url: outcome.afterThumbnailUrl,
      old_version: outcome.oldVersion,
      new_version: outcome.newVersion,
      checked_at: outcome.checkedAt,
    },
  });
}
