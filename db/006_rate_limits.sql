-- Fixed-window request counters (ephemeral, not a projection). One row per bucket and minute.
create table rate_limit_windows (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null,
  primary key (bucket, window_start)
);
create index rate_limit_windows_start on rate_limit_windows (window_start);
