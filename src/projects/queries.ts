import type { Queryable, Tx } from '../platform/database.js';
import type { Precondition } from '../platform/event-store/append-to-stream.js';
import { NotFoundError } from '../platform/errors.js';
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
  /** Issue 56: the sealed cookies or sign-in recipe (site-access.ts), and its summary as JSON text; null: none. */
  site_access_enc: string | null;
  site_access: string | null;
  allow_submit: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Owner scoping: a project of another user, or outside a scoped key's project, is simply not there. */
export async function findVisibleProject(sql: Queryable, principal: Principal, projectId: string): Promise<ProjectRecord | null> {
  if (principal.projectId !== null && principal.projectId !== projectId) return null;
  const [row] = await sql<ProjectRecord[]>`select * from projects where id = ${projectId} and user_id = ${principal.userId}`;
  return row ?? null;
}

/** Raised by require_found (db/015) when a precondition sent with a command's writes does not hold. */
const NOT_FOUND = 'SR404';

/**
 * A check, in the caller's transaction, that fails in the database when the project is not visible to the
 * principal: a NotFoundError('Project'), and the transaction is aborted, so writes pipelined behind it (and a COMMIT
 * sent with them) cannot commit. For commands that do not wait for a read before writing (see requestDemo), which
 * send it inside their first append (AppendOptions.precondition): a statement less than a check of its own.
 */
export function visibleProjectPrecondition(tx: Tx, principal: Principal, projectId: string): Precondition {
  const inScope = principal.projectId === null || principal.projectId === projectId;
  return {
    check: tx`select require_found(${inScope} and exists (select 1 from projects where id = ${projectId} and user_id = ${principal.userId}), 'Project')`,
    refusal: (error: unknown) => ((error as { code?: unknown }).code === NOT_FOUND ? new NotFoundError('Project') : null),
  };
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
