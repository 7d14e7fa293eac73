import { randomToken, sha256 } from '../platform/secrets.js';
import type { KeyType } from './events.js';

/** Key text: `sr_live_` or `sr_pub_` then 32 random bytes, base64url (256 bits of entropy). */
export const KEY_PREFIX: Record<KeyType, string> = { live: 'sr_live_', publishable: 'sr_pub_' };

export function generateKey(type: KeyType): { key: string; hash: string; prefix: string } {
  const key = `${KEY_PREFIX[type]}${randomToken(32)}`;
  // Enough to recognise a key in a list, far too little to guess the rest.
  return { key, hash: sha256(key), prefix: key.slice(0, KEY_PREFIX[type].length + 6) };
}

export function keyTypeOf(text: string): KeyType | null {
  if (text.startsWith(KEY_PREFIX.live)) return 'live';
  if (text.startsWith(KEY_PREFIX.publishable)) return 'publishable';
  return null;
}
