-- Liveness of running pipeline jobs. graphile-worker keeps a crashed worker's jobs locked for hours; the sweeper
-- unlocks jobs whose heartbeat stopped, so a job of a worker killed mid-run is picked up again within a minute.
create table job_heartbeats (
  job_id bigint primary key,
  worker_id text not null,
  beat_at timestamptz not null default now()
);
