-- Device login (RFC 8628 device authorisation grants) for command-line clients. Operational state with expiry, not
-- a projection: never rebuilt from events. Both codes are stored as SHA-256 hashes; the key a grant issues is an
-- ApiKeyCreated event like any other.
create table device_grants (
  id text primary key,
  device_code_hash text not null unique,
  -- the user code without its dash, upper case, hashed
  user_code_hash text not null unique,
  client_name text not null,
  scope text not null,
  -- pending → approved → redeemed, or pending → denied
  status text not null check (status in ('pending', 'approved', 'denied', 'redeemed')),
  user_id text,
  interval_seconds integer not null,
  last_polled_at timestamptz,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  decided_at timestamptz,
  key_id text
);
create index device_grants_expiry on device_grants (expires_at);
