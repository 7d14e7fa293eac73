-- Read models of the demos module (projections of demo-<id> streams).
create table demos (
  id text primary key,
  project_id text not null,
  user_id text not null,
  prompt text not null,
  status text not null,
  title text,
  action_script text,
  ai_plan text,
  snapshots text,
  video_key text,
  gif_key text,
  thumbnail_key text,
  duration_ms integer,
  recording_log text,
  format text not null,
  resolution text not null,
  duration_target text,
  mode text,
  context text,
  presentation text,
  version integer not null default 0,
  error text,
  source text not null,
  latest_job_id text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  refreshed_at timestamptz,
  deleted_at timestamptz
);
create index demos_project on demos (project_id, created_at) where deleted_at is null;
create index demos_user on demos (user_id, created_at) where deleted_at is null;

-- One row per pipeline run; refreshHistory is the refresh and restyle runs.
create table demo_jobs (
  id text primary key,
  demo_id text not null,
  kind text not null,
  triggered_by text not null,
  status text not null,
  step text,
  progress real not null default 0,
  attempts integer not null default 0,
  credits integer not null default 0,
  presentation text,
  old_version integer,
  new_version integer,
  error text,
  created_at timestamptz not null,
  started_at timestamptz,
  completed_at timestamptz,
  updated_at timestamptz not null
);
create index demo_jobs_demo on demo_jobs (demo_id, created_at);
