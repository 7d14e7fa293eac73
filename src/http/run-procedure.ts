import { getTRPCErrorFromUnknown, TRPCError } from '@trpc/server';
import type { Context } from '../platform/trpc.js';

/** What a procedure of the router holds, as trpc-to-openapi and rest-routes.ts read it too. */
export interface RunnableProcedure {
  _def: { middlewares: Middleware[]; meta?: unknown; type: string };
}

type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };

interface CallOptions {
  ctx: Context;
  type: string;
  path: string;
  input: unknown;
  getRawInput: () => Promise<unknown>;
  signal: undefined;
  batchIndex: number;
}

interface NextOptions {
  ctx?: Partial<Context>;
  input?: unknown;
  getRawInput?: () => Promise<unknown>;
}

type Middleware = (opts: CallOptions & { meta: unknown; next: (next?: NextOptions) => Promise<MiddlewareResult> }) => Promise<MiddlewareResult>;

/**
 * Calls a procedure as `createCaller(ctx).a.b(input)` does, for the REST handler: the same chain (our
 * middlewares, tRPC's input parser, output parser and error formatter, then the resolver), in the same order,
 * with the same options, and its failure thrown as the TRPCError tRPC makes of it. What differs is the cost:
 * tRPC's chain (11.x, `callRecursive`) copies the call's options and the whole context with Babel's
 * `_objectSpread2` at every one of a procedure's five or six levels, and its caller is a recursive Proxy; that
 * was ~25 µs of the API's CPU per call, about 5% of a POST /demos (docs/decisions.md, "API throughput"). Here
 * each level is one object literal, and the context is copied only when a middleware changes it.
 *
 * It reads the procedure's `_def.middlewares`, which tRPC builds and trpc-to-openapi reads as well;
 * test/http/run-procedure.test.ts holds it to createCaller's behaviour on a pinned tRPC.
 */
export async function runProcedure(procedure: RunnableProcedure, path: string, ctx: Context, input: unknown): Promise<unknown> {
  const def = procedure._def;
  const result: MiddlewareResult | undefined = await callLevel(def.middlewares, def.meta, 0, {
    ctx,
    type: def.type,
    path,
    input: undefined,
    getRawInput: rawInputOf(input),
    signal: undefined,
    batchIndex: 0,
  });
  // tRPC's own words for a middleware that forgot to return next()'s result.
  if (!result) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares - did you forget to `return next()`?' });
  if (!result.ok) throw result.error;
  return result.data;
}

async function callLevel(middlewares: Middleware[], meta: unknown, index: number, opts: CallOptions): Promise<MiddlewareResult> {
  try {
    return await middlewares[index]!({
      ctx: opts.ctx,
      type: opts.type,
      path: opts.path,
      input: opts.input,
      getRawInput: opts.getRawInput,
      signal: opts.signal,
      batchIndex: opts.batchIndex,
      meta,
      next: nextOf(middlewares, meta, index, opts),
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause) };
  }
}

// The closures come from functions that return them, not written into the object literals: under tsx (esbuild's
// keepNames) a function written as a property value gets a name defined on it at every call.
function rawInputOf(input: unknown): () => Promise<unknown> {
  return () => Promise.resolve(input);
}

function nextOf(middlewares: Middleware[], meta: unknown, index: number, opts: CallOptions): (next?: NextOptions) => Promise<MiddlewareResult> {
  return (next?: NextOptions) =>
    callLevel(middlewares, meta, index + 1, {
      ctx: next?.ctx ? { ...opts.ctx, ...next.ctx } : opts.ctx,
      type: opts.type,
      path: opts.path,
      input: next && 'input' in next ? next.input : opts.input,
      getRawInput: next?.getRawInput ?? opts.getRawInput,
      signal: opts.signal,
      batchIndex: opts.batchIndex,
    });
}
