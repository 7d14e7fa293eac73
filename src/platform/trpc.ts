import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Config } from './config.js';
import type { Sql } from './database.js';
import { isDatabaseUnavailable } from './database-availability.js';
import { AppError, DatabaseUnavailableError, ForbiddenError, UnauthorizedError } from './errors.js';
import type { Logger } from './logger.js';
import { isForeignOrigin } from './origin.js';
import { refuseProjectScoped, type Principal } from './principal.js';
import { hitRateLimits, type RateLimit } from './rate-limit.js';
import type { SecretBox } from './secrets.js';
import type { Storage } from './storage/index.js';

/** Everything a procedure may use. Built per request by the HTTP layer. */
export interface Context {
  sql: Sql;
  config: Config;
  secrets: SecretBox;
  storage: Storage;
  logger: Logger;
  requestId: string;
  principal: Principal | null;
  /** Lets auth procedures set or clear the session cookie. */
  setCookie(cookie: string): void;
  /** Request headers, for auth decisions. */
  headers: Record<string, string | string[] | undefined>;
  /** The client's address (the TCP peer, or per SHOWREEL_TRUSTED_PROXIES), for per-client limits such as sign-in's. */
  clientAddress: string | null;
  /** The request's query parameters: options of a POST that travel in its URL (`?force=true`); absent off HTTP. */
  query?: URLSearchParams;
}

const TRPC_CODE_BY_STATUS: Partial<Record<number, TRPC_ERROR_CODE_KEY>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** `successStatus` puts 201/202 on the wire and into the OpenAPI document (the generator only knows 200). */
export type Meta = OpenApiMeta<{ successStatus?: 200 | 201 | 202 }>;

const t = initTRPC.context<Context>().meta<Meta>().create({
  // Errors never leak stacks; the HTTP layer turns them into {"error": "..."}.
  isDev: false,
  // On /trpc, an AppError thrown by a procedure, a middleware or createContext would otherwise be an
  // INTERNAL_SERVER_ERROR (500): give it the code and HTTP status its class stands for. (REST maps errors itself.)
  errorFormatter({ shape, error }) {
    const cause = isDatabaseUnavailable(error.cause) ? new DatabaseUnavailableError() : error.cause;
    if (error.code !== 'INTERNAL_SERVER_ERROR') return shape;
    // A real fault: its message may be a database's or a library's; the client gets a sentence, the log the rest.
    if (!(cause instanceof AppError)) return { ...shape, message: 'Something went wrong on our side; it has been logged.' };
    const code = TRPC_CODE_BY_STATUS[cause.status];
    if (!code) return shape;
    return { ...shape, code: TRPC_ERROR_CODES_BY_KEY[code], data: { ...shape.data, code, httpStatus: cause.status } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

export const PUBLISHABLE_KEY_REFUSED = 'Publishable keys can only call POST /api/v1/embed/generate; use a live key or sign in.';

/** Spec Authentication rule 1: a live key or the session; publishable keys are refused. */
export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  const principal = ctx.principal;
  if (principal === null) throw new UnauthorizedError();
  if (principal.via === 'publishable') throw new ForbiddenError(PUBLISHABLE_KEY_REFUSED);
  // tRPC merges this into the context: only what changes (the principal, now known not to be null), no copy.
  return next({ ctx: { principal } });
});

/**
 * The session endpoints (sign up, in, out) set or clear the session cookie, so a page of another site must not be
 * able to call them on a visitor's behalf (login CSRF, forced sign-out): a request a browser marks as from another
 * origin is refused. Clients without Origin (curl, the CLI) are unaffected.
 */
export const sameOriginProcedure = t.procedure.use(({ ctx, next }) => {
  if (isForeignOrigin(ctx.headers, ctx.config.PUBLIC_URL)) {
    throw new ForbiddenError('Signing in and out only works from the pages of this service; this request came from another site.');
  }
  return next();
});

/**
 * Request limits on the expensive commands (create, refresh, restyle, embed generate, upload): per key and per
 * user, per minute (SHOWREEL_RATE_LIMIT_PER_KEY, SHOWREEL_RATE_LIMIT_PER_USER). 429 with Retry-After beyond.
 */
export function rateLimited(action: string) {
  return t.middleware(async ({ ctx, next }) => {
    const principal = ctx.principal;
    if (principal) await hitRateLimits(ctx.sql, rateLimitsFor(ctx.config, principal, action), action);
    return next();
  });
}

export function rateLimitsFor(config: Config, principal: Principal, action: string): RateLimit[] {
  return [
    ...(principal.keyId ? [{ bucket: `key:${principal.keyId}:${action}`, limit: config.SHOWREEL_RATE_LIMIT_PER_KEY }] : []),
    { bucket: `user:${principal.userId}:${action}`, limit: config.SHOWREEL_RATE_LIMIT_PER_USER },
  ];
}

/** What spans the whole account (billing, key management, account-wide reads): no project-scoped key. */
export const accountProcedure = authedProcedure.use(({ ctx, next }) => {
  refuseProjectScoped(ctx.principal);
  return next();
});

/** An admin's session or unscoped live key. */
export const adminProcedure = accountProcedure.use(({ ctx, next }) => {
  if (!ctx.principal.isAdmin) throw new ForbiddenError('This needs an admin account.');
  return next();
});

/** The metadata every event of a request carries. */
export function eventMetadata(ctx: Pick<Context, 'principal' | 'requestId'>) {
  return { actor: ctx.principal?.userId ?? null, requestId: ctx.requestId, correlationId: ctx.requestId, causationId: null };
}
