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
