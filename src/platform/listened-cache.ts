import type { Sql } from './database.js';

/**
 * A short-lived in-process cache of read-model answers that the writers' NOTIFYs empty at once, in every process:
 * for reads on a hot path (every request's API key, every page view's embed answer) whose change must still take
 * effect at once.
 *
 * - A write that changes an answer NOTIFYs one of `channels` with an id the answer depends on, in its transaction;
 *   each cache's LISTEN forgets the entries of that id when the commit is delivered (milliseconds). In the writing
 *   process, `forget(id)` can drop them sooner.
 * - A cache stores only while its LISTEN connection is up, and empties itself when that connection (re)connects:
 *   whatever changed while it was away is gone with the rest.
 * - An entry lives `ttlMs` at most: the bound if a notification is lost while the connection is down and not yet
 *   known to be (postgres.js reconnects it and calls onlisten, which empties the cache).
 * - A lookup that started before a forget never stores its (possibly stale) answer: a generation counter says so.
 * - Misses (null) are never cached; at most `maxEntries` entries, the oldest going first.
 *
 * One cache per pool: a process has one pool; tests that open two pools model two processes.
 */
export interface ListenedCacheOptions<V> {
  /** NOTIFY channels whose payload is an id: an entry whose `idsOf` holds it is forgotten */
  channels: string[];
  ttlMs: number;
  maxEntries: number;
  idsOf(value: V): string[];
}

export interface ListenedCache<V> {
  /** The answer under `key`: from the cache when fresh, else `load()` (stored when not null). */
  lookup(sql: Sql, key: string, load: () => Promise<V | null>): Promise<V | null>;
  /** Forgets every entry of `id` in every pool's cache of this process. */
  forget(id: string): void;
}

interface Entry<V> {
  value: V;
  ids: string[];
  expiresAt: number;
}

interface PoolCache<V> {
  entries: Map<string, Entry<V>>;
  generation: number;
  /** how many of the channels are being listened to: only when all are is anything stored */
  listening: number;
  started: boolean;
}

export function listenedCache<V>(options: ListenedCacheOptions<V>): ListenedCache<V> {
  const caches = new WeakMap<Sql, PoolCache<V>>();
  const allCaches = new Set<WeakRef<PoolCache<V>>>();

  const cacheOf = (sql: Sql): PoolCache<V> => {
    let cache = caches.get(sql);
    if (cache) return cache;
    cache = { entries: new Map(), generation: 0, listening: 0, started: false };
    caches.set(sql, cache);
    allCaches.add(new WeakRef(cache));
    return cache;
  };
  const clear = (cache: PoolCache<V>) => {
    cache.generation++;
    cache.entries.clear();
  };
  const forgetIn = (cache: PoolCache<V>, id: string) => {
    cache.generation++;
    for (const [key, entry] of cache.entries) if (entry.ids.includes(id)) cache.entries.delete(key);
  };
  const startListening = (sql: Sql, cache: PoolCache<V>) => {
    if (cache.started) return;
    cache.started = true;
    for (const channel of options.channels) {
      let up = false;
      sql
        .listen(
          channel,
          (id) => forgetIn(cache, id),
          () => {
            // (Re)connected: a change may have been missed while the connection was down.
            clear(cache);
            if (!up) cache.listening++;
            up = true;
          },
        )
        .catch(() => {
          // LISTEN failed: this pool caches nothing, every lookup reads the database.
          if (up) cache.listening--;
          up = false;
          clear(cache);
        });
    }
  };

  return {
    async lookup(sql, key, load) {
      const cache = cacheOf(sql);
      startListening(sql, cache);
      const now = Date.now();
      const hit = cache.entries.get(key);
      if (hit && hit.expiresAt > now) return hit.value;
      if (hit) cache.entries.delete(key);

      const generation = cache.generation;
      const found = await load();
      if (found !== null && cache.listening === options.channels.length && cache.generation === generation) {
        if (cache.entries.size >= options.maxEntries) cache.entries.delete(cache.entries.keys().next().value!);
        cache.entries.set(key, { value: found, ids: options.idsOf(found), expiresAt: now + options.ttlMs });
      }
      return found;
    },
    forget(id) {
      for (const ref of allCaches) {
        const cache = ref.deref();
        if (cache) forgetIn(cache, id);
        else allCaches.delete(ref);
      }
    },
  };
}
