import { AppError, ForbiddenError } from '../platform/errors.js';
import type { Pack } from './packs.js';

/**
 * How packs get paid for (issue 34). Chosen at boot by SHOWREEL_PAYMENTS (see src/payments/create-provider.ts):
 * `none`, the default of a self-hosted service, sells nothing (an administrator grants credits with
 * `showreel admin grant-credits`); `stripe` sells through Stripe Checkout and charges the saved card for auto
 * top-off, and Stripe's signed webhook is what adds the credits.
 *
 * The ledger calls `charge` (auto top-off) inside the database transaction of the charge it tops off, so it must be
 * idempotent on `idempotencyKey`: when that transaction is retried or rolled back, the same key comes again and
 * must not take the money twice.
 */
export interface PaymentProvider {
  readonly name: string;
  /** Charges the pack without the buyer present (auto top-off). */
  charge(request: ChargeRequest): Promise<PaymentResult>;
  /** Starts a buyer's purchase of a pack: the page where they pay. Throws when this service sells nothing. */
  checkout(request: CheckoutRequest): Promise<CheckoutStart>;
  /** Why auto top-off cannot be turned on for this user (an error to answer with), or null when it can. */
  autoTopoffRefusal(userId: string): Promise<AppError | null>;
}

export interface ChargeRequest {
  userId: string;
  pack: Pack;
  idempotencyKey: string;
}

export interface CheckoutRequest {
  userId: string;
  pack: Pack;
  idempotencyKey: string;
}

/** Where to send the buyer; the credits come later, from the provider's webhook. */
export interface CheckoutStart {
  checkoutUrl: string;
  checkoutId: string;
}

/**
 * `reference` is the provider's id for the payment (a receipt), stored with the transaction.
 * - `settled`: paid now, the ledger records the credits in this transaction (providers without webhooks, tests).
 * - `pending`: the payment is under way and its webhook will add the credits (Stripe: only the verified webhook
 *   adds credits, so nothing is recorded now).
 * - `declined`: no money taken.
 */
export type PaymentResult =
  | { outcome: 'settled'; reference: string }
  | { outcome: 'pending'; reference: string }
  | { outcome: 'declined'; reason: string; /** when asking again may help (the provider was unreachable) */ retryAfterSeconds?: number };

export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this service; an administrator grants credits.';

/**
 * 403: the request is understood and the caller may not fix it by retrying or by changing it; no 5xx, since nothing
 * failed. Answered by purchase, and by turning auto top-off on, under SHOWREEL_PAYMENTS=none.
 */
export class PaymentsNotConfiguredError extends ForbiddenError {
  constructor() {
    super(PAYMENTS_NOT_CONFIGURED);
  }
}

/** `none`: sells nothing. A charge that needs a top-off is refused as short (see chargeCredits). */
export const noPaymentsProvider: PaymentProvider = {
  name: 'none',
  async charge() {
    return { outcome: 'declined', reason: 'payments are not configured on this service' };
  },
  async checkout() {
    throw new PaymentsNotConfiguredError();
  },
  async autoTopoffRefusal() {
    return new PaymentsNotConfiguredError();
  },
};

/**
 * Takes no money and settles at once. Never chosen by configuration (that was issue 34's "credits are free"): for
 * tests and scripts that exercise the ledger's own rules (auto top-off, concurrency) without a payment service.
 */
export const grantAtOnceProvider: PaymentProvider = {
  name: 'grant-at-once',
  async charge({ idempotencyKey }) {
    return { outcome: 'settled', reference: `grant:${idempotencyKey}` };
  },
  async checkout() {
    throw new PaymentsNotConfiguredError();
  },
  async autoTopoffRefusal() {
    return null;
  },
};

let current: PaymentProvider = noPaymentsProvider;

/** The provider the ledger uses unless a command is handed one. Set once at boot (or by a test). */
export function setPaymentProvider(provider: PaymentProvider): void {
  current = provider;
}

export function paymentProvider(): PaymentProvider {
  return current;
}
