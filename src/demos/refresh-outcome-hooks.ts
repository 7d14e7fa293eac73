import type { Sql } from '../platform/database.js';

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
 * Called once a scheduled or webhook refresh has finished and its outcome is committed. A placeholder: the
 * outbound webhooks (issue 37 item 3) fill it in with
 * `notifyDemoWebhooks(sql, { projectId, demoId, type, data })`. The pipeline awaits it and logs what it throws, so
 * an announcement that fails never fails the refresh.
 */
export async function announceRefreshOutcome(_sql: Sql, _outcome: RefreshOutcome): Promise<void> {}
