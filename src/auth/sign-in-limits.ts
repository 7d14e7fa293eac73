import type { Config } from '../platform/config.js';
import type { Queryable } from '../platform/database.js';
import { addressBucket, hitRateLimits } from '../platform/rate-limit.js';

export { addressBucket };
import { sha256 } from '../platform/secrets.js';

/**
 * Sign-in attempts are counted before any password is hashed: per client address and per email, per minute
 * (SHOWREEL_SIGN_IN_LIMIT_PER_ADDRESS, _PER_EMAIL), right or wrong, so guessing costs the guesser time and the
 * service no scrypt. Beyond either: 429 with Retry-After. The per-email count means a guesser can hold one
 * account's sign-in shut for the rest of a minute; sessions and keys already issued keep working.
 */
export async function countSignInAttempt(sql: Queryable, config: Config, clientAddress: string | null, email: string): Promise<void> {
  await hitRateLimits(
    sql,
    [
      { bucket: `sign-in:address:${addressBucket(clientAddress)}`, limit: config.SHOWREEL_SIGN_IN_LIMIT_PER_ADDRESS },
      // Hashed: the counter table holds no email addresses, and every bucket name has the same length.
      { bucket: `sign-in:email:${sha256(email.trim().toLowerCase())}`, limit: config.SHOWREEL_SIGN_IN_LIMIT_PER_EMAIL },
    ],
    'sign-in',
  );
}

