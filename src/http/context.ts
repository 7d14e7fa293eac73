import type { IncomingMessage } from 'node:http';
import { resolvePrincipal } from '../auth/index.js';
import type { Config } from '../platform/config.js';
import type { Sql } from '../platform/database.js';
import type { Logger } from '../platform/logger.js';
import type { SecretBox } from '../platform/secrets.js';
import type { Storage } from '../platform/storage/index.js';
import type { Context } from '../platform/trpc.js';

export interface Services {
  sql: Sql;
  config: Config;
  secrets: SecretBox;
  storage: Storage;
  logger: Logger;
}

/** Per-request context; the request id and logger were attached by the server on arrival. */
export async function createRequestContext(services: Services, req: IncomingMessage, setCookie: (cookie: string) => void): Promise<Context> {
  const { requestId, logger } = requestInfo(req);
  const principal = await resolvePrincipal(services.sql, req.headers, logger);
  return { ...services, logger, requestId, principal, setCookie, headers: req.headers, clientAddress: req.socket.remoteAddress ?? null };
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
