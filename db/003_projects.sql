create table projects (
  id text primary key,
  user_id text not null,
  name text not null,
  url text not null,
  viewport text not null,
  refresh_schedule text not null,
  -- AES-256-GCM ciphertexts (see src/platform/secrets.ts); plaintext never touches the database.
  signing_secret_enc text not null,
  webhook_secret_enc text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index projects_user on projects (user_id, created_at);
