import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { migrationsApplied } from '../platform/migrate.js';
import { appRouter } from './app-router.js';
import { attachRequestInfo, createRequestContext, type Services } from './context.js';
import { toErrorResponse } from './errors.js';
import { handleEmbedRequest } from './embeds/routes.js';
import { handleMediaRequest } from './media/media-routes.js';
import { handlePageRequest } from './pages/routes.js';
import { createProgressHub } from './progress/progress-hub.js';
import { handleRawApi } from './raw-api.js';
import { buildOpenApiDocument } from './openapi.js';
import { extraOpenApiPaths } from './openapi-extra-paths.js';
import { sendError, sendJson } from './respond.js';
import { API_PREFIX, createRestHandler } from './rest-handler.js';

/**
 * The HTTP surface: /healthz, /api/v1 (REST), /api/v1/openapi.json, /trpc (internal admin client). Everything
 * else is a 404 `{error}`.
 */
export function createHttpServer(services: Services): { server: http.Server; closeSockets(): Promise<void> } {
  const rest = createRestHandler(appRouter, (req, setCookie) => createRequestContext(services, req, setCookie));
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    createContext: ({ req, res }) =>
      createRequestContext(services, req, (cookie) => res.appendHeader('Set-Cookie', cookie)),
    onError: ({ error, req }) => {
      const mapped = toErrorResponse(error);
      if (mapped.fault) services.logger.error({ err: error, url: req.url }, 'trpc procedure failed');
    },
  });
  let openApiDocument: unknown = null;

  const server = http.createServer(async (req, res) => {
    const started = process.hrtime.bigint();
    const supplied = req.headers['x-request-id'];
    const requestId = typeof supplied === 'string' && /^[\w.-]{1,100}$/.test(supplied) ? supplied : randomUUID();
    const logger = services.logger.child({ requestId });
    attachRequestInfo(req, requestId, logger);
    res.setHeader('X-Request-Id', requestId);
    // Taken now: the REST handler rewrites req.url to the path below /api/v1.
    const path = pathOf(req);
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });

    try {
      if (path === '/healthz') return await health(services, req, res);
      if (path === `${API_PREFIX}/openapi.json`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'Use GET for the OpenAPI document.', { Allow: 'GET' });
        openApiDocument ??= buildOpenApiDocument(appRouter, services.config.PUBLIC_URL, extraOpenApiPaths(services.config.PUBLIC_URL));
        return sendJson(res, 200, openApiDocument);
      }
      if (await handleEmbedRequest(services, req, res, path)) return;
      if (await handleRawApi(services, req, res, path)) return;
      if (await handleMediaRequest(services, req, res, path)) return;
      if (path.startsWith(`${API_PREFIX}/`)) {
        const outcome = await rest(req, res, path.slice(API_PREFIX.length));
        if (outcome.error !== undefined) logger.error({ err: outcome.error, path }, 'request failed');
        return;
      }
      if (path.startsWith('/trpc/')) return trpc(req, res);
      if (await handlePageRequest(req, res, { sql: services.sql, config: services.config })) return;
      return sendError(res, 404, `No endpoint ${req.method} ${path}.`);
    } catch (error) {
      const mapped = toErrorResponse(error);
      if (mapped.fault) logger.error({ err: error }, 'request failed');
      // An upload refused before its body was read: answer, then close rather than read megabytes we will discard.
      const close: Record<string, string> = req.complete ? {} : { Connection: 'close' };
      if (!res.headersSent) sendJson(res, mapped.status, mapped.body, { ...mapped.headers, ...close });
      else res.destroy();
    }
  });
  const progress = createProgressHub(services);
  server.on('upgrade', (req, socket, head) => {
    progress
      .handleUpgrade(req, socket, head)
      .then((handled) => {
        if (!handled) socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"No WebSocket endpoint here."}');
      })
      .catch((error: unknown) => {
        services.logger.error({ err: error }, 'websocket upgrade failed');
        socket.destroy();
      });
  });
  // Slow clients cannot hold sockets forever.
  server.requestTimeout = 5 * 60_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  return { server, closeSockets: () => progress.close() };
}

function pathOf(req: IncomingMessage): string {
  const raw = req.url ?? '/';
  const path = raw.split('?')[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

async function health(services: Services, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'Use GET for /healthz.', { Allow: 'GET' });
  try {
    await services.sql`select 1`;
    if (!(await migrationsApplied(services.sql))) return sendJson(res, 503, { status: 'migrating', error: 'Migrations are not applied yet.' });
    return sendJson(res, 200, { status: 'ok' });
  } catch {
    return sendJson(res, 503, { status: 'unavailable', error: 'The database does not answer.' });
  }
}
