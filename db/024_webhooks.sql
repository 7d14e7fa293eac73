-- Outbound webhooks (issue 37). `webhook_endpoints`: a project's endpoints, the read model of the webhook streams
-- (rebuilt by replay). The signing secret is sealed (AES-256-GCM under the master key): the worker must sign with it.
create table webhook_endpoints (
  id text primary key,
  project_id text not null,
  user_id text not null,
  url text not null,
  events text[] not null,
  secret_enc text not null,
  created_at timestamptz not null,
  secret_rotated_at timestamptz
);
create index webhook_endpoints_by_project on webhook_endpoints (project_id, created_at);

-- The delivery log: one row per event and endpoint, updated at each attempt. Operational records, not domain events
-- (like rate-limit windows): no stream, no replay, pruned after 30 days. No foreign key to the read model, which a
-- replay truncates; deleting an endpoint deletes its log in the projection.
create table webhook_deliveries (
  id text primary key,
  endpoint_id text not null,
  event_id text not null,
  event_type text not null,
  -- the exact JSON body, signed afresh (new timestamp) at each attempt but never changed: receivers dedupe on its id
  body text not null,
  status text not null check (status in ('pending', 'retrying', 'delivered', 'failed', 'refused')),
  attempts integer not null default 0,
  response_status integer,
  -- at most 500 characters of the receiver's answer, for the person reading the log
  response_excerpt text,
  error text,
  created_at timestamptz not null default now(),
  last_attempt_at timestamptz,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  unique (endpoint_id, event_id)
);
create index webhook_deliveries_by_endpoint on webhook_deliveries (endpoint_id, created_at desc);
create index webhook_deliveries_by_age on webhook_deliveries (created_at);
