-- The state a credits command decides on, kept on the account's row so that a charge reads one row instead of
-- folding the account's whole stream (issue 14): whether the account was opened, and the stream version the row
-- reflects (the expected version of the next append). The projection writes both; replay rebuilds them.
alter table credit_accounts add column opened boolean not null default false;
alter table credit_accounts add column stream_version integer not null default 0;

update credit_accounts a set
  opened = exists (select 1 from credit_transactions t where t.user_id = a.user_id and t.type = 'bonus'),
  stream_version = coalesce((select max(e.stream_version) from events e where e.stream_id = 'credits-' || a.user_id), 0);
