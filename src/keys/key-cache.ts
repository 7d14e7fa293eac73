import type { Queryable, Sql } from '../platform/database.js';
import type { ApiKeyRecord } from './queries.js';

/**
 * A short-lived cache of API key → its record and its owner's admin flag, so that a busy integration's requests
 * (every page view of a customer's site calls embed/generate) authenticate without a database round trip.
 *
 * Revocation must still take effect at once (spec: a revoked key stops working). So:
 * - in this process, revokeApiKey forgets the key in every cache before and after its commit (forgetKey);
 * - in every process, revokeApiKey's transaction NOTIFYs KEY_REVOKED_CHANNEL with the key id, and each cache's
 *   LISTEN forgets it when the commit is delivered (milliseconds);
 * - a cache only stores while its LISTEN connection is up, and empties itself when that connection (re)connects:
 *   whatever was revoked while it was away is gone with the rest;
 * - an entry lives KEY_CACHE_TTL_MS at most: the bound if a notification is lost while that connection is down
 *   and not yet known to be (postgres.js reconnects it and calls onlisten, which empties the cache).
 * A lookup that started before a forget never stores its (possibly stale) answer: a generation counter says so.
 *
 * Keyed by the key's SHA-256, never by the key itself; misses are never cached (a flood of wrong keys cannot
 * push out the right ones); at most MAX_ENTRIES entries, the oldest going first.
 */
export const KEY_REVOKED_CHANNEL = 'api_key_revoked';
export const KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface KeyWithOwner {
  record: ApiKeyRecord;
  ownerIsAdmin: boolean;
}

interface Entry {
  value: KeyWithOwner;
  expiresAt: number;
}

interface KeyCache {
  entries: Map<string, Entry>;
  generation: number;
  /** true while the LISTEN connection is up: only then is anything stored */
  listening: boolean;
  started: boolean;
}

/**
 * One cache per pool: a process has one pool; tests that open two pools model two processes. (A closed pool's
 * LISTEN connection closes with it: `sql.end()` ends it too.)
 */
const caches = new WeakMap<Sql, KeyCache>();
const allCaches = new Set<WeakRef<KeyCache>>();

function cacheOf(sql: Sql): KeyCache {
  let cache = caches.get(sql);
  if (cache) return cache;
  cache = { entries: new Map(), generation: 0, listening: false, started: false };
  caches.set(sql, cache);
  allCaches.add(new WeakRef(cache));
  return cache;
}

function clear(cache: KeyCache): void {
  cache.generation++;
  cache.entries.clear();
}

function forgetIn(cache: KeyCache, keyId: string): void {
  cache.generation++;
  for (const [hash, entry] of cache.entries) if (entry.value.record.id === keyId) cache.entries.delete(hash);
}

function startListening(sql: Sql, cache: KeyCache): void {
  if (cache.started) return;
  cache.started = true;
  sql
    .listen(
      KEY_REVOKED_CHANNEL,
      (keyId) => forgetIn(cache, keyId),
      () => {
        // (Re)connected: a revocation may have been missed while the connection was down.
        clear(cache);
        cache.listening = true;
      },
    )
    .catch(() => {
      // LISTEN failed: this pool caches nothing, every request reads the database as before.
      cache.listening = false;
    });
}

/** The key with this hash (and whether its owner is an admin), from the cache when fresh, else the database. */
export async function findKeyWithOwner(sql: Sql, hash: string): Promise<KeyWithOwner | null> {
  const cache = cacheOf(sql);
  startListening(sql, cache);
  const now = Date.now();
  const hit = cache.entries.get(hash);
  if (hit && hit.expiresAt > now) return hit.value;
  if (hit) cache.entries.delete(hash);

  const generation = cache.generation;
  const found = await readKeyWithOwner(sql, hash);
  if (found && cache.listening && cache.generation === generation) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!);
    cache.entries.set(hash, { value: found, expiresAt: now + KEY_CACHE_TTL_MS });
  }
  return found;
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
  for (const ref of allCaches) {
    const cache = ref.deref();
    if (cache) forgetIn(cache, keyId);
    else allCaches.delete(ref);
  }
}
