import type { Sql } from '../platform/database.js';
import type { Logger } from '../platform/logger.js';
import { listProjectsBySchedule } from '../projects/index.js';
import { refreshProjectDemos } from './project-refresh.js';

/**
 * Daily and weekly refresh schedules (spec `refresh_schedule`), run by graphile-worker's crontab in UTC.
 * A demo already being refreshed is not queued again (the decider answers with the job in flight).
 */
export async function runScheduledRefresh(sql: Sql, logger: Logger, schedule: 'daily' | 'weekly'): Promise<number> {
  let queued = 0;
  for (const project of await listProjectsBySchedule(sql, schedule)) {
    try {
      const jobs = await refreshProjectDemos(sql, project.id, 'schedule', { actor: 'schedule', correlationId: `schedule:${schedule}` });
      queued += jobs.length;
    } catch (error) {
      // One project without credits must not stop the others.
      logger.warn({ err: error, projectId: project.id }, 'scheduled refresh skipped a project');
    }
  }
  if (queued > 0) logger.info({ schedule, queued }, 'scheduled refresh queued demos');
  return queued;
}

/** 03:00 UTC every day; Mondays 03:00 UTC for weekly. */
export const SCHEDULE_CRONTAB = ['0 3 * * * demos_refresh_daily', '0 3 * * 1 demos_refresh_weekly'];
