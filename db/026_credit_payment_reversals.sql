-- Refunds and disputes (issue 58). A refunded or disputed payment takes its credits back, so the balance may go
-- below zero: only a charge must leave it at zero or above (the decider's rule, and the credits audit's).
alter domain credit_balance drop constraint credit_balance_check;

-- Every payment that added credits (a purchase or an auto top-off) and how much of it was taken back. Read model of
-- the credits streams, rebuilt by replay. `payment_intent` is how a refund or dispute, which names a Charge and its
-- PaymentIntent, finds the credits it concerns. refunded_credits and disputed_credits are the payment's credits the
-- refunds (cumulative) and the open or lost dispute stand for; what is taken back is their sum, at most `credits`.
create table credit_payments (
  user_id text not null,
  payment_reference text not null,
  payment_intent text,
  pack_id text not null,
  credits integer not null,
  refunded_credits integer not null default 0,
  disputed_credits integer not null default 0,
  primary key (user_id, payment_reference)
);
create index credit_payments_payment_intent on credit_payments (payment_intent) where payment_intent is not null;

-- The payments credited before this table: an auto top-off's reference is its PaymentIntent; a checkout's is its
-- session, whose PaymentIntent was not kept then.
insert into credit_payments (user_id, payment_reference, payment_intent, pack_id, credits)
select user_id, reference, case when type = 'auto_topoff' then reference end, pack_id, amount
from credit_transactions
where type in ('purchase', 'auto_topoff') and reference is not null and pack_id is not null
on conflict do nothing;
