import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../platform/database.js';

/**
 * The unique-viewer hash: SHA-256 of the UTC day's salt, the demo and the client address, cut to 16 bytes. Not the
 * user agent (Plausible's model has it): a client that changes its user agent would be a new viewer at every beacon
 * (51 "viewers" from one address were made so), and the owner reads this figure as people. Visitors behind one
 * address (an office) count once a day: an undercount a reader can trust. The address is never stored; the salt is random, one per UTC day,
 * shared by every API process through `analytics_salts`, and deleted by the retention job once its day is over.
 * Without the salt a hash cannot be recomputed from an address, and since each day has its own salt, the same
 * visitor on two days gives two unrelated hashes.
 */
export interface ViewerHasher {
  hash(demoId: string, address: string, at: Date): Promise<string>;
}

export function createViewerHasher(sql: Queryable): ViewerHasher {
  // The salt of the day this process last saw; a new day reads (or makes) the next one once.
  let current: { day: string; salt: Promise<Buffer> } | null = null;
  const saltOf = (day: string): Promise<Buffer> => {
    if (current?.day !== day) {
      const salt = loadSalt(sql, day);
      current = { day, salt };
      // A failed read is not kept: the next beacon tries again.
      salt.catch(() => {
        if (current?.salt === salt) current = null;
      });
    }
    return current.salt;
  };
  return {
    async hash(demoId, address, at) {
      const salt = await saltOf(utcDay(at));
      return createHash('sha256').update(salt).update(`\0${demoId}\0${address}`).digest('base64url').slice(0, 22);
    },
  };
}

/** The day's salt: made by the first process that needs it, read by every other. */
async function loadSalt(sql: Queryable, day: string): Promise<Buffer> {
  await sql`insert into analytics_salts (day, salt) values (${day}, ${randomBytes(32)}) on conflict (day) do nothing`;
  const [row] = await sql<{ salt: Buffer }[]>`select salt from analytics_salts where day = ${day}`;
  if (!row) throw new Error(`no analytics salt for ${day}`);
  return row.salt;
}

/** Salts of days that are over: deleted, so their hashes can never be recomputed. Returns how many went. */
export async function deleteOldSalts(sql: Queryable, now: Date = new Date()): Promise<number> {
  const deleted = await sql`delete from analytics_salts where day < ${utcDay(now)}`;
  return deleted.count;
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
