import type { Queryable, Tx } from '../platform/database.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { constantTimeEqual, randomToken, sha256 } from '../platform/secrets.js';
import { changePassword } from '../users/index.js';

/**
 * One-time password reset links (issue 35). Without mail, an administrator issues one (`showreel admin reset-link`)
 * and hands it over; it sets a new password once, within its lifetime. The token is `<id>.<secret>`: the row is
 * found by its id and the secret's SHA-256 compared in constant time, so neither the database nor its timing gives
 * the secret away. A new link replaces the user's unused ones; using one signs the user out everywhere.
 */

export const RESET_LINK_PATH = '/app/reset-password/';
export const DEFAULT_RESET_LINK_MINUTES = 60;

export async function issueResetLink(sql: Queryable, userId: string, minutes = DEFAULT_RESET_LINK_MINUTES): Promise<{ token: string; expiresAt: Date }> {
  const id = randomToken(12);
  const secret = randomToken(32);
  await sql`delete from password_reset_links where user_id = ${userId} and used_at is null`;
  const [row] = await sql<{ expires_at: Date }[]>`
    insert into password_reset_links (id, secret_hash, user_id, expires_at)
    values (${id}, ${sha256(secret)}, ${userId}, now() + make_interval(mins => ${minutes}))
    returning expires_at`;
  return { token: `${id}.${secret}`, expiresAt: row!.expires_at };
}

/** The user a token may reset, while it is unused and unexpired; null for anything else (the page says no more). */
export async function findUsableResetLink(sql: Queryable, token: string, lock = false): Promise<{ id: string; userId: string } | null> {
  const match = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, id, secret] = match;
  const [row] = lock
    ? await sql<{ id: string; user_id: string; secret_hash: string }[]>`
        select id, user_id, secret_hash from password_reset_links
        where id = ${id!} and used_at is null and expires_at > now() for update`
    : await sql<{ id: string; user_id: string; secret_hash: string }[]>`
        select id, user_id, secret_hash from password_reset_links
        where id = ${id!} and used_at is null and expires_at > now()`;
  if (!row || !constantTimeEqual(sha256(secret!), row.secret_hash)) return null;
  return { id: row.id, userId: row.user_id };
}

/**
 * Sets the new password (hashed by the caller, outside the transaction) through the link, once: the link is marked
 * used, the user's other links deleted and every session of theirs revoked (whoever knew the old password is out).
 * Null when the link is not usable (used meanwhile, expired, unknown).
 */
export async function useResetLink(tx: Tx, token: string, passwordHash: string, metadata: EventMetadata): Promise<{ userId: string } | null> {
  const link = await findUsableResetLink(tx, token, true);
  if (!link) return null;
  await tx`update password_reset_links set used_at = now() where id = ${link.id}`;
  await tx`delete from password_reset_links where user_id = ${link.userId} and used_at is null`;
  await changePassword(tx, link.userId, passwordHash, metadata);
  await tx`delete from sessions where user_id = ${link.userId}`;
  return { userId: link.userId };
}
