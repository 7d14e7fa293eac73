import type { IncomingMessage } from 'node:http';
import { resolvePrincipal } from '../auth/index.js';
import type { Config } from '../platform/config.js';
import type { Sql } from '../platform/database.js';
import type { Logger } from '../platform/logger.js';
import type { SecretBox } from '../platform/secrets.js';
import type { Storage } from '../platform/storage/index.js';
import type { Principal } from '../platform/principal.js';
import type { Payments } from '../payments/index.js';
import type { Context } from '../platform/trpc.js';
import { isForeignOrigin } from '../platform/origin.js';

export interface Services {
  sql: Sql;
  config: Config;
  secrets: SecretBox;
  storage: Storage;
  logger: Logger;
  /** The payment provider's webhook (issue 34); absent in servers built without one. */
  payments?: Payments;
}

/** Per-request context; the request id and logger were attached by the server on arrival. */
export async function createRequestContext(services: Services, req: IncomingMessage, setCookie: (cookie: string) => void): Promise<Context> {
  const { requestId, logger } = requestInfo(req);
  const principal = sessionOnlyFromHere(req, await resolvePrincipal(services.sql, req.headers, logger), services.config.PUBLIC_URL);
  const clientAddress = clientAddressOf(req, services.config.SHOWREEL_TRUSTED_PROXIES);
  const query = new URL(req.url ?? '/', 'http://request.invalid').searchParams;
  return { ...services, logger, requestId, principal, setCookie, headers: req.headers, clientAddress, query };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The session cookie counts only for requests from this service's own pages. A browser sends the cookie
 * (SameSite=Lax) with a form posted from a sibling origin on the same site, and the REST API reads a JSON body of any
 * content type, so a `text/plain` form could otherwise act as the signed-in user; a WebSocket opened from another
 * page could read their progress. Browsers send Origin with every such request: from another origin, the session is
 * ignored (the request is unauthenticated). Keys are unaffected, and so are clients that send no Origin (curl, the
 * CLI): they are not browsers riding on a cookie.
 */
export function sessionOnlyFromHere(req: IncomingMessage, principal: Principal | null, publicUrl: string): Principal | null {
  if (principal?.via !== 'session') return principal;
  const websocket = String(req.headers.upgrade ?? '').toLowerCase() === 'websocket';
  if (SAFE_METHODS.has(req.method ?? 'GET') && !websocket) return principal;
  return isForeignOrigin(req.headers, publicUrl) ? null : principal;
}

/**
 * The client's address: the TCP peer, or with `trustedProxies` = n the address n hops back along X-Forwarded-For.
 * Each proxy appends the address it received the request from, so only the last n entries are the proxies' word;
 * anything left of them is the client's to forge.
 */
export function clientAddressOf(req: IncomingMessage, trustedProxies: number): string | null {
  const peer = req.socket.remoteAddress ?? null;
  if (trustedProxies === 0 || peer === null) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((entry) => entry.trim()).filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - trustedProxies)] ?? peer;
}

const info = new WeakMap<IncomingMessage, { requestId: string; logger: Logger }>();

export function attachRequestInfo(req: IncomingMessage, requestId: string, logger: Logger): void {
  info.set(req, { requestId, logger });
}

export function requestInfo(req: IncomingMessage): { requestId: string; logger: Logger } {
  const value = info.get(req);
  if (!value) throw new Error('request info missing');
  return value;
}
