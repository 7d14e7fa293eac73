import { ForbiddenError } from './errors.js';

/**
 * Who is calling. Resolved once per request by the auth module (src/auth/resolve-principal.ts).
 * - session: a signed-in dashboard user (cookie).
 * - live: a secret API key for trusted code.
 * - publishable: a key that may sit in a browser; only `POST /embed/generate` accepts it (spec Authentication 2, 3).
 */
export interface Principal {
  userId: string;
  isAdmin: boolean;
  via: 'session' | 'live' | 'publishable';
  keyId: string | null;
  /** A project-scoped key reaches only this project. */
  projectId: string | null;
  allowedDomains: string[] | null;
}

/**
 * Issue 15: a project-scoped key does what concerns its project (its demos, embeds and uploads) and nothing else of
 * its user's powers. Admin, billing, key management and account-wide reads call this: 403, saying what would work.
 */
export function refuseProjectScoped(principal: Principal): void {
  if (principal.projectId !== null) {
    throw new ForbiddenError(
      "A project-scoped API key only reaches its project's demos, embeds and uploads; use an unscoped live key or sign in for this.",
    );
  }
}
