-- Read models of the credits streams (`credits-<userId>`); dropped and rebuilt by replay, checked by
-- `npm run audit:credits`.
create table credit_accounts (
  user_id text primary key,
  balance integer not null check (balance >= 0),
  auto_topoff_enabled boolean not null default false,
  auto_topoff_pack_id text not null default '20',
  updated_at timestamptz not null
);

-- One row per transaction. `amount` is signed (a deduct is negative) so that balance_after = previous + amount.
create table credit_transactions (
  id text primary key,
  user_id text not null,
  type text not null check (type in ('purchase', 'auto_topoff', 'deduct', 'refund', 'bonus')),
  amount integer not null,
  balance_after integer not null check (balance_after >= 0),
  pack_id text,
  description text,
  -- deduct and refund: the caller's charge reference; purchase and auto_topoff: the payment provider's reference.
  reference text,
  created_at timestamptz not null,
  -- The event's place in the account's stream: the order of transactions, even within one commit (an auto
  -- top-off and the deduct it pays for share created_at).
  stream_version integer not null
);
create unique index credit_transactions_order on credit_transactions (user_id, stream_version desc);
-- A second guard behind the decider: a reference is charged at most once and refunded at most once.
create unique index credit_transactions_charge_once on credit_transactions (user_id, reference) where type = 'deduct';
create unique index credit_transactions_refund_once on credit_transactions (user_id, reference) where type = 'refund';
