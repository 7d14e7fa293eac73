/** Public entry of the auth module: sessions and the one principal resolver. */
export { resolvePrincipal } from './resolve-principal.js';
export { authRouter } from './procedures.js';
export { createSession, deleteExpiredSessions } from './sessions.js';
export { SESSION_COOKIE, readCookie } from './cookies.js';
