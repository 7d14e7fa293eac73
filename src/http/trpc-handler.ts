import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { ValidationError } from '../platform/errors.js';
import { trpcRouter } from './app-router.js';
import { containsLoneSurrogate, containsNul, mayHoldSurrogateEscape } from '../platform/validation.js';
import { closeIfUnread, LONE_SURROGATE_IN_BODY, MAX_JSON_BODY_BYTES, NUL_IN_BODY, readJsonBody } from './body.js';
import { createRequestContext, type Services } from './context.js';
import { toErrorResponse } from './errors.js';

/**
 * /trpc: the internal admin client's endpoint (scripts/admin-client.ts). Only the admin procedures, one call per
 * request (no batching: a batch would multiply what one request may cost), and the REST body rules before tRPC
 * sees the request: at most 1 MB, read by us and stopped at the limit, no NUL in the input (issue 15).
 *
 * A request refused by those checks still gets tRPC's error envelope, so the client reports it like any other
 * error: the refusal is thrown from createContext, before any procedure runs, and the error formatter
 * (src/platform/trpc.ts) gives it the status of its class (413, 400).
 */
export function createTrpcHandler(services: Services): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const refused = new WeakMap<IncomingMessage, unknown>();
  const handler = createHTTPHandler({
    router: trpcRouter,
    basePath: '/trpc/',
    allowBatching: false,
    maxBatchSize: 1,
    maxBodySize: MAX_JSON_BODY_BYTES,
    createContext: ({ req, res }) => {
      if (refused.has(req)) throw refused.get(req);
      return createRequestContext(services, req, (cookie) => res.appendHeader('Set-Cookie', cookie));
    },
    onError: ({ error, req }) => {
      const mapped = toErrorResponse(error);
      if (mapped.fault) services.logger.error({ err: error, url: req.url }, 'trpc procedure failed');
    },
  });

  return async function handleTrpc(req, res) {
    try {
      const url = req.url ?? '/';
      const refusal = queryInputRefusal(url);
      if (refusal) throw new ValidationError(refusal);
      // tRPC takes a parsed body from req.body instead of reading the stream (and re-serialises it).
      if (req.method !== 'GET' && req.method !== 'HEAD') Object.assign(req, { body: await readJsonBody(req) });
    } catch (error) {
      refused.set(req, error);
      // Nothing more is read: tRPC sees an empty body, and the connection closes after the answer.
      Object.assign(req, { body: '' });
      for (const [name, value] of Object.entries(closeIfUnread(req))) res.setHeader(name, value);
    }
    await handler(req, res);
  };
}

/** A tRPC query carries its input as JSON in `?input=`: the same text rules as a JSON body (null when it keeps them). */
function queryInputRefusal(url: string): string | null {
  const query = url.indexOf('?');
  if (query === -1) return null;
  const input = new URLSearchParams(url.slice(query + 1)).get('input');
  if (input === null) return null;
  const nul = input.includes('\\u0000');
  const surrogate = mayHoldSurrogateEscape(input);
  if (!nul && !surrogate) return null;
  try {
    const parsed: unknown = JSON.parse(input);
    if (nul && containsNul(parsed)) return NUL_IN_BODY;
    if (surrogate && containsLoneSurrogate(parsed)) return LONE_SURROGATE_IN_BODY;
    return null;
  } catch {
    return null;
  }
}
