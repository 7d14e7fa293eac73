import { addressBucket } from '../platform/rate-limit.js';

export interface AddressLimiter {
  /** Counts one beacon of this client address; false when it is over the limit this minute. */
  allow(address: string | null): boolean;
  /** Seconds until the current minute ends (Retry-After). */
  retryAfter(): number;
}

/**
 * Beacons a minute per client address (IPv6 by /64, as every per-address limit: platform/rate-limit.ts's buckets),
 * counted in this process. Not in PostgreSQL as the other limits are: a write per beacon is what the batch buffer
 * exists to avoid, and a beacon flood is bounded well enough per process (with N API processes, an address gets at
 * most N times the limit). The counts are one map per minute, dropped whole when the minute turns.
 */
export function createAddressLimiter(perMinute: number, now: () => number = Date.now): AddressLimiter {
  let minute = -1;
  let counts = new Map<string, number>();
  return {
    allow(address) {
      if (perMinute <= 0) return true;
      const current = Math.floor(now() / 60_000);
      if (current !== minute) {
        minute = current;
        counts = new Map();
      }
      const bucket = addressBucket(address);
      const hits = (counts.get(bucket) ?? 0) + 1;
      counts.set(bucket, hits);
      return hits <= perMinute;
    },
    retryAfter() {
      return Math.max(1, 60 - Math.floor((now() % 60_000) / 1000));
    },
  };
}
