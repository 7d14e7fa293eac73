-- Dynamic embeds reuse a demo by the hash of what was asked for (spec Embeds, POST /embed/generate).
alter table demos add column context_hash text;
-- At most one live demo per hash: pending, in progress or ready, never a failed or deleted one. The embed command
-- serialises callers with an advisory lock on the hash; this index is the guarantee if anything ever bypasses it.
create unique index demos_context_hash_live on demos (context_hash)
  where context_hash is not null and deleted_at is null and status <> 'failed';
