import type { Queryable } from '../platform/database.js';
import type { Principal } from '../platform/principal.js';
import type { ProjectRecord } from '../projects/index.js';

export interface ProjectWithReusableDemo {
  project: Pick<ProjectRecord, 'id' | 'user_id' | 'url'>;
  /** the live demo of the context hash, or null when a generation is needed */
  demo: { id: string; status: string } | null;
}

/**
 * The reuse path of embed/generate (every page view of a customer's site) in one round trip: the project, owner
 * scoped like findVisibleProject (another user's project, or one outside a scoped key's project, is not there),
 * and the live demo of the context hash in it (as findLiveDemoByContextHash: not deleted, not failed). Reads the
 * projects and demos read models, the shared query surface.
 */
export async function findProjectAndReusableDemo(
  sql: Queryable,
  principal: Principal,
  projectId: string,
  contextHash: string,
): Promise<ProjectWithReusableDemo | null> {
  if (principal.projectId !== null && principal.projectId !== projectId) return null;
  const [row] = await sql<Array<{ id: string; user_id: string; url: string; demo_id: string | null; demo_status: string | null }>>`
    select p.id, p.user_id, p.url, d.id as demo_id, d.status as demo_status
    from projects p
    left join demos d on d.context_hash = ${contextHash} and d.project_id = p.id and d.deleted_at is null and d.status <> 'failed'
    where p.id = ${projectId} and p.user_id = ${principal.userId}
    limit 1`;
  if (!row) return null;
  return {
    project: { id: row.id, user_id: row.user_id, url: row.url },
    demo: row.demo_id === null ? null : { id: row.demo_id, status: row.demo_status! },
  };
}
