-- Auto top-off buys its pack when a charge finds the balance below the threshold (issue 13). 1 is what auto
-- top-off did before: only a balance short of the charge.
alter table credit_accounts add column auto_topoff_threshold integer not null default 1 check (auto_topoff_threshold >= 1);
