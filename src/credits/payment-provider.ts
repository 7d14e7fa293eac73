import type { Pack } from './packs.js';

/**
 * How a pack gets paid for. The ledger calls `charge` inside the database transaction that records the credits,
 * so the provider must answer synchronously and must be idempotent on `idempotencyKey`: if that transaction is
 * retried or rolled back, the same key may be charged again and must not take the money twice.
 *
 * The default, `grantAtOnceProvider`, takes no money: a self-hosted install grants the pack at once.
 *
 * A Stripe adapter comes later and will not fit this synchronous shape for purchases: `POST /credits/purchase`
 * would create a Checkout Session and answer with its URL, and the `checkout.session.completed` webhook would then
 * record the purchase (its session id as `paymentReference`, so a repeated webhook is a no-op). Auto top-off can
 * stay synchronous with an off-session PaymentIntent on the saved card, keyed by `idempotencyKey`.
 */
export interface PaymentProvider {
  readonly name: string;
  charge(request: { userId: string; pack: Pack; idempotencyKey: string }): Promise<PaymentResult>;
}

/** `reference` is the provider's id for the payment (a receipt), stored with the transaction. */
export type PaymentResult = { ok: true; reference: string } | { ok: false; reason: string };

export const grantAtOnceProvider: PaymentProvider = {
  name: 'grant-at-once',
  async charge({ idempotencyKey }) {
    return { ok: true, reference: `grant:${idempotencyKey}` };
  },
};

let current: PaymentProvider = grantAtOnceProvider;

/** The provider the ledger uses unless a command is handed one. Set once at boot (or by a test). */
export function setPaymentProvider(provider: PaymentProvider): void {
  current = provider;
}

export function paymentProvider(): PaymentProvider {
  return current;
}
