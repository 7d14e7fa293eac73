import type { Queryable } from '../platform/database.js';
import { randomToken, sha256 } from '../platform/secrets.js';

/** Sessions are ephemeral auth artefacts (a plain table with expiry), stored by the hash of their token. */
export async function createSession(sql: Queryable, userId: string, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const [row] = await sql<{ expires_at: Date }[]>`
    insert into sessions (token_hash, user_id, expires_at)
    values (${sha256(token)}, ${userId}, now() + make_interval(hours => ${ttlHours}))
    returning expires_at`;
  return { token, expiresAt: row!.expires_at };
}

/** The signed-in user of a live session, with their admin flag (one round trip: the session joined to its user). */
export async function findSessionUser(sql: Queryable, token: string): Promise<{ userId: string; isAdmin: boolean } | null> {
  const [row] = await sql<{ user_id: string; is_admin: boolean }[]>`
    select s.user_id, u.is_admin from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${sha256(token)} and s.expires_at > now()`;
  return row ? { userId: row.user_id, isAdmin: row.is_admin } : null;
}

export async function revokeSession(sql: Queryable, token: string): Promise<void> {
  await sql`delete from sessions where token_hash = ${sha256(token)}`;
}

export async function deleteExpiredSessions(sql: Queryable): Promise<number> {
  const rows = await sql`delete from sessions where expires_at <= now() returning 1`;
  return rows.length;
}
