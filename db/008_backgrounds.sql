-- Uploaded presentation backgrounds (read model of BackgroundUploaded; dropped and rebuilt by replay). The
-- built-in catalog is not here: it ships with the code (src/backgrounds/catalog.ts, assets/backgrounds/).
create table backgrounds (
  id text primary key,
  user_id text not null,
  name text not null,
  storage_key text not null,
  format text not null,
  size_bytes integer not null,
  created_at timestamptz not null
);
create index backgrounds_user on backgrounds (user_id, created_at desc);
