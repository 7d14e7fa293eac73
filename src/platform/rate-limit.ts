import { isIPv4, isIPv6 } from 'node:net';
import type { Queryable } from './database.js';
import { QuotaError } from './errors.js';

export interface RateLimit {
  bucket: string;
  /** requests allowed per window; 0 means unlimited */
  limit: number;
  /** the window's length: 60 (a minute, the default) or 3600 (an hour) */
  windowSeconds?: 60 | 3600;
}

const WINDOW_SECONDS = 60;

/**
 * Counts one request against each bucket (per key, per user) in the current one-minute window, in PostgreSQL so
 * every API process shares the count. Over any limit → 429 with Retry-After (seconds to the next window).
 */
export async function hitRateLimits(sql: Queryable, limits: RateLimit[], what: string): Promise<void> {
  for (const { bucket, limit, windowSeconds = WINDOW_SECONDS } of limits) {
    if (limit <= 0) continue;
    const [row] = await sql<{ hits: number; retry_after: number }[]>`
      insert into rate_limit_windows (bucket, window_start, hits)
      values (${bucket}, to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}), 1)
      on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
      returning hits, ceil(${windowSeconds} - (extract(epoch from now()) - extract(epoch from window_start)))::int as retry_after`;
    if (row && row.hits > limit) {
      const retryAfter = Math.max(1, row.retry_after);
      const per = windowSeconds === 3600 ? 'an hour' : 'a minute';
      throw new QuotaError(`Rate limit exceeded: at most ${limit} ${what} requests ${per}; try again in ${retryAfter} s.`, retryAfter);
    }
  }
}

/**
 * Gives back one hit to each bucket's current window: for limits that count only failures (wrong device codes),
 * every attempt takes a hit first, so that a burst of parallel guesses cannot all pass a look at the count, and a
 * success returns it. A window that turned meanwhile keeps its count (at worst one hit too many, never too few).
 */
export async function returnRateLimitHits(sql: Queryable, limits: RateLimit[]): Promise<void> {
  for (const { bucket, limit, windowSeconds = WINDOW_SECONDS } of limits) {
    if (limit <= 0) continue;
    await sql`
      update rate_limit_windows set hits = greatest(0, hits - 1)
      where bucket = ${bucket} and window_start = to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds})`;
  }
}

export async function deleteOldRateLimitWindows(sql: Queryable): Promise<void> {
  // Hour windows (uploads) must outlive their hour; minute windows go with them, a few rows per user.
  await sql`delete from rate_limit_windows where window_start < now() - interval '2 hours'`;
}

/**
 * The bucket of a client address for per-address limits (sign-in, device codes): IPv4 as is (also when
 * IPv4-mapped); IPv6 by its /64, which one client usually holds whole.
 */
export function addressBucket(address: string | null): string {
  if (address === null) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
