import { DEMO_PROGRESS_CHANNEL } from '../demos/index.js';
import type { Queryable, Sql } from '../platform/database.js';
import { listenedCache } from '../platform/listened-cache.js';
import type { Principal } from '../platform/principal.js';
import { PROJECT_CHANGED_CHANNEL, type ProjectRecord } from '../projects/index.js';

export interface ProjectWithReusableDemo {
  project: Pick<ProjectRecord, 'id' | 'user_id' | 'url'>;
  /** the live demo of the context hash, or null when a generation is needed */
  demo: { id: string; status: string } | null;
}

/** A reuse answer's bound when a notification is lost; every change of the demo or the project forgets it sooner. */
export const REUSE_CACHE_TTL_MS = 5_000;

/**
 * Reuse answers (project + live demo) of the last few seconds, per owner, project and context hash: every page view
 * of a customer's site asks the same question, and the answer changes only when its demo does (every demo command
 * NOTIFYs DEMO_PROGRESS_CHANNEL with the demo's id: a refresh, a deletion, a failure) or its project does (a new
 * URL changes which pages are on its site). See src/platform/listened-cache.ts for the rules that keep it current.
 * Only reuses are kept: a request that finds no demo goes to the database every time, and so sees the new one.
 */
const reuseCache = listenedCache<ProjectWithReusableDemo>({
  channels: [DEMO_PROGRESS_CHANNEL, PROJECT_CHANGED_CHANNEL],
  ttlMs: REUSE_CACHE_TTL_MS,
  maxEntries: 10_000,
  idsOf: (found) => [found.project.id, ...(found.demo ? [found.demo.id] : [])],
});

/**
 * The reuse path of embed/generate (every page view of a customer's site): the project, owner scoped like
 * findVisibleProject (another user's project, or one outside a scoped key's project, is not there), and the live
 * demo of the context hash in it (as findLiveDemoByContextHash: not deleted, not failed); from the reuse cache when
 * it holds the answer, else in one round trip.
 */
export async function findProjectAndReusableDemo(
  sql: Sql,
  principal: Principal,
  projectId: string,
  contextHash: string,
): Promise<ProjectWithReusableDemo | null> {
  if (principal.projectId !== null && principal.projectId !== projectId) return null;
  const read: { found: ProjectWithReusableDemo | null } = { found: null };
  const reusable = await reuseCache.lookup(sql, `${principal.userId}:${projectId}:${contextHash}`, async () => {
    read.found = await readProjectAndReusableDemo(sql, principal.userId, projectId, contextHash);
    return read.found?.demo ? read.found : null;
  });
  return reusable ?? read.found;
}

/** Reads the projects and demos read models, the shared query surface. */
async function readProjectAndReusableDemo(sql: Queryable, userId: string, projectId: string, contextHash: string): Promise<ProjectWithReusableDemo | null> {
  const [row] = await sql<Array<{ id: string; user_id: string; url: string; demo_id: string | null; demo_status: string | null }>>`
    select p.id, p.user_id, p.url, d.id as demo_id, d.status as demo_status
    from projects p
    left join demos d on d.context_hash = ${contextHash} and d.project_id = p.id and d.deleted_at is null and d.status <> 'failed'
    where p.id = ${projectId} and p.user_id = ${userId}
    limit 1`;
  if (!row) return null;
  return {
    project: { id: row.id, user_id: row.user_id, url: row.url },
    demo: row.demo_id === null ? null : { id: row.demo_id, status: row.demo_status! },
  };
}
