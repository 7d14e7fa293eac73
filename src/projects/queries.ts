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

export async function listVisibleProjects(sql: Queryable, principal: Principal): Promise<Array<ProjectRecord & { demo_count: number }>> {
  // demo_count reads the demos read model directly: read models are the shared query surface, and going through
  // the demos module would make projects and demos import each other.
  return sql<Array<ProjectRecord & { demo_count: number }>>`
    select p.*, (select count(*)::int from demos d where d.project_id = p.id and d.deleted_at is null) as demo_count
    from projects p
    where p.user_id = ${principal.userId}
      ${principal.projectId === null ? sql`` : sql`and p.id = ${principal.projectId}`}
    order by p.created_at desc, p.id`;
}

/** For the deploy webhook, authorised by the project's own secret rather than by an owner. */
export async function findProjectById(sql: Queryable, projectId: string): Promise<ProjectRecord | null> {
  const [row] = await sql<ProjectRecord[]>`select * from projects where id = ${projectId}`;
  return row ?? null;
}

export async function listProjectsBySchedule(sql: Queryable, schedule: RefreshSchedule): Promise<ProjectRecord[]> {
  return sql<ProjectRecord[]>`select * from projects where refresh_schedule = ${schedule} order by created_at, id`;
}

export interface ProjectDemoSummary {
  id: string;
  title: string | null;
  prompt: string;
  status: string;
  thumbnail_key: string | null;
  snapshots: string | null;
  video_key: string | null;
  gif_key: string | null;
  duration_ms: number | null;
  format: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** The `demos` of a project detail, newest first. */
export async function listProjectDemoSummaries(sql: Queryable, projectId: string): Promise<ProjectDemoSummary[]> {
  return sql<ProjectDemoSummary[]>`
    select id, title, prompt, status, thumbnail_key, snapshots, video_key, gif_key, duration_ms, format, version, created_at, updated_at
    from demos where project_id = ${projectId} and deleted_at is null order by created_at desc, id`;
}
