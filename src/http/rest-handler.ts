import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { ValidationError } from '../platform/errors.js';
import type { Context, Meta } from '../platform/trpc.js';
import type { AppRouter } from './app-router.js';
import { closeIfUnread, readJsonBody, urlHasNul } from './body.js';
import { toErrorResponse } from './errors.js';
import { sendError, sendJson } from './respond.js';
import { keepBodiesStrict } from './strict-body.js';

export const API_PREFIX = '/api/v1';

interface Route {
  method: string;
  pattern: RegExp;
  procedurePath: string;
  successStatus: number;
  takesBody: boolean;
}

/** Every REST route the router declares, for 405s and success statuses. */
export function listRoutes(router: AppRouter): Route[] {
  const routes: Route[] = [];
  const procedures = router._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta;
    const openapi = meta?.openapi;
    if (!openapi || openapi.enabled === false) continue;
    const pattern = new RegExp(`^${openapi.path.replace(/\/+$/, '').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i');
    routes.push({
      method: openapi.method,
      pattern,
      procedurePath,
      successStatus: meta.successStatus ?? 200,
      takesBody: ['POST', 'PATCH', 'PUT'].includes(openapi.method),
    });
  }
  return routes;
}

/** A stand-in ServerResponse that records what trpc-to-openapi writes, so we can rewrite it. */
class CapturedResponse extends EventEmitter {
  statusCode = 200;
  headers = new Map<string, string | string[]>();
  body = '';
  writableEnded = false;
  setHeader(name: string, value: string | string[]) {
    this.headers.set(name.toLowerCase(), value);
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  end(body?: string) {
    this.body = body ?? '';
    this.writableEnded = true;
    this.emit('finish');
  }
}

/**
 * REST over the tRPC procedures. trpc-to-openapi routes and validates; this wrapper is the one place that:
 * - answers 404 for unknown paths and 405 (with Allow) for known paths with the wrong method,
 * - reads JSON bodies itself (size-limited, any content type, clear 400 for malformed JSON),
 * - puts the declared success status (201/202) on the wire,
 * - rewrites every error into `{"error": "<sentence>"}` (its own shape, {message, code, issues}, cannot be
 *   renamed by a formatter).
 */
export function createRestHandler(router: AppRouter, createContext: (req: IncomingMessage, setCookie: (c: string) => void) => Promise<Context>) {
  keepBodiesStrict(router);
  const routes = listRoutes(router);
  const statusByProcedure = new Map(routes.map((r) => [r.procedurePath, r.successStatus]));
  const lastError = new WeakMap<IncomingMessage, unknown>();

  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: async ({ req, res }: { req: IncomingMessage; res: CapturedResponse }) =>
      createContext(req, (cookie) => {
        const existing = res.getHeader('set-cookie');
        res.setHeader('Set-Cookie', [...(Array.isArray(existing) ? existing : existing ? [existing] : []), cookie]);
      }),
    responseMeta: ({ paths, errors }: { paths?: readonly string[]; errors: readonly unknown[] }) =>
      errors.length === 0 && paths?.[0] ? { status: statusByProcedure.get(paths[0]) ?? 200 } : {},
    onError: ({ error, req }: { error: unknown; req: IncomingMessage }) => {
      lastError.set(req, error);
    },
  } as never) as unknown as (req: IncomingMessage, res: CapturedResponse) => Promise<void>;

  return async function handleRest(req: IncomingMessage, res: ServerResponse, path: string): Promise<{ error?: unknown; status: number }> {
    const candidates = routes.filter((r) => r.pattern.test(path));
    if (candidates.length === 0) {
      sendError(res, 404, `No endpoint ${req.method} ${API_PREFIX}${path}.`);
      return { status: 404 };
    }
    const route = candidates.find((r) => r.method === req.method);
    if (!route) {
      const allow = [...new Set(candidates.map((r) => r.method))].join(', ');
      sendError(res, 405, `${req.method} is not allowed on ${API_PREFIX}${path}; use ${allow}.`, { Allow: allow });
      return { status: 405 };
    }

    try {
      if (urlHasNul(req.url ?? '')) throw new ValidationError('The URL must not contain NUL (%00) characters.');
      if (route.takesBody) {
        const body = await readJsonBody(req);
        if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
          throw new ValidationError('The request body must be a JSON object.');
        }
        Object.assign(req, { body });
        req.headers['content-type'] = 'application/json';
      }
    } catch (error) {
      const mapped = toErrorResponse(error);
      sendJson(res, mapped.status, mapped.body, { ...mapped.headers, ...closeIfUnread(req) });
      return { status: mapped.status };
    }

    const captured = new CapturedResponse();
    res.once('close', () => captured.emit('close'));
    req.url = path + (req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '');
    await handler(req, captured);

    const error = lastError.get(req);
    const setCookie = captured.getHeader('set-cookie');
    const extra: Record<string, string | string[]> = setCookie ? { 'Set-Cookie': setCookie } : {};
    if (error !== undefined || captured.statusCode >= 400) {
      const mapped = toErrorResponse(error);
      sendJson(res, mapped.status, mapped.body, { ...mapped.headers, ...(extra as Record<string, string>) });
      return { error: mapped.fault ? error : undefined, status: mapped.status };
    }
    res.writeHead(captured.statusCode, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(captured.body),
      ...extra,
    });
    res.end(captured.body);
    return { status: captured.statusCode };
  };
}
