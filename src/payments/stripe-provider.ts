import type Stripe from 'stripe';
import type { ChargeRequest, CheckoutRequest, PaymentProvider, PaymentResult } from '../credits/index.js';
import type { Pack } from '../credits/packs.js';
import { inTransaction } from '../platform/command.js';
import type { Sql } from '../platform/database.js';
import { AppError, ConflictError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { findUserById } from '../users/index.js';
import { linkCustomer } from './commands.js';
import { CURRENCY, metadataOf } from './metadata.js';
import { findCustomerId } from './queries.js';
import { createTopoffFlights, type TopoffFlights, UNREACHABLE } from './topoff-flights.js';

/** A Stripe call that failed for a reason of Stripe's or the network's, not the buyer's: 503, try again. */
export class PaymentServiceUnavailableError extends AppError {
  constructor() {
    super(503, 'The payment service could not be reached; nothing was charged. Try again in a minute.', { 'Retry-After': '60' });
  }
}

const NO_SAVED_CARD = 'Auto top-off charges the card saved with your first purchase: buy a pack once, then turn it on.';

/**
 * Payments through Stripe (SHOWREEL_PAYMENTS=stripe):
 * - purchase: a Checkout Session for the pack, on the user's Stripe customer, saving the card for later
 *   (`setup_future_usage: off_session`). The buyer pays on Stripe's page; `checkout.session.completed` adds the pack.
 * - auto top-off: a PaymentIntent on the saved card, confirmed off-session, made in the background, one per account
 *   turn (topoff-flights.ts): the charge that asks is answered at once, `pending`; `payment_intent.succeeded` adds
 *   the pack, `payment_intent.payment_failed` turns auto top-off off.
 * Credits are added only by the verified webhook (stripe-webhook.ts), never by what a call here returns.
 */
export function createStripeProvider(deps: { stripe: Stripe; sql: Sql; logger: Logger; publicUrl: () => string; flights?: TopoffFlights }): PaymentProvider {
  const { stripe, sql, logger } = deps;
  const flights = deps.flights ?? createTopoffFlights();
  const payOffSession = (customer: string, userId: string, pack: Pack, idempotencyKey: string) =>
    payOffSessionWith(stripe, logger, customer, userId, pack, idempotencyKey);

  async function customerFor(userId: string): Promise<string> {
    const known = await findCustomerId(sql, userId, 'stripe');
    if (known) return known;
    const user = await findUserById(sql, userId);
    const customer = await stripe.customers.create(
      { ...(user ? { email: user.email } : {}), metadata: { showreel_user_id: userId } },
      // Two first purchases at once make one customer.
      { idempotencyKey: `showreel-customer:${userId}` },
    );
    return inTransaction(sql, (tx) => linkCustomer(tx, { userId, provider: 'stripe', customerId: customer.id }, { actor: `user:${userId}` }));
  }

  return {
    name: 'stripe',

    async checkout({ userId, pack, idempotencyKey }: CheckoutRequest) {
      try {
        const customer = await customerFor(userId);
        const metadata = metadataOf(userId, pack.id, 'purchase');
        const base = deps.publicUrl();
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            customer,
            client_reference_id: userId,
            line_items: [{ quantity: 1, price_data: { currency: CURRENCY, unit_amount: pack.priceCents, product_data: { name: productName(pack) } } }],
            metadata,
            // The card is kept for auto top-off; the PaymentIntent carries the same metadata for the record.
            payment_intent_data: { setup_future_usage: 'off_session', metadata },
            success_url: `${base}/app/credits?checkout=paid`,
            cancel_url: `${base}/app/credits?checkout=cancelled`,
          },
          { idempotencyKey },
        );
        if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL.`);
        return { checkoutUrl: session.url, checkoutId: session.id };
      } catch (error) {
        throw unavailable(error, logger, 'checkout');
      }
    },

    async charge({ userId, pack, idempotencyKey }: ChargeRequest): Promise<PaymentResult> {
      const customer = await findCustomerId(sql, userId, 'stripe');
      if (!customer) return { outcome: 'declined', reason: 'no card is saved yet' };
      // Answered at once: the charge that asks holds the account's lock, and no request waits on Stripe (issue 58).
      return flights.ask(idempotencyKey, () => payOffSession(customer, userId, pack, idempotencyKey));
    },

    async autoTopoffRefusal(userId: string) {
      return (await findCustomerId(sql, userId, 'stripe')) ? null : new ConflictError(NO_SAVED_CARD);
    },
  };
}

/**
 * Each auto top-off call to Stripe is bounded and not retried by the SDK: nobody waits on it, and the next charge that
 * finds the balance low asks again (with the same idempotency key, so one payment) once the failure is forgotten.
 */
const TOPOFF_CALL = { timeout: 10_000, maxNetworkRetries: 0 } as const;

/** The off-session PaymentIntent on the saved card: `pending` once Stripe has it, the webhook adds the credits. */
async function payOffSessionWith(stripe: Stripe, logger: Logger, customer: string, userId: string, pack: Pack, idempotencyKey: string): Promise<PaymentResult> {
  try {
    const methods = await stripe.customers.listPaymentMethods(customer, { type: 'card', limit: 1 }, TOPOFF_CALL);
    const card = methods.data[0];
    if (!card) return { outcome: 'declined', reason: 'no card is saved yet' };
    const intent = await stripe.paymentIntents.create(
      {
        amount: pack.priceCents,
        currency: CURRENCY,
        customer,
        payment_method: card.id,
        off_session: true,
        confirm: true,
        description: `Showreel auto top-off: ${productName(pack)}`,
        metadata: metadataOf(userId, pack.id, 'auto_topoff'),
      },
      { idempotencyKey, ...TOPOFF_CALL },
    );
    if (intent.status === 'succeeded' || intent.status === 'processing') return { outcome: 'pending', reference: intent.id };
    return { outcome: 'declined', reason: `the payment needs the cardholder (${intent.status})` };
  } catch (error) {
    // A declined card (or one that needs its holder: authentication_required) is the buyer's; Stripe reports it
    // with payment_intent.payment_failed too, which turns auto top-off off.
    if (isStripeError(error) && error.type === 'StripeCardError') return { outcome: 'declined', reason: error.message };
    logger.warn({ err: describeStripeError(error) }, 'stripe: auto top-off payment could not be made');
    return UNREACHABLE;
  }
}

const productName = (pack: Pack) => `${pack.credits} Showreel credits (${pack.label} pack)`;

interface StripeErrorLike {
  type: string;
  message: string;
  code?: string;
  statusCode?: number;
}

function isStripeError(error: unknown): error is StripeErrorLike {
  const type = error instanceof Error ? (error as unknown as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.startsWith('Stripe');
}

/** What is logged of a Stripe failure: its type, code, status and message. Never the request (or its key). */
function describeStripeError(error: unknown) {
  if (isStripeError(error)) return { type: error.type, code: error.code, statusCode: error.statusCode, message: error.message };
  return { message: error instanceof Error ? error.message : String(error) };
}

function unavailable(error: unknown, logger: Logger, what: string): Error {
  if (error instanceof AppError) return error;
  logger.error({ err: describeStripeError(error) }, `stripe: ${what} failed`);
  return new PaymentServiceUnavailableError();
}
