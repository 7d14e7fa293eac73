import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { migrationsApplied } from '../platform/migrate.js';
import { type QueryTiming, withQueryTiming } from '../platform/query-timing.js';
import { BEACON_PATH, createBeaconEndpoint } from './analytics/beacon-route.js';
import { appRouter } from './app-router.js';
import { attachRequestInfo, createRequestContext, type Services } from './context.js';
import { urlHasNul } from './body.js';
import { capConnectionsPerAddress, setBodyIdleLimit } from './client-limits.js';
import { toErrorResponse } from './errors.js';
import { handleDashboardRequest } from './dashboard/routes.js';
import { handleDocsRequest } from './docs/routes.js';
import { handleEmbedRequest } from './embeds/routes.js';
import { handleMediaRequest } from './media/media-routes.js';
import { handlePageRequest } from './pages/routes.js';
import { createProgressHub } from './progress/progress-hub.js';
import { handleRawApi } from './raw-api.js';
import { buildOpenApiDocument } from './openapi.js';
import { extraOpenApiPaths } from './openapi-extra-paths.js';
import { sendError, sendErrorBeforeBody, sendJson } from './respond.js';
import { API_PREFIX, createRestHandler } from './rest-handler.js';
import { createTrpcHandler } from './trpc-handler.js';

/**
 * The HTTP surface: /healthz, /api/v1 (REST), /api/v1/openapi.json (rendered at /docs), /trpc (the admin procedures only). Everything
 * else is a 404 `{error}`.
 */
export function createHttpServer(services: Services): { server: http.Server; closeSockets(): Promise<void> } {
  const rest = createRestHandler(appRouter, (req, setCookie) => createRequestContext(services, req, setCookie));
  const trpc = createTrpcHandler(services);
  let openApiDocument: unknown = null;
  // View beacons (issue 38): queued in this process, written once a second; the rest is written on shutdown.
  const beacons = createBeaconEndpoint(services);

  // At debug level each request's line also says how many statements it sent and how long they took.
  const timeQueries = services.logger.isLevelEnabled('debug');
  const server = http.createServer((req, res) => {
    if (!timeQueries) return void handle(req, res, null);
    void withQueryTiming((timing) => handle(req, res, timing));
  });

  // Behind trusted proxies every connection is a proxy's: the cap per client address is the proxy's to apply.
  const connections = capConnectionsPerAddress(server, services.config.SHOWREEL_TRUSTED_PROXIES > 0 ? 0 : services.config.SHOWREEL_CONNECTIONS_PER_ADDRESS);
  const bodyIdleMs = services.config.SHOWREEL_BODY_IDLE_SECONDS * 1000;

  async function handle(req: IncomingMessage, res: ServerResponse, timing: QueryTiming | null) {
    // A connection over the cap was answered 429 on arrival; a request it still carried is not served.
    if (connections.isRefused(req.socket)) return void req.socket.destroy();
    setBodyIdleLimit(req, bodyIdleMs);
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
      const db = timing ? { db: { queries: timing.queries, ms: Math.round(timing.ms * 10) / 10 } } : {};
      logger.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10, ...db }, 'request');
    });

    try {
      // Every route below may decode its path parameters: malformed percent-encoding is the client's, a 400.
      if (!decodable(path)) return sendError(res, 400, BAD_ENCODING);
      // No id, query field or page name may hold NUL (PostgreSQL cannot store it): refused here for every route.
      if (urlHasNul(req.url ?? '')) return sendError(res, 400, NUL_IN_URL);
      if (path === '/healthz') return await health(services, req, res);
      if (path === `${API_PREFIX}/openapi.json`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'Use GET for the OpenAPI document.', { Allow: 'GET' });
        openApiDocument ??= buildOpenApiDocument(appRouter, services.config.PUBLIC_URL, extraOpenApiPaths());
        return sendJson(res, 200, openApiDocument);
      }
      if (path === BEACON_PATH) return await beacons.handle(req, res);
      if (await handleEmbedRequest(services, req, res, path)) return;
      if (await handleRawApi(services, req, res, path)) return;
      if (await handleMediaRequest(services, req, res, path)) return;
      if (path.startsWith(`${API_PREFIX}/`)) {
        const outcome = await rest(req, res, path.slice(API_PREFIX.length));
        if (outcome.error !== undefined) logger.error({ err: outcome.error, path }, 'request failed');
        return;
      }
      if (path === '/trpc' || path.startsWith('/trpc/')) return await trpc(req, res);
      if (handleDocsRequest(req, res, path)) return;
      if (await handleDashboardRequest(services, req, res, path)) return;
      if (await handlePageRequest(req, res, { sql: services.sql, config: services.config })) return;
      return sendError(res, 404, `No endpoint ${req.method} ${path}.`);
    } catch (error) {
      const mapped = toErrorResponse(error);
      if (mapped.fault) logger.error({ err: error }, 'request failed');
      // An upload refused before its body was read: answer so that a client still sending reads it, then close.
      if (res.headersSent) res.destroy();
      else if (req.complete) sendJson(res, mapped.status, mapped.body, mapped.headers);
      else sendErrorBeforeBody(req, res, mapped.status, mapped.body, mapped.headers);
    }
  }
  const progress = createProgressHub(services);
  server.on('upgrade', (req, socket, head) => {
    const refusal = !decodable(pathOf(req)) ? BAD_ENCODING : urlHasNul(req.url ?? '') ? NUL_IN_URL : null;
    if (refusal !== null) {
      const body = JSON.stringify({ error: refusal });
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
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
  // Requests Node's parser refuses (a malformed request line or header, headers over the size limit, too slow):
  // the status Node would give, with the `{error}` body every other error has.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', 'The request took too long to arrive.']
      : [400, 'Bad Request', 'The request is not valid HTTP.'];
    const body = JSON.stringify({ error: message });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  // Slow clients cannot hold sockets forever: headers within 20 s (408); a body is dropped after
  // SHOWREEL_BODY_IDLE_SECONDS without a byte (the readers' watchBodyIdle: 408 where an answer can be sent). No limit
  // on a request's total time: it would cut off a large upload on a slow line, which inactivity does not.
  server.requestTimeout = 0;
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = 5_000;
  return { server, closeSockets: () => Promise.all([progress.close(), beacons.close()]).then(() => undefined) };
}

const BAD_ENCODING = 'The URL path is not valid percent-encoded UTF-8.';
const NUL_IN_URL = 'The URL must not contain NUL (%00) characters.';

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
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
