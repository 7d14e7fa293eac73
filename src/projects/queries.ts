import type { Queryable } from '../platform/database.js';
import type { Principal } from '../platform/principal.js';
import type { RefreshSchedule, Viewport } from './events.js';

export interface ProjectRecord {
  id: string;
  user_id: string;
  name: string;
  url: string;
  viewport: Viewport;
  refresh_schedule: RefreshSchedule;
  signing_secret_enc: string;
  webhook_secret_enc: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Owner scoping: a project of another user, or outside a scoped key's project, is simply not there. */
export async function findVisibleProject(sql: Queryable, principal: Principal, projectId: string): Promise<ProjectRecord | null> {
  if (principal.projectId !== null && principal.projectId !== projectId) return null;
  const [row] = await sql<ProjectRecord[]>`select * from projects where id = ${projectId} and user_id = ${principal.userId}`;
  return row ?? null;
}

export async function listVisibleProjects(sql: Queryable, principal: Principal): Promise<ProjectRecord[]> {
  return sql<ProjectRecord[]>`
    select * from projects
    where user_id = ${principal.userId}
      ${principal.projectId === null ? sql`` : sql`and id = ${principal.projectId}`}
    order by created_at desc, id`;
}
