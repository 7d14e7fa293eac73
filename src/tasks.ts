import type { TaskList } from 'graphile-worker';
import { deleteExpiredSessions } from './auth/index.js';
import { DEMO_MEDIA_DELETE_TASK, DEMO_VERSIONS_EXPIRE_TASK, UPLOAD_DERIVE_TASK, removeExpiredVersionMedia } from './demos/index.js';
import { SCHEDULE_CRONTAB, runScheduledRefresh } from './demos/schedules.js';
import { demoPrefix } from './platform/storage/index.js';
import type { PipelineServices } from './pipeline/run-job.js';
import { pipelineTasks } from './pipeline/tasks.js';
import { deriveUploadPreviews } from './pipeline/derive-upload.js';
import { deleteOldRateLimitWindows } from './platform/rate-limit.js';
import { deleteOldEmbedGenerationCounts } from './embeds/index.js';
import type { SecretBox } from './platform/secrets.js';
import { WEBHOOK_PRUNE_CRONTAB, webhookTasks } from './webhooks/index.js';
import { ANALYTICS_CRONTAB, ANALYTICS_RETENTION_TASK, ANALYTICS_ROLLUP_TASK, applyRetention, runHourlyRollup } from './analytics/index.js';

/** Every graphile-worker task of the service, by name: housekeeping, schedules, and the recording pipeline. */
export function createTaskList(services: PipelineServices & { secrets: SecretBox }): TaskList {
  const { sql, logger, storage } = services;
  return {
    ...pipelineTasks(services),
    // Outbound webhooks (issue 37): one attempt per job, the next one queued on the retry schedule.
    ...webhookTasks(services),
    sessions_delete_expired: async () => {
      const deleted = await deleteExpiredSessions(sql);
      if (deleted > 0) logger.info({ deleted }, 'expired sessions deleted');
      await deleteOldRateLimitWindows(sql);
      await deleteOldEmbedGenerationCounts(sql);
    },
    // Media of a deleted demo go after the delete commits; a failure retries with backoff.
    [DEMO_MEDIA_DELETE_TASK]: async (payload) => {
      const { demoId } = payload as { demoId: string };
      await storage.deletePrefix(demoPrefix(demoId));
    },
    // An uploaded video's thumbnail and GIF, made here rather than in the request that brought it (issue 34).
    [UPLOAD_DERIVE_TASK]: async (payload) => {
      await deriveUploadPreviews(services, (payload as { demoId: string }).demoId);
    },
    // Versions past the retention lose their media after each new version (issue 35).
    [DEMO_VERSIONS_EXPIRE_TASK]: async (payload) => {
      const { demoId } = payload as { demoId: string };
      const removed = await removeExpiredVersionMedia(sql, storage, demoId, services.config.SHOWREEL_VERSIONS_KEPT, { actor: 'worker' });
      if (removed.length > 0) logger.info({ demoId, removed }, 'expired versions removed');
    },
    // View analytics (issue 38): finished hours rolled up; raw beacons past the retention and old salts deleted.
    [ANALYTICS_ROLLUP_TASK]: async () => {
      const rolled = await runHourlyRollup(sql);
      logger.info({ from: rolled.from, to: rolled.to, rows: rolled.rows }, 'view analytics rolled up');
    },
    [ANALYTICS_RETENTION_TASK]: async () => {
      const deleted = await applyRetention(sql, services.config.SHOWREEL_ANALYTICS_RETENTION_DAYS);
      if (deleted.beacons > 0 || deleted.salts > 0) logger.info(deleted, 'old view beacons and salts deleted');
    },
    demos_refresh_daily: async () => {
      await runScheduledRefresh(sql, logger, 'daily');
    },
    demos_refresh_weekly: async () => {
      await runScheduledRefresh(sql, logger, 'weekly');
    },
  };
}

/** Schedules, in UTC (graphile-worker crontab syntax). */
export const crontab = ['0 * * * * sessions_delete_expired', ...SCHEDULE_CRONTAB, WEBHOOK_PRUNE_CRONTAB, ...ANALYTICS_CRONTAB].join('\n');
