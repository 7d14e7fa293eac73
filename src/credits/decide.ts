import type { Decider } from '../platform/command.js';
import { ConflictError, QuotaError, ValidationError } from '../platform/errors.js';
import type { CreditEvent } from './events.js';
import { DEFAULT_AUTO_TOPOFF, type Pack, type PackId, packOf } from './packs.js';

export interface AutoTopoff {
  enabled: boolean;
  packId: PackId;
  /** A charge that finds the balance below this (or short of the charge) buys the pack first. At least 1. */
  threshold: number;
}

interface Charge {
  transactionId: string;
  /** What the charge took, as a positive number of credits. */
  cost: number;
  refunded: boolean;
}

/** A payment that added credits (a purchase or an auto top-off), and what its refunds and dispute stand for. */
export interface PaidPayment {
  packId: PackId;
  credits: number;
  /** The credits its refunds so far stand for (cumulative, never lowered). */
  refundedCredits: number;
  /** The credits an open or lost dispute stands for; 0 with none, or once a dispute is closed for the payment. */
  disputedCredits: number;
}

/** What of a payment's credits is taken back: a refund and a dispute of the same money count once. */
export const takenBackOf = (p: PaidPayment) => Math.min(p.credits, p.refundedCredits + p.disputedCredits);

/**
 * An account that was never opened (a user from before credits existed) behaves as an open account with nothing
 * in it: it can buy, be configured and be refused; only OpenAccount needs it unopened.
 */
export interface CreditState {
  opened: boolean;
  balance: number;
  autoTopoff: AutoTopoff;
  charges: ReadonlyMap<string, Charge>;
  /** Like charges, only the payment a command is about (see loadAccount), by its paymentReference. */
  payments: ReadonlyMap<string, PaidPayment>;
}

export type CreditCommand =
  | { type: 'OpenAccount'; userId: string; transactionId: string; startingCredits: number }
  | { type: 'PurchasePack'; userId: string; transactionId: string; packId: PackId; paymentReference: string; paymentIntentId?: string }
  | { type: 'ConfigureAutoTopoff'; userId: string; enabled: boolean; packId: PackId; threshold: number }
  | {
      type: 'ChargeCredits';
      userId: string;
      transactionId: string;
      amount: number;
      reference: string;
      description: string;
      /** The pack the handler already paid for because `topoffNeeded` said so; null when none was bought. */
      topoff: { transactionId: string; packId: PackId; paymentReference: string } | null;
    }
  | { type: 'RefundCredits'; userId: string; transactionId: string; reference: string; description: string | null }
  | { type: 'GrantCredits'; userId: string; transactionId: string; amount: number; description: string; grantedBy: string }
  /** A paid auto top-off, reported by the payment provider's webhook (not bought inside a charge). */
  | { type: 'SettleAutoTopoff'; userId: string; transactionId: string; packId: PackId; paymentReference: string }
  | { type: 'FailAutoTopoff'; userId: string; paymentReference: string; reason: string }
  /**
   * The provider reports a refund or a dispute of a payment, or a dispute closed (issue 58). `refundedCredits` and
   * `disputedCredits` are the new totals, left out when this cause does not change them; `reference` keys the cause
   * (its provider event) and `providerReason` is the provider's word for why (a dispute's `fraudulent`), if any.
   */
  | {
      type: 'AdjustPaymentCredits';
      userId: string;
      transactionId: string;
      paymentReference: string;
      reference: string;
      cause: 'refund' | 'dispute' | 'dispute_closed';
      refundedCredits?: number;
      disputedCredits?: number;
      providerReason?: string | null;
    };

export const SIGNUP_BONUS_DESCRIPTION = 'Sign-up bonus';

export const creditDecider: Decider<CreditState, CreditEvent, CreditCommand> = {
  initialState: () => ({ opened: false, balance: 0, autoTopoff: { ...DEFAULT_AUTO_TOPOFF }, charges: new Map(), payments: new Map() }),
  evolve(state, event) {
    switch (event.type) {
      case 'CreditAccountOpened':
        return { ...state, opened: true, balance: event.data.balanceAfter };
      case 'CreditsPurchased':
      case 'CreditsAutoToppedOff': {
        const payments = new Map(state.payments);
        payments.set(event.data.paymentReference, { packId: event.data.packId, credits: event.data.amount, refundedCredits: 0, disputedCredits: 0 });
        return { ...state, balance: event.data.balanceAfter, payments };
      }
      case 'CreditsTakenBack':
      case 'CreditsGivenBack': {
        const payments = new Map(state.payments);
        const payment = state.payments.get(event.data.paymentReference);
        if (payment) payments.set(event.data.paymentReference, { ...payment, refundedCredits: event.data.refundedCredits, disputedCredits: event.data.disputedCredits });
        return { ...state, balance: event.data.balanceAfter, payments };
      }
      case 'CreditsGranted':
        return { ...state, balance: event.data.balanceAfter };
      case 'AutoTopoffPaymentFailed':
        return { ...state, autoTopoff: { ...state.autoTopoff, enabled: false } };
      case 'CreditsCharged': {
        // Copying keeps evolve pure; it is O(charges) per charge, which matters only at tens of thousands of charges
        // on one account, and a snapshot of the state would be the cure then.
        const charges = new Map(state.charges);
        charges.set(event.data.reference, { transactionId: event.data.transactionId, cost: -event.data.amount, refunded: false });
        return { ...state, balance: event.data.balanceAfter, charges };
      }
      case 'CreditsRefunded': {
        const charge = state.charges.get(event.data.reference);
        const charges = new Map(state.charges);
        if (charge) charges.set(event.data.reference, { ...charge, refunded: true });
        return { ...state, balance: event.data.balanceAfter, charges };
      }
      case 'AutoTopoffConfigured':
        return {
          ...state,
          autoTopoff: { enabled: event.data.enabled, packId: event.data.packId, threshold: event.data.threshold ?? DEFAULT_AUTO_TOPOFF.threshold },
        };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'OpenAccount': {
        if (state.opened) throw new ConflictError('This credit account is already open.');
        assertCredits(command.startingCredits, 'startingCredits', 0);
        const { userId, transactionId, startingCredits } = command;
        return [
          {
            type: 'CreditAccountOpened',
            data: { userId, transactionId, amount: startingCredits, balanceAfter: state.balance + startingCredits, description: SIGNUP_BONUS_DESCRIPTION },
          },
        ];
      }
      case 'PurchasePack': {
        const pack = packOf(command.packId);
        return [
          {
            type: 'CreditsPurchased',
            data: {
              userId: command.userId,
              transactionId: command.transactionId,
              amount: pack.credits,
              balanceAfter: state.balance + pack.credits,
              description: `Bought the ${pack.label} pack: ${pack.credits} credits for ${dollars(pack.priceCents)}.`,
              packId: pack.id,
              priceCents: pack.priceCents,
              paymentReference: command.paymentReference,
              ...(command.paymentIntentId ? { paymentIntentId: command.paymentIntentId } : {}),
            },
          },
        ];
      }
      case 'ConfigureAutoTopoff': {
        const { enabled, packId, threshold } = command;
        assertCredits(threshold, 'threshold', 1);
        const pack = packOf(packId);
        if (threshold > pack.credits) {
          throw new ValidationError(
            `threshold must be at most ${pack.credits}, the credits of the ${pack.label} pack: one pack must lift a balance below the threshold back to it.`,
          );
        }
        const current = state.autoTopoff;
        if (current.enabled === enabled && current.packId === packId && current.threshold === threshold) return [];
        return [{ type: 'AutoTopoffConfigured', data: { userId: command.userId, enabled, packId, threshold } }];
      }
      case 'ChargeCredits':
        return decideCharge(command, state);
      case 'GrantCredits': {
        assertCredits(command.amount, 'credits', 1);
        const { userId, transactionId, amount, description, grantedBy } = command;
        return [{ type: 'CreditsGranted', data: { userId, transactionId, amount, balanceAfter: state.balance + amount, description, grantedBy } }];
      }
      case 'SettleAutoTopoff':
        return [autoToppedOff(command.userId, command.transactionId, packOf(command.packId), command.paymentReference, state.balance)];
      case 'FailAutoTopoff': {
        const { userId, paymentReference, reason } = command;
        return [{ type: 'AutoTopoffPaymentFailed', data: { userId, paymentReference, reason } }];
      }
      case 'AdjustPaymentCredits':
        return decidePaymentAdjustment(command, state);
      case 'RefundCredits': {
        const charge = state.charges.get(command.reference);
        // Refunding what was never charged, or twice, changes nothing: callers may refund on every failure path.
        if (!charge || charge.refunded) return [];
        return [
          {
            type: 'CreditsRefunded',
            data: {
              userId: command.userId,
              transactionId: command.transactionId,
              amount: charge.cost,
              balanceAfter: state.balance + charge.cost,
              description: command.description,
              reference: command.reference,
              chargeTransactionId: charge.transactionId,
            },
          },
        ];
      }
    }
  },
};

function decideCharge(command: Extract<CreditCommand, { type: 'ChargeCredits' }>, state: CreditState): CreditEvent[] {
  assertCredits(command.amount, 'amount', 1);
  // A reference is charged once: a retried job or a replayed request gets the first charge back.
  if (state.charges.has(command.reference)) return [];
  const events: CreditEvent[] = [];
  let balance = state.balance;
  if (command.topoff !== null && wantsTopoff(state, command.amount)) {
    const event = autoToppedOff(command.userId, command.topoff.transactionId, packOf(command.topoff.packId), command.topoff.paymentReference, balance);
    balance = event.data.balanceAfter;
    events.push(event);
  }
  // The balance never goes below zero: a charge it cannot cover is refused whole.
  if (balance < command.amount) throw notEnoughCredits(command.amount, state);
  events.push({
    type: 'CreditsCharged',
    data: {
      userId: command.userId,
      transactionId: command.transactionId,
      amount: -command.amount,
      balanceAfter: balance - command.amount,
      description: command.description,
      reference: command.reference,
    },
  });
  return events;
}

/**
 * A refund or dispute of a payment moves what is taken back of its credits to min(credits, refunded + disputed):
 * a refund and a dispute of the same money take it once, and a dispute closed for the payment gives back only what
 * no refund still stands for. Refunds only grow (Stripe reports the cumulative amount; an older report arriving
 * late lowers nothing). A cause that changes no total records nothing; one that changes a total but not what is
 * taken back records a transaction of 0, so that the history says why nothing moved.
 */
function decidePaymentAdjustment(command: Extract<CreditCommand, { type: 'AdjustPaymentCredits' }>, state: CreditState): CreditEvent[] {
  const payment = state.payments.get(command.paymentReference);
  if (!payment) return [];
  const bounded = (credits: number | undefined, otherwise: number) => (credits === undefined ? otherwise : Math.max(0, Math.min(payment.credits, Math.round(credits))));
  const after: PaidPayment = {
    ...payment,
    refundedCredits: Math.max(payment.refundedCredits, bounded(command.refundedCredits, payment.refundedCredits)),
    disputedCredits: bounded(command.disputedCredits, payment.disputedCredits),
  };
  if (after.refundedCredits === payment.refundedCredits && after.disputedCredits === payment.disputedCredits) return [];
  const amount = takenBackOf(payment) - takenBackOf(after);
  const pack = packOf(payment.packId);
  const data = {
    userId: command.userId,
    transactionId: command.transactionId,
    amount,
    balanceAfter: state.balance + amount,
    description: reversalDescription(command, pack, amount, after),
    paymentReference: command.paymentReference,
    packId: payment.packId,
    reference: command.reference,
    cause: command.cause,
    refundedCredits: after.refundedCredits,
    disputedCredits: after.disputedCredits,
  };
  return [amount > 0 ? { type: 'CreditsGivenBack', data } : { type: 'CreditsTakenBack', data }];
}

/** The reason the history shows for a refund or dispute of a payment. */
function reversalDescription(command: Extract<CreditCommand, { type: 'AdjustPaymentCredits' }>, pack: Pack, amount: number, after: PaidPayment): string {
  const why = command.providerReason ? ` (${command.providerReason.replaceAll('_', ' ')})` : '';
  const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
  const payment = `the payment for the ${pack.label} pack (${credits(pack.credits)})`;
  if (command.cause === 'dispute_closed') {
    return amount > 0
      ? `The dispute of ${payment} was closed and the payment stands: ${credits(amount)} given back.`
      : `The dispute of ${payment} was closed; its credits stay taken back, as the payment was refunded.`;
  }
  const what = command.cause === 'refund'
    ? `${payment[0]!.toUpperCase()}${payment.slice(1)} was refunded${after.refundedCredits < pack.credits ? ' in part' : ''}${why}`
    : `${payment[0]!.toUpperCase()}${payment.slice(1)} was disputed${why}`;
  if (amount === 0) return `${what}; its credits were already taken back.`;
  const until = command.cause === 'dispute' ? ' until the dispute is closed' : '';
  return `${what}: ${credits(-amount)} taken back${until}.`;
}

function autoToppedOff(userId: string, transactionId: string, pack: Pack, paymentReference: string, balance: number) {
  return {
    type: 'CreditsAutoToppedOff' as const,
    data: {
      userId,
      transactionId,
      amount: pack.credits,
      balanceAfter: balance + pack.credits,
      description: `Auto top-off: the ${pack.label} pack, ${pack.credits} credits for ${dollars(pack.priceCents)}.`,
      packId: pack.id,
      priceCents: pack.priceCents,
      paymentReference,
    },
  };
}

/**
 * The pack to buy before charging `amount`, or null: only when auto top-off is on, the balance is short, the
 * reference is new, and one pack is enough (buying a pack that still leaves the charge refused would take money
 * for nothing).
 */
export function topoffNeeded(state: CreditState, amount: number, reference: string): PackId | null {
  // Below zero is credits taken back from a refunded or disputed payment (issue 58): settled by a purchase the user
  // makes, never by charging the saved card off-session, whose holder may just have disputed a charge.
  if (state.balance < 0) return null;
  if (!state.autoTopoff.enabled || !wantsTopoff(state, amount) || state.charges.has(reference)) return null;
  return state.balance + packOf(state.autoTopoff.packId).credits >= amount ? state.autoTopoff.packId : null;
}

/**
 * The balance is short of the charge or below the threshold. Checked when a charge comes (the ledger has no clock
 * of its own); with the default threshold of 1 that is exactly "short of the charge", as before thresholds.
 */
function wantsTopoff(state: CreditState, amount: number): boolean {
  // A threshold set above its pack before thresholds were bounded (issue 58) counts as the pack's credits.
  const threshold = Math.min(state.autoTopoff.threshold, packOf(state.autoTopoff.packId).credits);
  return state.balance < Math.max(amount, threshold);
}

export function notEnoughCredits(amount: number, state: CreditState): QuotaError {
  if (state.balance < 0) {
    return new QuotaError(
      `Not enough credits: this costs ${amount} and your balance is ${state.balance}, below zero because the credits of a refunded or disputed payment were taken back after they were spent (your credit history says which). Buy a pack to bring the balance back above zero.`,
    );
  }
  const start = `Not enough credits: this costs ${amount} and your balance is ${state.balance}.`;
  if (!state.autoTopoff.enabled) return new QuotaError(`${start} Buy a pack or turn on auto top-off.`);
  const pack = packOf(state.autoTopoff.packId);
  return new QuotaError(`${start} Your auto top-off pack adds only ${pack.credits}; buy a larger pack.`);
}

function assertCredits(value: number, field: string, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) throw new ValidationError(`${field} must be a whole number of credits, at least ${minimum}.`);
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
