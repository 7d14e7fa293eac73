import type { Queryable, Sql } from '../platform/database.js';
import { listenedCache } from '../platform/listened-cache.js';
import type { ApiKeyRecord } from './queries.js';

/**
 * A short-lived cache of API key → its record and its owner's admin flag, so that a busy integration's requests
 * (every page view of a customer's site calls embed/generate) authenticate without a database round trip.
 *
 * Revocation must still take effect at once (spec: a revoked key stops working). So:
 * - in this process, revokeApiKey forgets the key in every cache before and after its commit (forgetKey);
 * - in every process, revokeApiKey's transaction NOTIFYs KEY_REVOKED_CHANNEL with the key id, and each cache's
 *   LISTEN forgets it when the commit is delivered (milliseconds); an entry lives KEY_CACHE_TTL_MS at most
 *   (the rules of src/platform/listened-cache.ts).
 *
 * Keyed by the key's SHA-256, never by the key itself; misses are never cached (a flood of wrong keys cannot
 * push out the right ones).
 */
export const KEY_REVOKED_CHANNEL = 'api_key_revoked';
export const KEY_CACHE_TTL_MS = 5_000;

export interface KeyWithOwner {
  record: ApiKeyRecord;
  ownerIsAdmin: boolean;
}

const cache = listenedCache<KeyWithOwner>({
  channels: [KEY_REVOKED_CHANNEL],
  ttlMs: KEY_CACHE_TTL_MS,
  maxEntries: 10_000,
  idsOf: (value) => [value.record.id],
});

/** The key with this hash (and whether its owner is an admin), from the cache when fresh, else the database. */
export function findKeyWithOwner(sql: Sql, hash: string): Promise<KeyWithOwner | null> {
  return cache.lookup(sql, hash, () => readKeyWithOwner(sql, hash));
}

/** One round trip: the key, its last use and its owner's admin flag (read models of keys and users). */
async function readKeyWithOwner(sql: Queryable, hash: string): Promise<KeyWithOwner | null> {
  const [row] = await sql<Array<ApiKeyRecord & { owner_is_admin: boolean }>>`
    select k.*, u.last_used_at, o.is_admin as owner_is_admin
    from api_keys k
    join users o on o.id = k.user_id
    left join api_key_usage u on u.key_id = k.id
    where k.key_hash = ${hash}`;
  if (!row) return null;
  const { owner_is_admin: ownerIsAdmin, ...record } = row;
  return { record, ownerIsAdmin };
}

/** Forgets a key in every cache of this process (revocation, before and after its commit). */
export function forgetKey(keyId: string): void {
  cache.forget(keyId);
}
