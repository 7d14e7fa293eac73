import { createHash } from 'node:crypto';

/**
 * What a page shows once after a redirect (issue 35: the new key's page was the POST's answer, and a reload posted
 * again and made a second key). The POST leaves the value here, keyed to the session, and answers 303; the GET
 * takes it, and a reload finds nothing. Kept in this process's memory only, never in the database or a URL: the
 * value is a secret shown once. A restart loses what was not yet seen (the key is then revoked and made again), and
 * an unseen value expires after a few minutes. One value per session and kind: a second POST replaces the first.
 */
const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

const entries = new Map<string, { value: unknown; expiresAt: number }>();

/** The session is never a key as such: its hash, so a heap dump does not hand out sessions with the secrets. */
const slot = (sessionToken: string, kind: string) => `${kind}:${createHash('sha256').update(sessionToken).digest('base64url')}`;

export function leaveFlash(sessionToken: string, kind: string, value: unknown, now = Date.now()): void {
  for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  // Bounded: past the cap, the oldest (Map order is insertion order) goes first.
  while (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const key = slot(sessionToken, kind);
  entries.delete(key);
  entries.set(key, { value, expiresAt: now + TTL_MS });
}

/** The value left for this session, once: taking it removes it. Null when none, already taken or expired. */
export function takeFlash<T>(sessionToken: string, kind: string, now = Date.now()): T | null {
  const key = slot(sessionToken, kind);
  const entry = entries.get(key);
  if (!entry) return null;
  entries.delete(key);
  return entry.expiresAt > now ? (entry.value as T) : null;
}
