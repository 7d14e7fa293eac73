import { findKeyWithOwner, keyTypeOf, touchKey } from '../keys/index.js';
import type { Sql } from '../platform/database.js';
import { UnauthorizedError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Principal } from '../platform/principal.js';
import { constantTimeEqual, sha256 } from '../platform/secrets.js';
import { SESSION_COOKIE, readCookie } from './cookies.js';
import { findSessionUser } from './sessions.js';

type Headers = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The one auth resolver. Credentials, in order: `Authorization: Bearer <key>`, `X-API-Key: <key>`, then the
 * session cookie. A key that is present but wrong is a 401 even if a cookie would have worked: a caller that sends
 * a key means to use it. Returns null when nothing was presented.
 */
export async function resolvePrincipal(sql: Sql, headers: Headers, logger?: Logger): Promise<Principal | null> {
  const authorization = first(headers.authorization);
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const headerKey = first(headers['x-api-key'])?.trim();
  if (authorization !== undefined && bearer === undefined) {
    throw new UnauthorizedError('The Authorization header must be "Bearer <API key>".');
  }
  if (bearer !== undefined) {
    // Spec Authentication: publishable keys are presented in X-API-Key only.
    if (keyTypeOf(bearer) === 'publishable') throw new UnauthorizedError('Send publishable keys in the X-API-Key header, not as a bearer token.');
    return principalForKey(sql, bearer, logger);
  }
  if (headerKey) return principalForKey(sql, headerKey, logger);

  const token = readCookie(first(headers.cookie), SESSION_COOKIE);
  if (token) {
    const user = await findSessionUser(sql, token);
    if (user === null) return null;
    return { userId: user.userId, isAdmin: user.isAdmin, via: 'session', keyId: null, projectId: null, allowedDomains: null };
  }
  return null;
}

async function principalForKey(sql: Sql, key: string, logger?: Logger): Promise<Principal> {
  const type = keyTypeOf(key);
  if (type === null) throw new UnauthorizedError('Invalid API key.');
  const hash = sha256(key);
  // From a short-lived cache that revocation empties at once (src/keys/key-cache.ts), else one query.
  const found = await findKeyWithOwner(sql, hash);
  // The lookup is by hash; the compare is constant-time anyway so no path leaks timing about stored hashes.
  if (!found || !constantTimeEqual(found.record.key_hash, hash)) throw new UnauthorizedError('Invalid API key.');
  const { record } = found;
  await touchKey(sql, record.id).catch((error: unknown) => logger?.warn({ err: error }, 'could not record API key use'));
  return {
    userId: record.user_id,
    isAdmin: found.ownerIsAdmin,
    via: record.type,
    keyId: record.id,
    projectId: record.project_id,
    allowedDomains: record.allowed_domains,
  };
}
