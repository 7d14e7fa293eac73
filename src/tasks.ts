import type { TaskList } from 'graphile-worker';
import { deleteExpiredSessions } from './auth/index.js';
import type { Sql } from './platform/database.js';
import type { Logger } from './platform/logger.js';

/** Every graphile-worker task of the service, by name. Later modules add the recording pipeline here. */
export function createTaskList(sql: Sql, logger: Logger): TaskList {
  return {
    'sessions_delete_expired': async () => {
      const deleted = await deleteExpiredSessions(sql);
      if (deleted > 0) logger.info({ deleted }, 'expired sessions deleted');
    },
  };
}

/** Schedules, in UTC (graphile-worker crontab syntax). */
export const crontab = ['0 * * * * sessions_delete_expired'].join('\n');
