import type { Queryable } from '../platform/database.js';
import type { Principal } from '../platform/principal.js';

export interface DemoRecord {
  id: string;
  project_id: string;
  user_id: string;
  prompt: string;
  status: string;
  title: string | null;
  action_script: string | null;
  ai_plan: string | null;
  snapshots: string | null;
  video_key: string | null;
  gif_key: string | null;
  thumbnail_key: string | null;
  duration_ms: number | null;
  recording_log: string | null;
  format: 'mp4' | 'webm';
  resolution: '720p' | '1080p';
  duration_target: string | null;
  mode: string | null;
  context: string | null;
  context_hash: string | null;
  presentation: string | null;
  version: number;
  error: string | null;
  source: 'generated' | 'upload';
  latest_job_id: string | null;
  created_at: Date;
  updated_at: Date;
  refreshed_at: Date | null;
}

export interface DemoJobRecord {
  id: string;
  demo_id: string;
  kind: string;
  triggered_by: string;
  status: string;
  step: string | null;
  progress: number;
  attempts: number;
  credits: number;
  presentation: string | null;
  old_version: number | null;
  new_version: number | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
}

/** Owner scoping: another user's demo, a deleted one, or one outside a scoped key's project is not there. */
export async function findVisibleDemo(sql: Queryable, principal: Principal, demoId: string): Promise<DemoRecord | null> {
  const [row] = await sql<DemoRecord[]>`
    select * from demos
    where id = ${demoId} and user_id = ${principal.userId} and deleted_at is null
      ${principal.projectId === null ? sql`` : sql`and project_id = ${principal.projectId}`}`;
  return row ?? null;
}

/** Public pages and media: any live demo by its unguessable id. */
export async function findPublicDemo(sql: Queryable, demoId: string): Promise<DemoRecord | null> {
  const [row] = await sql<DemoRecord[]>`select * from demos where id = ${demoId} and deleted_at is null`;
  return row ?? null;
}

/**
 * The live demo (pending, in progress or ready; not failed or deleted) made for this embed context hash. Only its
 * id and status: this is the read behind every page view of an embed, and a ready demo's row carries its script,
 * plan and recording log.
 */
export async function findLiveDemoByContextHash(sql: Queryable, contextHash: string): Promise<{ id: string; status: string } | null> {
  const [row] = await sql<{ id: string; status: string }[]>`
    select id, status from demos where context_hash = ${contextHash} and deleted_at is null and status <> 'failed'`;
  return row ?? null;
}

export async function listVisibleDemos(sql: Queryable, principal: Principal, projectId: string | null): Promise<DemoRecord[]> {
  return sql<DemoRecord[]>`
    select * from demos
    where user_id = ${principal.userId} and deleted_at is null
      ${projectId === null ? sql`` : sql`and project_id = ${projectId}`}
      ${principal.projectId === null ? sql`` : sql`and project_id = ${principal.projectId}`}
    order by created_at desc, id`;
}

/** Demos a project refresh, webhook or schedule may queue: ready and generated (spec States rules 4, 5). */
export async function listRefreshableDemos(sql: Queryable, projectId: string): Promise<DemoRecord[]> {
  return sql<DemoRecord[]>`
    select * from demos
    where project_id = ${projectId} and deleted_at is null and status = 'ready' and source = 'generated'
    order by created_at, id`;
}

export async function findJob(sql: Queryable, jobId: string): Promise<DemoJobRecord | null> {
  const [row] = await sql<DemoJobRecord[]>`select * from demo_jobs where id = ${jobId}`;
  return row ?? null;
}

export async function listRefreshHistory(sql: Queryable, demoId: string): Promise<DemoJobRecord[]> {
  return sql<DemoJobRecord[]>`
    select * from demo_jobs where demo_id = ${demoId} and kind in ('refresh', 'restyle')
    order by created_at desc, id limit 100`;
}

export interface DemoActivity {
  generated: number;
  refreshes: number;
  restyles: number;
  uploads: number;
}

/** What a user's demos did since a moment: jobs by kind (an upload is a job too). Deleted demos still count. */
export async function demoActivitySince(sql: Queryable, userId: string, since: Date): Promise<DemoActivity> {
  const [row] = await sql<DemoActivity[]>`
    select
      count(*) filter (where j.kind = 'generate')::int as generated,
      count(*) filter (where j.kind = 'refresh')::int as refreshes,
      count(*) filter (where j.kind = 'restyle')::int as restyles,
      count(*) filter (where j.kind = 'upload')::int as uploads
    from demo_jobs j join demos d on d.id = j.demo_id
    where d.user_id = ${userId} and j.created_at >= ${since}`;
  return row!;
}
