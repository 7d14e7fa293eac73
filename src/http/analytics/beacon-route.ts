import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  beaconSchema,
  createAddressLimiter,
  createBeaconBuffer,
  createViewerHasher,
  hostOf,
  isBot,
  MAX_BEACON_BYTES,
  optedOut,
  type BeaconBuffer,
} from '../../analytics/index.js';
import { ValidationError } from '../../platform/errors.js';
import { describeIssues } from '../../platform/validation.js';
import { readJsonBody } from '../body.js';
import { clientAddressOf, requestInfo, type Services } from '../context.js';
import { toErrorResponse } from '../errors.js';
import { sendErrorBeforeBody, sendJson } from '../respond.js';
import { API_PREFIX } from '../rest-handler.js';

export const BEACON_PATH = `${API_PREFIX}/beacon`;

export interface BeaconEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Writes the beacons still queued (the server's shutdown). */
  close(): Promise<void>;
  buffer: BeaconBuffer;
}

/**
 * POST /api/v1/beacon: what our players send with navigator.sendBeacon, public, no credential. The answer is quick
 * and never a 5xx (a player cannot do anything about one, and a beacon must not cost the visitor anything):
 * - 202: counted (queued; written within a second);
 * - 204: not counted, on purpose: a bot's user agent, `DNT: 1` or `Sec-GPC: 1`, or a fault of ours (logged);
 * - 400/405/413/415/429 `{error}`: a malformed beacon, another method, a body over 2 KB, another content type,
 *   too many beacons from this address this minute.
 */
export function createBeaconEndpoint(services: Services): BeaconEndpoint {
  const buffer = createBeaconBuffer({ sql: services.sql, logger: services.logger });
  const hasher = createViewerHasher(services.sql);
  const limiter = createAddressLimiter(services.config.SHOWREEL_BEACON_LIMIT_PER_ADDRESS);
  const noContent = (res: ServerResponse) => {
    res.writeHead(204, { 'Cache-Control': 'no-store' });
    res.end();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return sendJson(res, 405, { error: `Use POST on ${BEACON_PATH}.` }, { Allow: 'POST' });
    const type = String(req.headers['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
    if (type !== 'text/plain' && type !== 'application/json') {
      return sendErrorBeforeBody(req, res, 415, { error: 'Send a beacon as text/plain or application/json (what navigator.sendBeacon sends for a string).' });
    }
    const address = clientAddressOf(req, services.config.SHOWREEL_TRUSTED_PROXIES);
    if (!limiter.allow(address)) {
      return sendErrorBeforeBody(req, res, 429, { error: 'Too many beacons from your address; try again in a minute.' }, { 'Retry-After': String(limiter.retryAfter()) });
    }
    const body = await readJsonBody(req, MAX_BEACON_BYTES);
    const parsed = beaconSchema.safeParse(body);
    if (!parsed.success) throw new ValidationError(describeIssues(parsed.error.issues));
    const userAgent = req.headers['user-agent'];
    // Not counted, and not told apart from a counted beacon by anything but the status.
    if (isBot(userAgent) || optedOut(req.headers)) return noContent(res);
    const beacon = parsed.data;
    const receivedAt = new Date();
    buffer.add({
      receivedAt,
      demoId: beacon.demo.toLowerCase(),
      viewId: beacon.view,
      kind: beacon.event,
      value: beacon.value ?? 0,
      // The title a player sends is not kept: anyone can send one, and the owner reads the demo's own chapters.
      label: null,
      viewerHash: await hasher.hash(beacon.demo.toLowerCase(), address ?? 'unknown', receivedAt),
      host: hostOf(beacon.host),
      surface: beacon.surface ?? 'embed',
    });
    res.writeHead(202, { 'Cache-Control': 'no-store' });
    res.end();
  }

  return {
    buffer,
    async handle(req, res) {
      try {
        await handle(req, res);
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.status >= 500) {
          // Ours, not the player's: logged, and the beacon is let go.
          requestInfo(req).logger.error({ err: error }, 'beacon not recorded');
          if (!res.headersSent) noContent(res);
          return;
        }
        if (res.headersSent) return void res.destroy();
        if (req.complete) sendJson(res, mapped.status, mapped.body, mapped.headers);
        else sendErrorBeforeBody(req, res, mapped.status, mapped.body, mapped.headers);
      }
    },
    close: () => buffer.close(),
  };
}
