import type Stripe from 'stripe';
import { z } from 'zod';
import { adjustPaymentCredits, type PaymentAdjustment, recordAutoTopoffFailure, recordPayment } from '../credits/index.js';
import { packOf } from '../credits/packs.js';
import { inTransaction } from '../platform/command.js';
import type { Sql, Tx } from '../platform/database.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import type { Logger } from '../platform/logger.js';
import { findUserById } from '../users/index.js';
import { handleOnce, linkCustomer } from './commands.js';
import { CURRENCY, paymentMetadata, type PaymentMetadata } from './metadata.js';
import { findCustomerId } from './queries.js';

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * `POST /api/v1/payments/stripe/webhook`. The only way a Stripe payment becomes credits:
 * 1. The body is checked against its `Stripe-Signature` with the endpoint's secret (the SDK's constructEvent: HMAC
 *    over the raw bytes, constant-time, and a timestamp no older than 5 minutes), and the timestamp no more than 5
 *    minutes ahead; a signed event without an id, a type or a data.object is malformed. Anything else is a 400 and
 *    changes nothing.
 * 2. The event id is handled once (handleOnce, in the event store): a redelivery or a replay adds nothing.
 * 3. The payment must match its pack (amount and currency) and name an existing user; otherwise it is recorded as
 *    refused, logged, and adds nothing (a 200 all the same: Stripe delivering it again would change nothing).
 *
 * Events acted on: checkout.session.completed and checkout.session.async_payment_succeeded (a paid purchase),
 * payment_intent.succeeded (a paid auto top-off), payment_intent.payment_failed (auto top-off turned off),
 * charge.refunded and charge.dispute.created (the payment's credits taken back), charge.dispute.closed (given back
 * when the payment stands). Every other event is acknowledged and ignored.
 */
export function createStripeWebhook(deps: { stripe: Stripe; webhookSecret: string; sql: Sql; logger: Logger }) {
  const { stripe, webhookSecret, sql, logger } = deps;

  return async function handleStripeWebhook(rawBody: string, signature: string | undefined): Promise<WebhookAnswer> {
    if (!signature) return { status: 400, body: { error: 'The Stripe-Signature header is missing: only Stripe may call this endpoint.' } };
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
    } catch {
      logger.warn('stripe webhook: a request with a bad signature was refused');
      return { status: 400, body: { error: 'The Stripe-Signature header does not match this body: the request was not sent by Stripe with this endpoint’s secret.' } };
    }
    // The SDK refuses a signature older than its tolerance, not one from the future; the docs promise both.
    const signedAt = signatureTimestamp(signature);
    if (signedAt !== null && signedAt > Date.now() / 1000 + TOLERANCE_S) {
      logger.warn({ signedAt }, 'stripe webhook: a request signed in the future was refused');
      return { status: 400, body: { error: 'The Stripe-Signature header is timestamped more than 5 minutes in the future: check the sending clock.' } };
    }
    // Signed is not well formed: an event with no id or no data.object would fail below and be retried forever.
    const shape = eventShape.safeParse(event);
    if (!shape.success) {
      const problem = shape.error.issues.map((issue) => `${issue.path.join('.') || 'the event'}: ${issue.message}`).join('; ');
      logger.warn({ problem }, 'stripe webhook: a signed but malformed event was refused');
      return { status: 400, body: { error: `The event is signed but malformed (${problem}); nothing was changed.` } };
    }
    const metadata: EventMetadata = { actor: 'stripe-webhook', causationId: event.id, correlationId: null, requestId: null };
    const result = await inTransaction(sql, (tx) =>
      handleOnce(tx, { provider: 'stripe', eventId: event.id, eventType: event.type }, metadata, () => act(tx, event, metadata)),
    );
    if (result.replayed) return { status: 200, body: { received: true, outcome: `already handled: ${result.earlier.outcome}` } };
    logger.info({ stripeEvent: event.id, type: event.type, outcome: result.outcome }, 'stripe webhook handled');
    return { status: 200, body: { received: true, outcome: result.outcome } };
  };

  async function act(tx: Tx, event: Stripe.Event, metadata: EventMetadata): Promise<{ userId: string | null; outcome: string }> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        const meta = paymentMetadata.safeParse(session.metadata ?? {});
        if (!meta.success || meta.data.showreel_kind !== 'purchase') return { userId: null, outcome: 'ignored: not a Showreel purchase' };
        const userId = meta.data.showreel_user_id;
        // A bank debit completes the session unpaid; its async_payment_succeeded event comes when the money does.
        if (session.payment_status !== 'paid') return { userId, outcome: `ignored: not paid yet (${session.payment_status})` };
        const refusal = await refuse(tx, meta.data, session.amount_total, session.currency);
        if (refusal) return { userId, outcome: refusal };
        if (typeof session.customer === 'string' && !(await findCustomerId(tx, userId, 'stripe'))) {
          await linkCustomer(tx, { userId, provider: 'stripe', customerId: session.customer }, metadata);
        }
        // Its PaymentIntent is what a refund or dispute of the payment will name.
        const paymentIntentId = idOf(session.payment_intent);
        const paid = await recordPayment(tx, { userId, packId: meta.data.showreel_pack_id, paymentReference: session.id, paymentIntentId, kind: 'purchase' }, metadata);
        return { userId, outcome: paid.alreadyRecorded ? 'already credited' : `credited ${paid.transaction.amount}` };
      }
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        const meta = paymentMetadata.safeParse(intent.metadata ?? {});
        // A checkout's own PaymentIntent (kind purchase) is credited by its session's event, not here.
        if (!meta.success || meta.data.showreel_kind !== 'auto_topoff') return { userId: null, outcome: 'ignored: not an auto top-off' };
        const userId = meta.data.showreel_user_id;
        const refusal = await refuse(tx, meta.data, intent.amount_received, intent.currency);
        if (refusal) return { userId, outcome: refusal };
        const paid = await recordPayment(tx, { userId, packId: meta.data.showreel_pack_id, paymentReference: intent.id, kind: 'auto_topoff' }, metadata);
        return { userId, outcome: paid.alreadyRecorded ? 'already credited' : `credited ${paid.transaction.amount}` };
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const meta = paymentMetadata.safeParse(intent.metadata ?? {});
        if (!meta.success || meta.data.showreel_kind !== 'auto_topoff') return { userId: null, outcome: 'ignored: not an auto top-off' };
        const userId = meta.data.showreel_user_id;
        if (!(await findUserById(tx, userId))) return { userId, outcome: 'refused: no such user' };
        const pack = packOf(meta.data.showreel_pack_id);
        const why = intent.last_payment_error?.message ?? 'the card was declined';
        const reason = `Auto top-off was turned off: the payment for the ${pack.credits}-credit pack failed (${why}). No credits were added and nothing was charged. Check your card, then turn auto top-off on again.`;
        const { turnedOff } = await recordAutoTopoffFailure(tx, { userId, paymentReference: intent.id, reason }, metadata);
        return { userId, outcome: turnedOff ? 'auto top-off turned off' : 'ignored: auto top-off already off' };
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const reason = charge.refunds?.data?.[0]?.reason ?? null;
        return takeBack(tx, event, charge.payment_intent, { cause: 'refund', refundedCents: charge.amount_refunded, providerReason: reason }, metadata);
      }
      case 'charge.dispute.created': {
        const dispute = event.data.object;
        return takeBack(tx, event, dispute.payment_intent, { cause: 'dispute', disputedCents: dispute.amount, providerReason: dispute.reason }, metadata);
      }
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        // won: the payment stands; warning_closed: an inquiry that never became a chargeback. lost: the money went
        // back to the cardholder, and so do the credits (already, unless the dispute's creation was never seen).
        const stands = dispute.status === 'won' || dispute.status === 'warning_closed';
        const change: Omit<PaymentAdjustment, 'paymentIntentId' | 'reference'> = stands
          ? { cause: 'dispute_closed', disputedCents: 0 }
          : { cause: 'dispute', disputedCents: dispute.amount, providerReason: dispute.reason };
        return takeBack(tx, event, dispute.payment_intent, change, metadata);
      }
      default:
        return { userId: null, outcome: `ignored: ${event.type} is not used` };
    }
  }

  /**
   * A refund or a dispute (or a dispute closed) of a payment: its credits go back, or come back, through the ledger
   * (issue 58). The payment is found by its PaymentIntent, whoever's it is.
   */
  async function takeBack(
    tx: Tx,
    event: Stripe.Event,
    paymentIntent: string | { id: string } | null | undefined,
    change: Omit<PaymentAdjustment, 'paymentIntentId' | 'reference'>,
    metadata: EventMetadata,
  ): Promise<{ userId: string | null; outcome: string }> {
    const paymentIntentId = idOf(paymentIntent);
    if (!paymentIntentId) return { userId: null, outcome: 'ignored: no payment intent' };
    const result = await adjustPaymentCredits(tx, { ...change, paymentIntentId, reference: `stripe:${event.id}` }, metadata);
    if (!result.found) return { userId: null, outcome: `ignored: no credited payment for ${paymentIntentId}` };
    // Nothing recorded: what this event says of the payment is what was known (a dispute reported again, an older
    // refund report arriving late).
    if (result.transaction === null) return { userId: result.userId, outcome: 'ignored: nothing changed' };
    const moved = result.transaction.amount;
    logger.warn({ userId: result.userId, paymentIntentId, credits: moved, balance: result.balance }, `stripe webhook: ${event.type}`);
    const outcome = moved < 0 ? `took back ${-moved}` : moved > 0 ? `gave back ${moved}` : change.cause === 'dispute_closed' ? 'nothing to give back' : 'nothing to take back';
    return { userId: result.userId, outcome };
  }

  /** Why a payment must not become credits, or null: an unknown user, or an amount that is not the pack's price. */
  async function refuse(tx: Tx, meta: PaymentMetadata, amount: number | null, currency: string | null): Promise<string | null> {
    const pack = packOf(meta.showreel_pack_id);
    let problem: string | null = null;
    if (amount !== pack.priceCents || currency !== CURRENCY) problem = `refused: ${amount ?? '?'} ${currency ?? '?'} is not the price of pack ${pack.id}`;
    else if (!(await findUserById(tx, meta.showreel_user_id))) problem = 'refused: no such user';
    if (problem) logger.warn({ userId: meta.showreel_user_id, packId: pack.id, problem }, 'stripe webhook: payment not credited');
    return problem;
  }
}

export type StripeWebhook = ReturnType<typeof createStripeWebhook>;

/** The id of a Stripe reference that may come expanded (an object) or not (its id). */
function idOf(reference: string | { id: string } | null | undefined): string | null {
  if (typeof reference === 'string') return reference || null;
  return reference && typeof reference.id === 'string' ? reference.id : null;
}

/** How far from now a signature's timestamp may be, either way (the SDK's default tolerance for the past). */
const TOLERANCE_S = 300;

/** What every event this endpoint reads has: an id, a type, and an object under data. */
const eventShape = z.object({
  id: z.string().min(1, 'must be a non-empty string'),
  type: z.string().min(1, 'must be a non-empty string'),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** The `t=` of a Stripe-Signature header (seconds since the epoch), or null when it has none. */
function signatureTimestamp(header: string): number | null {
  const match = /(?:^|,)\s*t=(\d{1,12})\s*(?:,|$)/.exec(header);
  return match ? Number(match[1]) : null;
}
