import { randomUUID } from 'node:crypto';

/** Opaque record ids. Stored as text, so a malformed id from a URL is simply "not found", never a cast error. */
export function newId(): string {
  return randomUUID();
}
