import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolvePrincipal } from '../../auth/index.js';
import { demoUrls } from '../../demos/index.js';
import {
  assertPublishableMayGenerate,
  countDailyGeneration,
  embedKey,
  findProjectAndReusableDemo,
  generateEmbed,
  generateEmbedInput,
  toEmbedRequest,
} from '../../embeds/index.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import { assertPublicUrl } from '../../platform/network/ssrf-guard.js';
import { hitRateLimits } from '../../platform/rate-limit.js';
import { rateLimitsFor } from '../../platform/trpc.js';
import { describeIssues } from '../../platform/validation.js';
import { readJsonBody } from '../body.js';
import { requestInfo, type Services } from '../context.js';
import { toErrorResponse } from '../errors.js';
import { sendJson } from '../respond.js';
import { answerPreflight, assertPageAllowed, corsHeaders } from './cors.js';

/** The largest valid body is a few KB (Limits: 500-character prompt and description, 200-character headings). */
export const EMBED_BODY_LIMIT_BYTES = 64 * 1024;
const METHODS = 'POST, OPTIONS';

/**
 * POST /api/v1/embed/generate (spec Embeds). Served outside tRPC because its success status depends on the outcome
 * (200 reuse, 202 generation) and its CORS answer on the calling page and the key. Checks run cheapest first:
 * key (401), page host against the key's allowlist (403), body (400), project (404); then a reuse is a read, and
 * only a new generation pays for the rate limit (429), the SSRF guard (400) and the charge (429 without credits).
 *
 * A publishable key's new generations (issue 34, src/embeds/spend-controls.ts) are held to the page that will be
 * recorded, not to the Origin header a script can forge: on the project's own site and the key's allowed domains when
 * it has some (403), and to daily caps per key and per project (429), counted in the generation's own transaction.
 */
export async function handleEmbedGenerate(services: Services, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const cors = corsHeaders(req);
  if (req.method === 'OPTIONS') return answerPreflight(req, res, METHODS);
  const { requestId, logger } = requestInfo(req);
  try {
    if (req.method !== 'POST') {
      return sendJson(res, 405, { error: `Use POST on /api/v1/embed/generate, not ${req.method}.` }, { ...cors, Allow: METHODS });
    }
    const principal = await resolvePrincipal(services.sql, req.headers, logger);
    if (!principal || principal.via === 'session') {
      throw new UnauthorizedError('API key required: send a publishable or live key in X-API-Key (or a live key as a bearer token).');
    }
    if (principal.via === 'publishable' && principal.allowedDomains !== null && principal.allowedDomains.length > 0) {
      assertPageAllowed(req, principal.allowedDomains);
    }

    const body = await readJsonBody(req, EMBED_BODY_LIMIT_BYTES);
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new ValidationError('The request body must be a JSON object.');
    }
    const parsed = generateEmbedInput.safeParse(body ?? {});
    if (!parsed.success) throw new ValidationError(describeIssues(parsed.error.issues));
    const input = parsed.data;

    // The hot path (every page view of a customer's site): the project and the reusable demo in one read; a reuse
    // then answers without a transaction or a lock.
    const found = await findProjectAndReusableDemo(services.sql, principal, input.project_id, embedKey(input).contextHash);
    if (!found) throw new NotFoundError('Project');
    const { project } = found;
    const request = toEmbedRequest(project, input);
    const answer = await generateEmbed(
      services.sql,
      request,
      async () => {
        if (principal.via === 'publishable') assertPublishableMayGenerate(principal.allowedDomains, request.pageUrl ?? project.url, project.url);
        await hitRateLimits(services.sql, rateLimitsFor(services.config, principal, 'embed generate'), 'embed generate');
        if (request.pageUrl !== null) {
          // Spec Embeds: the page is recorded only through the SSRF guard (the worker checks again before loading it).
          await assertPublicUrl(request.pageUrl, { allowPrivate: services.config.SHOWREEL_ALLOW_PRIVATE_URLS, allowUnresolved: true, log: services.logger });
        }
      },
      { actor: principal.userId, requestId, correlationId: requestId, causationId: null },
      found.demo,
      principal.via === 'publishable' && principal.keyId !== null
        ? (tx) =>
            countDailyGeneration(tx, { userId: principal.userId, keyId: principal.keyId!, projectId: project.id }, {
              perKey: services.config.SHOWREEL_EMBED_DAILY_GENERATIONS_PER_KEY,
              perProject: services.config.SHOWREEL_EMBED_DAILY_GENERATIONS_PER_PROJECT,
            })
        : undefined,
    );
    const embedUrl = demoUrls(services.config.PUBLIC_URL, answer.demoId, 'mp4').embedUrl;
    sendJson(res, answer.cached ? 200 : 202, { demoId: answer.demoId, status: answer.status, embedUrl, cached: answer.cached }, cors);
  } catch (error) {
    const mapped = toErrorResponse(error);
    if (mapped.fault) logger.error({ err: error }, 'embed generate failed');
    const close: Record<string, string> = req.complete ? {} : { Connection: 'close' };
    sendJson(res, mapped.status, mapped.body, { ...mapped.headers, ...cors, ...close });
  }
}
