-- View analytics (issue 38). Telemetry, not the domain: beacons are not events in a stream.
--
-- view_beacons: append-only raw beacons, written in batches (one multi-row insert per flush), dropped after the
-- retention (SHOWREEL_ANALYTICS_RETENTION_DAYS). No IP address and no cookie: `viewer_hash` is a truncated SHA-256
-- of a salt of the UTC day, the address and the user agent, and the salt is deleted once its day is over, so a
-- hash cannot be recomputed, nor linked across days. `host` is the embedding page's host name only, never a URL.
-- A replayed or duplicated beacon (same view, kind and value) is dropped by the unique index.
create table view_beacons (
  received_at timestamptz not null,
  demo_id text not null,
  view_id text not null,
  kind text not null check (kind in ('load', 'play', 'progress', 'chapter', 'watched')),
  -- progress: the percentage reached (10, 20, 25 … 100); chapter: its index; watched: seconds so far; else 0
  value integer not null,
  -- a chapter's title (what the player showed), else null
  label text,
  viewer_hash text not null,
  host text,
  surface text not null check (surface in ('share', 'embed'))
);
create unique index view_beacons_once on view_beacons (view_id, kind, value);
-- Appended in time order: a BRIN index finds an hour's rows (rollup) and the expired ones (retention) for little.
create index view_beacons_received on view_beacons using brin (received_at);

-- Per demo and UTC hour: what the analytics endpoint sums. Each view counts in the hour its first beacon arrived,
-- with everything it did (later beacons included), so hours add up and a rebuild from raw rows gives the same rows.
create table view_rollups_hourly (
  demo_id text not null,
  hour timestamptz not null,
  views integer not null,
  -- viewers (daily hashes) whose first view of this demo that UTC day began in this hour
  unique_viewers integer not null,
  plays integer not null,
  watched_seconds bigint not null,
  completions integer not null,
  -- views whose furthest progress reached 10 %, 20 % … 100 % (ten entries)
  reached integer[] not null,
  -- {"<index>": {"title": "…", "views": n}}: views that reached each chapter
  chapters jsonb not null,
  -- {"<host>": n}: views per embedding host
  hosts jsonb not null,
  primary key (demo_id, hour)
);

-- The salt of the unique-viewer hash: one per UTC day, shared by every API process, deleted when its day is over.
create table analytics_salts (
  day date primary key,
  salt bytea not null
);

-- Up to where the hourly rollup has run (exclusive): hours before it are read from view_rollups_hourly, later ones
-- from the raw rows. One row.
create table analytics_rollup_state (
  id boolean primary key default true check (id),
  rolled_up_until timestamptz not null
);
