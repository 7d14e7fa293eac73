-- Read models (projections of events; dropped and rebuilt by replay).
create table users (
  id text primary key,
  email text not null,
  password_hash text not null,
  is_admin boolean not null default false,
  plan text not null default 'free',
  starting_credits integer not null,
  created_at timestamptz not null
);
-- One account per address whatever its case; the inline projection turns a duplicate into a failed command.
create unique index users_email_unique on users (lower(email));

create table api_keys (
  id text primary key,
  user_id text not null,
  name text not null,
  type text not null,
  project_id text,
  allowed_domains jsonb,
  key_hash text not null unique,
  key_prefix text not null,
  created_at timestamptz not null
);
create index api_keys_user on api_keys (user_id, created_at);

-- Not projections: operational state with expiry, never rebuilt from events.
create table sessions (
  token_hash text primary key,
  user_id text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_expiry on sessions (expires_at);

-- Last use of a key is telemetry, not a domain fact: an event per request would bloat the log.
create table api_key_usage (
  key_id text primary key,
  last_used_at timestamptz not null
);
