import type { IncomingMessage, ServerResponse } from 'node:http';
import { readText } from '../body.js';
import type { Services } from '../context.js';
import { sendError, sendJson } from '../respond.js';

/** Stripe's events are a few kilobytes; a megabyte is plenty and bounds what an unsigned caller can make us read. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

export const STRIPE_WEBHOOK_PATH = '/api/v1/payments/stripe/webhook';

/**
 * Stripe's webhook: no API credential (Stripe has none of ours), the body's signature instead. Read raw, since the
 * signature is over the exact bytes Stripe sent; see src/payments/stripe-webhook.ts for what is done with it.
 */
export async function handleStripeWebhookRequest(services: Services, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return sendError(res, 405, `Use POST on ${STRIPE_WEBHOOK_PATH}.`, { Allow: 'POST' });
  const webhook = services.payments?.stripeWebhook;
  if (!webhook) return sendError(res, 404, 'This service takes no Stripe payments (SHOWREEL_PAYMENTS is not stripe).');
  const body = await readText(req, MAX_WEBHOOK_BYTES);
  const signature = req.headers['stripe-signature'];
  const answer = await webhook(body, typeof signature === 'string' ? signature : undefined);
  sendJson(res, answer.status, answer.body);
}
