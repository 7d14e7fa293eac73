import type { IncomingMessage, ServerResponse } from 'node:http';
import { demoUrls } from '../../demos/index.js';
import { openRuntimeEmbed, type RuntimeQuery } from '../../embeds/index.js';
import { assertPublicUrl } from '../../platform/network/ssrf-guard.js';
import { hitRateLimits } from '../../platform/rate-limit.js';
import { requestInfo, type Services } from '../context.js';
import { toErrorResponse } from '../errors.js';
import { demoState } from '../pages/demo-view.js';
import { playerContentSecurityPolicy, renderPlayerPage } from '../pages/player-page.js';
import { sendJson } from '../respond.js';
import { prefersHtml, sendEmbedNotice } from './embed-notice.js';
import { versionedAssetPath } from './static-assets.js';

const QUERY_NAMES = ['project_id', 'expires', 'signature', 'payload'] as const;

/**
 * GET /api/v1/embed/runtime (spec Embeds): a signed iframe URL built by a trusted server. HTML for what a visitor
 * should see — 200 the player (or a recoverable error when the generation failed), 202 a loading state that
 * follows progress — and for 400/401/404/429 `{error}` JSON, or, to a browser (`Accept: text/html`), the same
 * status as a small HTML notice: a tampered or expired URL sits in an iframe on a customer's page, where raw JSON
 * looks broken (issue 35).
 */
export async function handleEmbedRuntime(services: Services, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { requestId, logger } = requestInfo(req);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendJson(res, 405, { error: `Use GET on /api/v1/embed/runtime, not ${req.method}.` }, { Allow: 'GET, HEAD' });
  }
  try {
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    const query: RuntimeQuery = {};
    for (const name of QUERY_NAMES) {
      const value = params.get(name);
      if (value !== null) query[name] = value;
    }
    const embed = await openRuntimeEmbed(
      { sql: services.sql, secrets: services.secrets },
      query,
      async (request) => {
        // Runtime embeds carry no key: the project and its owner share the limit that keys have.
        const limits = [
          { bucket: `project:${request.projectId}:embed runtime`, limit: services.config.SHOWREEL_RATE_LIMIT_PER_KEY },
          { bucket: `user:${request.userId}:embed runtime`, limit: services.config.SHOWREEL_RATE_LIMIT_PER_USER },
        ];
        await hitRateLimits(services.sql, limits, 'embed runtime');
        if (request.pageUrl !== null) {
          await assertPublicUrl(request.pageUrl, { allowPrivate: services.config.SHOWREEL_ALLOW_PRIVATE_URLS, allowUnresolved: true, log: services.logger });
        }
      },
      (ownerId) => ({ actor: ownerId, requestId, correlationId: requestId, causationId: null }),
    );
    const publicUrl = services.config.PUBLIC_URL;
    const { demo } = embed;
    const urls = demoUrls(publicUrl, demo.id, demo.format);
    const body = renderPlayerPage(demo, urls, embed.props, {
      scriptUrl: `${publicUrl}${versionedAssetPath('player.js')}`,
      statusUrl: `${publicUrl}/embed/${demo.id}/status`,
      wsUrl: `${publicUrl.replace(/^http/, 'ws')}/embed/${demo.id}/ws`,
      retryable: embed.regenerable,
    });
    const status = demoState(demo) === 'recording' ? 202 : 200;
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      // Signed URLs expire and demos change state: never serve a stored copy.
      'Cache-Control': 'no-store',
      'Content-Security-Policy': playerContentSecurityPolicy(publicUrl),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (error) {
    const mapped = toErrorResponse(error);
    if (mapped.fault) logger.error({ err: error }, 'embed runtime failed');
    if (prefersHtml(req)) return sendEmbedNotice(req, res, mapped.status, mapped.body.error, mapped.headers);
    sendJson(res, mapped.status, mapped.body, { ...mapped.headers, Vary: 'Accept' });
  }
}
