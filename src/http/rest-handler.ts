import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { normalizePath } from 'trpc-to-openapi';
import { ValidationError } from '../platform/errors.js';
import type { Context } from '../platform/trpc.js';
import type { AppRouter } from './app-router.js';
import { closeIfUnread, readFormBody, readIgnoredBody, readJsonBody } from './body.js';
import { toErrorResponse } from './errors.js';
import { sendError, sendJson } from './respond.js';
import { listRoutes, type Route } from './rest-routes.js';
import { runProcedure } from './run-procedure.js';
import { mediaTypeOf } from './uploads/receive-body.js';
import { keepBodiesStrict } from './strict-body.js';

export const API_PREFIX = '/api/v1';
export { listRoutes };

type CreateContext = (req: IncomingMessage, setCookie: (cookie: string) => void) => Promise<Context>;

/**
 * REST over the tRPC procedures, dispatched here rather than by trpc-to-openapi's handler (docs/decisions.md,
 * "REST dispatch"): that handler redid at every request what the route table (rest-routes.ts) works out once,
 * and built a Fetch Request for an unused abort signal, an error shape we discarded and a stand-in response we
 * copied. What it did that we rely on is kept, in the same order:
 * - 404 for unknown paths, 405 (with Allow) for known paths with the wrong method,
 * - JSON bodies read here (size-limited, any content type, a clear 400 for malformed JSON or a non-object),
 * - the input: body fields or query parameters, then the path parameters (undecoded) over them,
 * - the declared success status (201/202) on the wire,
 * - every error as `{"error": "<sentence>"}` through toErrorResponse; faults come back for the request log.
 */
export function createRestHandler(router: AppRouter, createContext: CreateContext) {
  keepBodiesStrict(router);
  const routes = listRoutes(router);

  return async function handleRest(req: IncomingMessage, res: ServerResponse, path: string): Promise<{ error?: unknown; status: number }> {
    // HEAD is GET without the body (RFC 9110): same route, same status and headers; Node leaves the body out.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    let route: Route | undefined;
    let matched = false;
    for (const candidate of routes) {
      if (!candidate.pattern.test(path)) continue;
      matched = true;
      if (candidate.method === method) {
        route = candidate;
        break;
      }
    }
    if (!matched) {
      sendError(res, 404, `No endpoint ${req.method} ${API_PREFIX}${path}.`);
      return { status: 404 };
    }
    if (!route) {
      const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
      if (methods.has('GET')) methods.add('HEAD');
      const allow = [...methods].join(', ');
      sendError(res, 405, `${req.method} is not allowed on ${API_PREFIX}${path}; use ${allow}.`, { Allow: allow });
      return { status: 405 };
    }

    let body: unknown;
    try {
      if (route.ignoresBody) await readIgnoredBody(req);
      else if (route.formBody && mediaTypeOf(req) === 'application/x-www-form-urlencoded') body = await readFormBody(req);
      else if (route.takesBody) {
        body = await readJsonBody(req);
        if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
          throw new ValidationError('The request body must be a JSON object.');
        }
      }
    } catch (error) {
      const mapped = toErrorResponse(error);
      sendJson(res, mapped.status, mapped.body, { ...mapped.headers, ...closeIfUnread(req) });
      return { status: mapped.status };
    }

    const cookies: string[] = [];
    let error: TRPCError;
    try {
      const target = requestTarget(path, req.url ?? '');
      const procedure = target.path === path ? route : routes.find((r) => r.method === method && r.dispatch.test(target.path));
      if (!procedure) throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
      const input = inputOf(procedure, target, body);
      const ctx = await createContext(req, (cookie) => void cookies.push(cookie));
      // As createCaller(ctx).a.b(input) would, without its per-level copies (run-procedure.ts).
      const data = await runProcedure(procedure.procedure, procedure.procedurePath, ctx, input);
      const text = JSON.stringify(data) ?? '';
      res.writeHead(procedure.successStatus, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'Content-Length': Buffer.byteLength(text),
        ...(cookies.length > 0 ? { 'Set-Cookie': cookies } : {}),
      });
      res.end(text);
      return { status: procedure.successStatus };
    } catch (thrown) {
      error = asTrpcError(thrown);
    }
    const mapped = toErrorResponse(error);
    sendJson(res, mapped.status, mapped.body, { ...mapped.headers, ...(cookies.length > 0 ? { 'Set-Cookie': cookies as unknown as string } : {}) });
    return { error: mapped.fault ? error : undefined, status: mapped.status };
  };
}

interface RequestTarget {
  /** The path as matched against the procedures' patterns. */
  path: string;
  /** The query string without its `?`, or the parsed parameters when the URL parser had to be used. */
  query: string | URLSearchParams;
}

/** Nothing the WHATWG URL parser would re-encode, and no `.` or `..` segment (also as `%2e`) it would resolve. */
const PLAIN_PATH = /^[\w\-.~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
/** No fragment and nothing the URL parser strips (tabs, newlines, leading or trailing controls and spaces). */
const PLAIN_QUERY = /^[^#\x00-\x20]*$/;

/**
 * The path and query string as trpc-to-openapi saw them: it parsed `new URL('http://127.0.0.1' + path + query)`.
 * For an ordinary request target that parse changes nothing, and it is skipped; anything else goes through it,
 * so a path the parser rewrites (`/projects/%2e%2e`) is routed as it was.
 */
function requestTarget(path: string, url: string): RequestTarget {
  const queryAt = url.indexOf('?');
  const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && PLAIN_QUERY.test(query)) return { path, query };
  const parsed = new URL(`http://127.0.0.1${path}${queryAt === -1 ? '' : url.slice(queryAt)}`);
  return { path: normalizePath(parsed.pathname), query: parsed.searchParams };
}

/**
 * The procedure's input as trpc-to-openapi built it: body fields (POST, PATCH, PUT) or query parameters (GET,
 * DELETE; a repeated one is an array), then the path parameters over them; `undefined` for a void input.
 */
function inputOf(route: Route, target: RequestTarget, body: unknown): unknown {
  if (route.voidInput) return undefined;
  const pathParameters = route.dispatch.exec(target.path)?.groups;
  if (route.takesBody) return { ...(body as object | undefined), ...pathParameters };
  const input: Record<string, unknown> = { ...queryParameters(target.query), ...pathParameters };
  for (const field of route.arrayFields) {
    if (input[field] !== undefined && !Array.isArray(input[field])) input[field] = [input[field]];
  }
  return input;
}

/**
 * Query parameters, one value as a string and repeated ones as an array. A prototype-less object: a parameter
 * named `constructor` or `__proto__` is just a (then stripped) field, where the library's `{}` made it a 500.
 */
function queryParameters(query: string | URLSearchParams): Record<string, string | string[]> {
  const parameters: Record<string, string | string[]> = Object.create(null);
  if (query === '') return parameters;
  const search = typeof query === 'string' ? new URLSearchParams(query) : query;
  const repeated: Record<string, string[]> = Object.create(null);
  search.forEach((value, key) => {
    const existing = parameters[key];
    if (existing === undefined) return void (parameters[key] = value);
    if (typeof existing === 'string') parameters[key] = repeated[key] = [existing];
    repeated[key]!.push(value);
  });
  return parameters;
}

/**
 * What reaches toErrorResponse and the request log, as before: a procedure's errors are already TRPCErrors
 * (tRPC wraps what a middleware or resolver throws, a zod input error as BAD_REQUEST with the ZodError as cause);
 * anything else (createContext's) becomes an INTERNAL_SERVER_ERROR carrying it as cause, as trpc-to-openapi did.
 */
function asTrpcError(thrown: unknown): TRPCError {
  if (thrown instanceof Error && thrown.name === 'TRPCError') return thrown as TRPCError;
  const error = new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', cause: thrown instanceof Error ? thrown : undefined });
  if (thrown instanceof Error && thrown.stack) error.stack = thrown.stack;
  return error;
}
