import { randomFillSync } from 'node:crypto';

const POOL_IDS = 256;
const pool = Buffer.alloc(POOL_IDS * 10);
let poolOffset = pool.length;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Opaque record ids. Stored as text, so a malformed id from a URL is simply "not found", never a cast error.
 *
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Ids made one after another sort one after
 * another, so every B-tree they key (a demo, its job, its charge's reference, its event stream, its graphile job
 * key) grows at its right edge: PostgreSQL's rightmost-leaf fast path skips the descent, and a checkpoint's first
 * write of a page logs a full page image for a handful of pages instead of one per insert (random v4 ids touch a
 * different leaf every time). 74 random bits keep an id unguessable; the creation time it shows is also in the
 * resource's `created_at`.
 */
export function newId(): string {
  if (poolOffset + 10 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const r = poolOffset;
  poolOffset += 10;
  const ms = Date.now();
  const high = Math.floor(ms / 0x10000); // the top 32 of 48 bits
  const low = ms % 0x10000;
  return (
    HEX[(high >>> 24) & 0xff]! + HEX[(high >>> 16) & 0xff]! + HEX[(high >>> 8) & 0xff]! + HEX[high & 0xff]! + '-' +
    HEX[low >>> 8]! + HEX[low & 0xff]! + '-' +
    HEX[0x70 | (pool[r]! & 0x0f)]! + HEX[pool[r + 1]!]! + '-' +
    HEX[0x80 | (pool[r + 2]! & 0x3f)]! + HEX[pool[r + 3]!]! + '-' +
    HEX[pool[r + 4]!]! + HEX[pool[r + 5]!]! + HEX[pool[r + 6]!]! + HEX[pool[r + 7]!]! + HEX[pool[r + 8]!]! + HEX[pool[r + 9]!]!
  );
}
