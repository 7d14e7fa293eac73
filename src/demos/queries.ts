import type { Queryable } from '../platform/database.js';
import type { Principal } from '../platform/principal.js';
import { toProgress } from './representation.js';

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
  /** issue 36: the shown version's chapters and captions (JSON, TimedStory), null when it has none */
  story?: string | null;
  /** issue 55: the shown version's warnings (JSON array of sentences), null before issue 55 and for uploads */
  warnings?: string | null;
  /** issue 59: the narration script as the user edited it (JSON array of {chapter, text}), null when never edited */
  narration_script?: string | null;
  /** issue 59: the shown version's aspect variants (JSON, see variantsOf), null when it has none */
  variants?: string | null;
  /** issue 59: where the shown version's capture is kept (db/031), null when it is not */
  capture_key?: string | null;
  version: number;
  latest_version?: number;
  /** the latest job's step, read with the demo where its phase is shown (findVisibleDemo, listVisibleDemos) */
  latest_step?: string | null;
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
  /** JSON array of sentences: what changed on the page (issue 37); null before fingerprints existed */
  changes?: string | null;
  force?: boolean;
  /** issue 59: a restyle that makes its cuts from the kept capture (db/031) */
  from_capture?: boolean;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
}

/** Owner scoping: another user's demo, a deleted one, or one outside a scoped key's project is not there. */
export async function findVisibleDemo(sql: Queryable, principal: Principal, demoId: string): Promise<DemoRecord | null> {
  const [row] = await sql<DemoRecord[]>`
    select d.*, j.step as latest_step from demos d left join demo_jobs j on j.id = d.latest_job_id
    where d.id = ${demoId} and d.user_id = ${principal.userId} and d.deleted_at is null
      ${principal.projectId === null ? sql`` : sql`and d.project_id = ${principal.projectId}`}`;
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
    select d.*, j.step as latest_step from demos d left join demo_jobs j on j.id = d.latest_job_id
    where d.user_id = ${principal.userId} and d.deleted_at is null
      ${projectId === null ? sql`` : sql`and d.project_id = ${projectId}`}
      ${principal.projectId === null ? sql`` : sql`and d.project_id = ${principal.projectId}`}
    order by d.created_at desc, d.id`;
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

export interface VersionRestore {
  version: number;
  /** the version shown before the restore; null when the log has none (never for a demo with two versions) */
  from_version: number | null;
  restored_at: Date;
}

/**
 * The restores of a demo's versions, newest first, from its event stream: a restore records nothing and runs no job,
 * so the refresh history (jobs) does not have them (issue 57: a restore was missing from the History).
 */
export async function listVersionRestores(sql: Queryable, demoId: string): Promise<VersionRestore[]> {
  return sql<VersionRestore[]>`
    select (e.data->>'version')::int as version, e.created_at as restored_at,
      (select (p.data->>'version')::int from events p
        where p.stream_id = e.stream_id and p.stream_version < e.stream_version and p.type in ('DemoJobSucceeded', 'DemoVersionRestored')
        order by p.stream_version desc limit 1) as from_version
    from events e
    where e.stream_id = ${`demo-${demoId}`} and e.type = 'DemoVersionRestored'
    order by e.stream_version desc limit 100`;
}

export interface DemoActivity {
  generated: number;
  refreshes: number;
  restyles: number;
  uploads: number;
}

/**
 * What a user's demos did since a moment: jobs by kind (an upload is a job too), those under way included. A job
 * that failed (and was refunded) made nothing and is not counted. Deleted demos still count.
 */
export async function demoActivitySince(sql: Queryable, userId: string, since: Date): Promise<DemoActivity> {
  const [row] = await sql<DemoActivity[]>`
    select
      count(*) filter (where j.kind = 'generate')::int as generated,
      count(*) filter (where j.kind = 'refresh')::int as refreshes,
      count(*) filter (where j.kind = 'restyle')::int as restyles,
      count(*) filter (where j.kind = 'upload')::int as uploads
    from demo_jobs j join demos d on d.id = j.demo_id
    where d.user_id = ${userId} and j.created_at >= ${since} and j.status <> 'failed'`;
  return row!;
}

/** A demo's progress message and who may watch it, for the progress sockets. */
export interface DemoProgressRead {
  progress: ReturnType<typeof toProgress>;
  userId: string;
  projectId: string;
}

/**
 * The progress of a live demo (the polling shape) with its owner and project, in one statement: the progress hub
 * reads this once per notification and sends it to every socket watching the demo, checking each one's right to
 * it from the owner and project read here (issue 34).
 */
export async function findDemoProgress(sql: Queryable, demoId: string): Promise<DemoProgressRead | null> {
  const [row] = await sql<Array<Pick<DemoRecord, 'id' | 'user_id' | 'project_id' | 'status' | 'error' | 'updated_at'> & {
    job_status: string | null;
    job_step: string | null;
    job_progress: number | null;
  }>>`
    select d.id, d.user_id, d.project_id, d.status, d.error, d.updated_at,
      j.status as job_status, j.step as job_step, j.progress as job_progress
    from demos d left join demo_jobs j on j.id = d.latest_job_id
    where d.id = ${demoId} and d.deleted_at is null`;
  if (!row) return null;
  const job = row.job_status === null ? null : { status: row.job_status, step: row.job_step, progress: row.job_progress ?? 0 };
  return { progress: toProgress(row, job), userId: row.user_id, projectId: row.project_id };
}

export interface DemoVersionRecord {
  demo_id: string;
  version: number;
  video_key: string;
  gif_key: string | null;
  thumbnail_key: string | null;
  duration_ms: number;
  presentation: string | null;
  job_kind: string;
  created_at: Date;
  media_removed_at: Date | null;
  story?: string | null;
  /** issue 59: the version's aspect variants (JSON, see variantsOf), null when it has none */
  variants?: string | null;
}

/**
 * A version as listed: issue 59's `cut_from_version` is the version whose kept recording its cuts were made from (a
 * restyle that only changed the cuts recorded nothing), null for one recorded anew. The version's `job_kind` says
 * `restyle` for both; the job that published it says which.
 */
export interface ListedDemoVersion extends DemoVersionRecord {
  cut_from_version: number | null;
}

/** A demo's versions, newest first (the caller has checked the demo is visible). */
export async function listDemoVersions(sql: Queryable, demoId: string): Promise<ListedDemoVersion[]> {
  return sql<ListedDemoVersion[]>`
    select v.*, (select j.old_version from demo_jobs j where j.demo_id = v.demo_id and j.new_version = v.version and j.from_capture limit 1) as cut_from_version
    from demo_versions v where v.demo_id = ${demoId} order by v.version desc`;
}

/** The fingerprint stored with a version (JSON, src/pipeline/fingerprint); null for versions recorded before it. */
export async function findVersionFingerprint(sql: Queryable, demoId: string, version: number): Promise<string | null> {
  const [row] = await sql<{ fingerprint: string | null }[]>`
    select fingerprint from demo_versions where demo_id = ${demoId} and version = ${version}`;
  return row?.fingerprint ?? null;
}

/** One version of a live demo whose media are still kept, for `?v=N` media URLs; null otherwise. */
export async function findKeptDemoVersion(sql: Queryable, demoId: string, version: number): Promise<DemoVersionRecord | null> {
  const [row] = await sql<DemoVersionRecord[]>`
    select v.* from demo_versions v join demos d on d.id = v.demo_id
    where v.demo_id = ${demoId} and v.version = ${version} and v.media_removed_at is null and d.deleted_at is null`;
  return row ?? null;
}
