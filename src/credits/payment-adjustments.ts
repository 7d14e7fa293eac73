import type { Tx } from '../platform/database.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { newId } from '../platform/ids.js';
import { append, loadAccount, transactionIn } from './commands.js';
import type { CreditCommand } from './decide.js';
import { packOf } from './packs.js';
import { type CreditPaymentRecord, findPaymentByIntent, paidPaymentOf } from './queries.js';
import type { CreditTransaction } from './representation.js';

/** Refunds and disputes of the payments that added credits (issue 58): the ledger's side. */
export interface PaymentAdjustment {
  /** The provider's payment (Stripe: the PaymentIntent) the refund or dispute names. */
  paymentIntentId: string;
  /** Keys the cause (its provider event, `stripe:evt_…`): each is applied once. */
  reference: string;
  cause: 'refund' | 'dispute' | 'dispute_closed';
  /** The money refunded of the payment so far (cumulative, in cents), when this cause reports it. */
  refundedCents?: number;
  /** The money an open or lost dispute of the payment stands for (0 once closed for the payment), when reported. */
  disputedCents?: number;
  providerReason?: string | null;
}

export type PaymentAdjustmentResult =
  | { found: false }
  | { found: true; userId: string; transaction: CreditTransaction | null; balance: number };

/**
 * A refund or a dispute of a payment that added credits (issue 58), or a dispute closed: takes the payment's credits
 * back, in whole credits proportional to the money (nearest, a half taken), or gives back what a dispute took. The
 * balance may go below zero. `found: false` when no credited payment has that PaymentIntent (a payment of something
 * else on the same provider account, or one credited before its PaymentIntent was kept).
 */
export async function adjustPaymentCredits(tx: Tx, input: PaymentAdjustment, metadata: EventMetadata): Promise<PaymentAdjustmentResult> {
  const known = await findPaymentByIntent(tx, input.paymentIntentId);
  if (!known) return { found: false };
  const [account, [payment]] = await Promise.all([
    loadAccount(tx, known.user_id),
    tx<CreditPaymentRecord[]>`select * from credit_payments where user_id = ${known.user_id} and payment_reference = ${known.payment_reference}`,
  ]);
  if (!payment) return { found: false };
  const state = { ...account.state, payments: new Map([[payment.payment_reference, paidPaymentOf(payment)]]) };
  // The payment was credited only at its pack's price (see the webhook), so cents convert at that price.
  const pack = packOf(payment.pack_id);
  const inCredits = (cents: number) => (cents / pack.priceCents) * payment.credits;
  const command: CreditCommand = {
    type: 'AdjustPaymentCredits',
    userId: known.user_id,
    transactionId: newId(),
    paymentReference: payment.payment_reference,
    reference: input.reference,
    cause: input.cause,
    ...(input.refundedCents === undefined ? {} : { refundedCredits: inCredits(input.refundedCents) }),
    ...(input.disputedCents === undefined ? {} : { disputedCredits: inCredits(input.disputedCents) }),
    providerReason: input.providerReason ?? null,
  };
  const { state: after, events } = await append(tx, { ...account, state }, command, metadata);
  const transaction = transactionIn(events, 'CreditsTakenBack') ?? transactionIn(events, 'CreditsGivenBack');
  return { found: true, userId: known.user_id, transaction, balance: after.balance };
}
