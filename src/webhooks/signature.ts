import { createHmac } from 'node:crypto';
import { randomToken } from '../platform/secrets.js';

/**
 * Stripe's signing scheme, so receivers can reuse what they know: HMAC-SHA256 with the endpoint's secret over
 * `<unix seconds>.<raw body>`, sent as `Showreel-Signature: t=<unix seconds>,v1=<hex>`. The timestamp is signed too,
 * so a captured delivery cannot be replayed later than the receiver's tolerance (5 minutes in our snippet).
 */
export const SIGNATURE_HEADER = 'Showreel-Signature';
export const EVENT_ID_HEADER = 'Showreel-Event-Id';
export const EVENT_TYPE_HEADER = 'Showreel-Event-Type';

/** 32 random bytes. `whsig_`, not `whsec_`: that prefix is the inbound deploy webhook's secret, another thing. */
export const newWebhookSigningSecret = () => `whsig_${randomToken(32)}`;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}
