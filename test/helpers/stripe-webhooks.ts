import Stripe from 'stripe';
import type { ApiResponse, TestApp, TestUser } from './app.js';

export const STRIPE_SECRET_KEY = 'sk_test_standin0000000000000000';
export const STRIPE_WEBHOOK_SECRET = 'whsec_standin000000000000000000';
export const STRIPE_WEBHOOK = '/api/v1/payments/stripe/webhook';

/**
 * Stripe's side of the webhook, for tests: events shaped as Stripe sends them, delivered with real signatures made
 * by the SDK's own test header helper and the endpoint's secret.
 */
export function stripeWebhooks(app: TestApp) {
  const signer = new Stripe(STRIPE_SECRET_KEY);
  let counter = 0;
  const event = (type: string, object: Record<string, unknown>, id = `evt_test_${Date.now()}_${++counter}`) =>
    JSON.stringify({ id, object: 'event', type, api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
  /** Delivers `payload` signed as Stripe signs it now, or with the `signature` given (a forged or stale one). */
  const deliver = (payload: string, signature = signer.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET })): Promise<ApiResponse> =>
    app.api(STRIPE_WEBHOOK, { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
  return {
    signer,
    event,
    deliver,
    /** A Checkout Session paid for `packId` at `amount` cents, with its PaymentIntent. */
    paidSession: (user: TestUser, packId: string, amount: number, id: string, paymentIntent: string | null, customer: string | null = null) => ({
      id,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      amount_total: amount,
      currency: 'usd',
      customer,
      payment_intent: paymentIntent,
      metadata: { showreel_user_id: user.userId, showreel_pack_id: packId, showreel_kind: 'purchase' },
    }),
    /** The Charge of a PaymentIntent, `refunded` cents of its `amount` refunded so far. */
    refundedCharge: (paymentIntent: string, amount: number, refunded: number, reason: string | null = 'requested_by_customer') => ({
      id: `ch_for_${paymentIntent}`,
      object: 'charge',
      amount,
      amount_refunded: refunded,
      refunded: refunded === amount,
      currency: 'usd',
      payment_intent: paymentIntent,
      refunds: { object: 'list', data: [{ id: `re_${++counter}`, object: 'refund', amount: refunded, reason }] },
    }),
    dispute: (paymentIntent: string, amount: number, status: string, reason = 'fraudulent') => ({
      id: `dp_for_${paymentIntent}`,
      object: 'dispute',
      amount,
      charge: `ch_for_${paymentIntent}`,
      payment_intent: paymentIntent,
      currency: 'usd',
      status,
      reason,
    }),
  };
}
