import { z } from 'zod';
import { packIds } from './packs.js';

/**
 * Terminology
 * - account: the credits of one user, the stream `credits-<userId>`.
 * - transaction: one change of the balance. Every event but AutoTopoffConfigured and AutoTopoffPaymentFailed is exactly one transaction and
 *   carries its id, its signed `amount` and the `balanceAfter` it leaves, so the log alone proves the balance.
 * - reference: the caller's idempotency key for a charge (`demo:<id>:v<n>`, a job key). A reference is charged at
 *   most once and refunded at most once.
 *
 * - payment: what a purchase or an auto top-off was paid with (`paymentReference`, the provider's id). A refund or a
 *   dispute of it takes its credits back (CreditsTakenBack), a dispute won gives them back (CreditsGivenBack).
 *
 * Sign convention: `amount` is signed. Charges (type `deduct`) and credits taken back (type `refund`, issue 58) are
 * negative or zero, everything else positive, so for every transaction `balanceAfter = previous balanceAfter +
 * amount`, and the balance is the sum of the amounts. Only taking credits back may leave the balance below zero; a
 * charge never does.
 */
export const transactionTypes = ['purchase', 'auto_topoff', 'deduct', 'refund', 'bonus'] as const;
export type TransactionType = (typeof transactionTypes)[number];

const transaction = {
  userId: z.string(),
  transactionId: z.string(),
  amount: z.number().int(),
  // Below zero only after credits were taken back (issue 58); events from before were all at zero or above.
  balanceAfter: z.number().int(),
  description: z.string().nullable(),
};
const payment = {
  packId: z.enum(packIds),
  priceCents: z.number().int().min(0),
  // What the payment provider calls the payment (a receipt, a Stripe payment intent id).
  paymentReference: z.string(),
  // The provider's payment behind it (Stripe: the PaymentIntent, also of a Checkout Session), by which a refund or a
  // dispute finds it (issue 58). Absent in events from before; an auto top-off's paymentReference is its PaymentIntent.
  paymentIntentId: z.string().min(1).optional(),
};
/** What a payment's refunds and dispute stand for, in credits, after the event (see credit_payments). */
const reversal = {
  paymentReference: z.string(),
  packId: z.enum(packIds),
  // The key of what caused it (the provider's event, `stripe:evt_…`): each cause is applied once.
  reference: z.string().min(1),
  cause: z.enum(['refund', 'dispute', 'dispute_closed']),
  refundedCredits: z.number().int().min(0),
  disputedCredits: z.number().int().min(0),
};

export const creditEventSchemas = {
  // Opens the account with the sign-up bonus as its first transaction (type `bonus`), even a bonus of 0.
  CreditAccountOpened: z.object({ ...transaction, amount: z.number().int().min(0) }),
  CreditsPurchased: z.object({ ...transaction, ...payment, amount: z.number().int().positive() }),
  CreditsAutoToppedOff: z.object({ ...transaction, ...payment, amount: z.number().int().positive() }),
  CreditsCharged: z.object({ ...transaction, amount: z.number().int().negative(), reference: z.string().min(1) }),
  CreditsRefunded: z.object({
    ...transaction,
    amount: z.number().int().positive(),
    reference: z.string().min(1),
    chargeTransactionId: z.string(),
  }),
  // A refund or a dispute of a payment took its credits back (type `refund`, amount ≤ 0: zero when an earlier refund
  // or dispute of the same payment had already taken them, and only the totals change).
  CreditsTakenBack: z.object({ ...transaction, ...reversal, amount: z.number().int().max(0) }),
  // A dispute closed in the seller's favour: the payment stands, and what the dispute took is given back (type
  // `purchase`: paid credits again).
  CreditsGivenBack: z.object({ ...transaction, ...reversal, amount: z.number().int().positive() }),
  // An administrator's grant (issue 34: `showreel admin grant-credits`), a `bonus` transaction whose description is
  // the reason given; grantedBy names who granted it (the event's metadata says through what).
  CreditsGranted: z.object({ ...transaction, amount: z.number().int().positive(), grantedBy: z.string().min(1) }),
  // An auto top-off payment the provider reported failed (issue 34). No credits were added (only a paid payment adds
  // them), so nothing is reversed; auto top-off is turned off, and `reason` is what the user is shown.
  AutoTopoffPaymentFailed: z.object({ userId: z.string(), paymentReference: z.string(), reason: z.string() }),
  // threshold (issue 13): a charge that finds the balance below it buys the pack first. Absent in events from before
  // it existed, which meant 1.
  AutoTopoffConfigured: z.object({ userId: z.string(), enabled: z.boolean(), packId: z.enum(packIds), threshold: z.number().int().min(1).optional() }),
};

type Data<K extends keyof typeof creditEventSchemas> = z.infer<(typeof creditEventSchemas)[K]>;
export type CreditEvent = { [K in keyof typeof creditEventSchemas]: { type: K; data: Data<K> } }[keyof typeof creditEventSchemas];
export type TransactionEvent = Exclude<CreditEvent, { type: 'AutoTopoffConfigured' | 'AutoTopoffPaymentFailed' }>;

/** The transaction type each event records; AutoTopoffConfigured and AutoTopoffPaymentFailed record none. */
export const transactionTypeOf: Record<TransactionEvent['type'], TransactionType> = {
  CreditAccountOpened: 'bonus',
  CreditsPurchased: 'purchase',
  CreditsAutoToppedOff: 'auto_topoff',
  CreditsCharged: 'deduct',
  CreditsRefunded: 'refund',
  CreditsGranted: 'bonus',
  CreditsTakenBack: 'refund',
  CreditsGivenBack: 'purchase',
};

export function isTransactionEvent(event: { type: string }): event is TransactionEvent {
  return Object.hasOwn(transactionTypeOf, event.type);
}

export const creditStream = (userId: string) => `credits-${userId}`;
export const CREDIT_STREAM_PREFIX = 'credits-';
