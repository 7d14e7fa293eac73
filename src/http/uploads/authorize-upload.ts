import type { IncomingMessage } from 'node:http';
import { resolvePrincipal } from '../../auth/index.js';
import { ForbiddenError, UnauthorizedError } from '../../platform/errors.js';
import { refuseProjectScoped, type Principal } from '../../platform/principal.js';
import { hitRateLimits } from '../../platform/rate-limit.js';
import { rateLimitsFor } from '../../platform/trpc.js';
import { sessionOnlyFromHere, type Services } from '../context.js';

/**
 * Binary uploads live outside tRPC but use the same resolver and rules: a live key or the session (401 without),
 * never a publishable key (spec Authentication rule 3: 403), no project-scoped key for account-wide uploads, and the
 * per-key and per-user request limits.
 */
export async function authorizeUpload(services: Services, req: IncomingMessage, action: string, scope: 'project' | 'account' = 'project'): Promise<Principal> {
  const principal = sessionOnlyFromHere(req, await resolvePrincipal(services.sql, req.headers, services.logger), services.config.PUBLIC_URL);
  if (!principal) throw new UnauthorizedError();
  if (principal.via === 'publishable') throw new ForbiddenError('Publishable keys cannot upload; use a live key or sign in.');
  // Demo uploads concern one project (checked against the key's by the caller); a background belongs to the account.
  if (scope === 'account') refuseProjectScoped(principal);
  await hitRateLimits(services.sql, rateLimitsFor(services.config, principal, action), action);
  return principal;
}
