import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from './context.js';
import { sendError } from './respond.js';
import { API_PREFIX } from './rest-handler.js';
import { handleStripeWebhookRequest, STRIPE_WEBHOOK_PATH } from './payments/stripe-webhook-route.js';
import { handleBackgroundUpload } from './uploads/background-upload.js';
import { handleLocalAssets } from './uploads/local-assets.js';
import { handleLocalUpload } from './uploads/local-upload.js';

/**
 * API endpoints served outside tRPC because their bodies are binary (or, for Stripe's webhook, signed as raw bytes). Returns false for every other path.
 * (Each is also described in the OpenAPI document: see openapi-extra-paths.ts.)
 */
export async function handleRawApi(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (path === STRIPE_WEBHOOK_PATH) return await handleStripeWebhookRequest(services, req, res), true;
  if (path === `${API_PREFIX}/backgrounds/upload`) {
    if (req.method !== 'POST') return methodNotAllowed(res, path), true;
    await handleBackgroundUpload(services, req, res);
    return true;
  }
  if (!path.startsWith(`${API_PREFIX}/demos/`)) return false;
  const rest = path.slice(`${API_PREFIX}/demos/`.length);
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (rest === 'local-upload') {
    if (req.method !== 'POST') return methodNotAllowed(res, path), true;
    await handleLocalUpload(services, req, res, url);
    return true;
  }
  const assets = /^([^/]+)\/local-assets$/.exec(rest);
  if (assets) {
    if (req.method !== 'POST') return methodNotAllowed(res, path), true;
    await handleLocalAssets(services, req, res, decodeURIComponent(assets[1]!), url);
    return true;
  }
  return false;
}

function methodNotAllowed(res: ServerResponse, path: string): void {
  sendError(res, 405, `Use POST on ${path}.`, { Allow: 'POST' });
}
