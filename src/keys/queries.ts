import type { Queryable } from '../platform/database.js';
import type { KeyType } from './events.js';

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  name: string;
  type: KeyType;
  project_id: string | null;
  allowed_domains: string[] | null;
  key_hash: string;
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
}

export async function listKeys(sql: Queryable, userId: string): Promise<ApiKeyRecord[]> {
  return sql<ApiKeyRecord[]>`
    select k.*, u.last_used_at from api_keys k left join api_key_usage u on u.key_id = k.id
    where k.user_id = ${userId} order by k.created_at, k.id`;
}

export async function findKeyByHash(sql: Queryable, hash: string): Promise<ApiKeyRecord | null> {
  const [row] = await sql<ApiKeyRecord[]>`
    select k.*, u.last_used_at from api_keys k left join api_key_usage u on u.key_id = k.id
    where k.key_hash = ${hash}`;
  return row ?? null;
}

/** When this process last recorded each key's use (bounded: cleared when it grows past TOUCHED_MAX keys). */
const touchedAt = new Map<string, number>();
const TOUCH_INTERVAL_MS = 60_000;
const TOUCHED_MAX = 10_000;

/**
 * Records a key's use. Throttled to once a minute per key so a busy integration does not turn every request into
 * a write: in this process first (a publishable key on a busy site is used on every page view), then in the
 * database across processes.
 */
export async function touchKey(sql: Queryable, keyId: string): Promise<void> {
  const now = Date.now();
  const last = touchedAt.get(keyId);
  if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
  if (touchedAt.size >= TOUCHED_MAX) touchedAt.clear();
  touchedAt.set(keyId, now);
  await sql`
    insert into api_key_usage (key_id, last_used_at) values (${keyId}, now())
    on conflict (key_id) do update set last_used_at = excluded.last_used_at
    where api_key_usage.last_used_at < now() - interval '1 minute'`;
}
