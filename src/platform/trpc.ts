import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Config } from './config.js';
import type { Sql } from './database.js';
import { ForbiddenError, UnauthorizedError } from './errors.js';
import type { Logger } from './logger.js';
import type { Principal } from './principal.js';
import type { SecretBox } from './secrets.js';

/** Everything a procedure may use. Built per request by the HTTP layer. */
export interface Context {
  sql: Sql;
  config: Config;
  secrets: SecretBox;
  logger: Logger;
  requestId: string;
  principal: Principal | null;
  /** Lets auth procedures set or clear the session cookie. */
  setCookie(cookie: string): void;
  /** Remote address and headers, for auth decisions. */
  headers: Record<string, string | string[] | undefined>;
}

/** `successStatus` puts 201/202 on the wire and into the OpenAPI document (the generator only knows 200). */
export type Meta = OpenApiMeta<{ successStatus?: 200 | 201 | 202 }>;

const t = initTRPC.context<Context>().meta<Meta>().create({
  // Errors never leak stacks; the HTTP layer turns them into {"error": "..."}.
  isDev: false,
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Spec Authentication rule 1: a live key or the session; publishable keys are refused. */
export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  const principal = ctx.principal;
  if (principal === null) throw new UnauthorizedError();
  if (principal.via === 'publishable') {
    throw new ForbiddenError('Publishable keys can only call POST /api/v1/embed/generate; use a live key or sign in.');
  }
  return next({ ctx: { ...ctx, principal } });
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.principal.isAdmin) throw new ForbiddenError('This needs an admin account.');
  return next({ ctx });
});

/** The metadata every event of a request carries. */
export function eventMetadata(ctx: Pick<Context, 'principal' | 'requestId'>) {
  return { actor: ctx.principal?.userId ?? null, requestId: ctx.requestId, correlationId: ctx.requestId, causationId: null };
}
