-- The event store: the only source of truth. Read models are projections of these rows.
create table events (
  global_position bigint generated always as identity primary key,
  stream_id text not null,
  stream_version integer not null check (stream_version > 0),
  type text not null,
  data jsonb not null,
  metadata jsonb not null default '{}'::jsonb,
  -- Readers of the global log order by (transaction_id, global_position) and only read transactions older than
  -- every one still running, so an event whose transaction commits late is never skipped.
  transaction_id xid8 not null default pg_current_xact_id(),
  created_at timestamptz not null default now(),
  constraint events_stream_version_unique unique (stream_id, stream_version)
);

create index events_transaction_order on events (transaction_id, global_position);
create index events_type on events (type);
