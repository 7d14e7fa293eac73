-- New embed generations a UTC day, per publishable key and per project (issue 34, spend controls). A counter, not a
-- projection: incremented in the transaction that starts the demo, so a refused or failed start counts nothing and
-- concurrent starts queue on the row. `user_id` lets GET /usage list an account's counts.
create table embed_daily_generations (
  subject_kind text not null check (subject_kind in ('key', 'project')),
  subject_id text not null,
  day date not null,
  user_id text not null,
  generations integer not null,
  primary key (subject_kind, subject_id, day)
);
create index embed_daily_generations_user_day on embed_daily_generations (user_id, day);
