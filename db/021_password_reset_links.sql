-- Password reset links (issue 35): issued by `showreel admin reset-link`, used once. Ephemeral auth artefacts like
-- sessions (a plain table with expiry, not events): the link carries `<id>.<secret>`; only the secret's SHA-256 is
-- stored, compared in constant time after the row is found by its id. `used_at`: the link set a password.
create table password_reset_links (
  id text primary key,
  secret_hash text not null,
  user_id text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index password_reset_links_user on password_reset_links (user_id);
