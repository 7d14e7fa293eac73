-- The CHECK constraints a demo's writes meet, as domains. PostgreSQL reads a table's CHECK expressions back from
-- their stored text and plans them again at every statement that writes a row (ExecRelCheck: stringToNode and
-- expression planning per statement and constraint, ~6% of its CPU per POST /demos under load, perf), while a
-- domain's checks are read and planned once per connection (its type cache). The rules are the same and still
-- enforced by the database (SQLSTATE 23514). Changing a column to a domain with checks rewrites its table once.
create domain event_stream_version as integer check (value > 0);
create domain credit_balance as integer check (value >= 0);
create domain credit_topoff_threshold as integer check (value >= 1);
create domain credit_transaction_type as text check (value in ('purchase', 'auto_topoff', 'deduct', 'refund', 'bonus'));

alter table events
  drop constraint events_stream_version_check,
  alter column stream_version type event_stream_version;

alter table credit_accounts
  drop constraint credit_accounts_balance_check,
  drop constraint credit_accounts_auto_topoff_threshold_check,
  alter column balance type credit_balance,
  alter column auto_topoff_threshold type credit_topoff_threshold;

alter table credit_transactions
  drop constraint credit_transactions_type_check,
  drop constraint credit_transactions_balance_after_check,
  alter column type type credit_transaction_type,
  alter column balance_after type credit_balance;
