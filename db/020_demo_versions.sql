-- Versions kept (issue 35): each published version of a demo with its media keys, so that `/video/<id>.mp4?v=N`
-- serves that version and an earlier one can be made current again. `media_removed_at`: the retention job deleted
-- its files. Read model of the demo streams (rebuilt by replay).
create table demo_versions (
  demo_id text not null,
  version integer not null,
  video_key text not null,
  gif_key text,
  thumbnail_key text,
  duration_ms integer not null,
  presentation text,
  job_kind text not null,
  created_at timestamptz not null,
  media_removed_at timestamptz,
  primary key (demo_id, version)
);

-- `version` is the version a demo shows; `latest_version` the highest recorded (they differ after a restore).
alter table demos add column latest_version integer not null default 0;
update demos set latest_version = version;

-- Demos published before: their current version, and the earlier ones under the keys the pipeline has always used
-- (demos/<id>/v<N>/…, never deleted until now). A replay rebuilds the same rows from the events.
insert into demo_versions (demo_id, version, video_key, gif_key, thumbnail_key, duration_ms, presentation, job_kind, created_at)
select d.id, d.version, d.video_key, d.gif_key, d.thumbnail_key, coalesce(d.duration_ms, 0), d.presentation,
       coalesce((select j.kind from demo_jobs j where j.demo_id = d.id and j.new_version = d.version limit 1), 'generate'),
       coalesce(d.refreshed_at, d.created_at)
from demos d where d.version > 0 and d.video_key is not null;
insert into demo_versions (demo_id, version, video_key, gif_key, thumbnail_key, duration_ms, presentation, job_kind, created_at)
select d.id, j.new_version, 'demos/' || d.id || '/v' || j.new_version || '/video.' || d.format,
       'demos/' || d.id || '/v' || j.new_version || '/gif.gif', 'demos/' || d.id || '/v' || j.new_version || '/thumbnail.png',
       0, j.presentation, j.kind, coalesce(j.completed_at, j.created_at)
from demo_jobs j join demos d on d.id = j.demo_id
where j.new_version is not null and j.new_version < d.version and d.source = 'generated'
on conflict do nothing;
