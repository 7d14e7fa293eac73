-- Payments (issue 34). Read models of the payments streams, rebuilt by replay.

-- The payment provider's customer of each user (Stripe: cus_…), so that a second purchase and an off-session auto
-- top-off charge the same customer and its saved card. An id, not a secret.
create table payment_customers (
  user_id text primary key,
  provider text not null,
  customer_id text not null,
  linked_at timestamptz not null
);
create unique index payment_customers_customer on payment_customers (provider, customer_id);

-- Every provider event (a Stripe webhook delivery's event id) that was acted on, once: a replayed or redelivered
-- event finds its id here (and its stream in the event store) and adds nothing.
create table payment_events (
  provider text not null,
  event_id text not null,
  event_type text not null,
  user_id text,
  outcome text not null,
  received_at timestamptz not null,
  primary key (provider, event_id)
);

-- Why auto top-off was turned off by a failed payment (shown to the user); null once they set it again.
alter table credit_accounts add column auto_topoff_disabled_reason text;
