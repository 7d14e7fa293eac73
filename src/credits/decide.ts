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

/**
 * An account that was never opened (a user from before credits existed) behaves as an open account with nothing
 * in it: it can buy, be configured and be refused; only OpenAccount needs it unopened.
 */
export interface CreditState {
  opened: boolean;
  balance: number;
  autoTopoff: AutoTopoff;
  charges: ReadonlyMap<string, Charge>;
}

export type CreditCommand =
  | { type: 'OpenAccount'; userId: string; transactionId: string; startingCredits: number }
  | { type: 'PurchasePack'; userId: string; transactionId: string; packId: PackId; paymentReference: string }
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
  | { type: 'FailAutoTopoff'; userId: string; paymentReference: string; reason: string };

export const SIGNUP_BONUS_DESCRIPTION = 'Sign-up bonus';

export const creditDecider: Decider<CreditState, CreditEvent, CreditCommand> = {
  initialState: () => ({ opened: false, balance: 0, autoTopoff: { ...DEFAULT_AUTO_TOPOFF }, charges: new Map() }),
  evolve(state, event) {
    switch (event.type) {
      case 'CreditAccountOpened':
        return { ...state, opened: true, balance: event.data.balanceAfter };
      case 'CreditsPurchased':
      case 'CreditsAutoToppedOff':
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
            },
          },
        ];
      }
      case 'ConfigureAutoTopoff': {
        const { enabled, packId, threshold } = command;
        assertCredits(threshold, 'threshold', 1);
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
  if (!state.autoTopoff.enabled || !wantsTopoff(state, amount) || state.charges.has(reference)) return null;
  return state.balance + packOf(state.autoTopoff.packId).credits >= amount ? state.autoTopoff.packId : null;
}

/**
 * The balance is short of the charge or below the threshold. Checked when a charge comes (the ledger has no clock
 * of its own); with the default threshold of 1 that is exactly "short of the charge", as before thresholds.
 */
function wantsTopoff(state: CreditState, amount: number): boolean {
  return state.balance < Math.max(amount, state.autoTopoff.threshold);
}

export function notEnoughCredits(amount: number, state: CreditState): QuotaError {
  const start = `Not enough credits: this costs ${amount} and your balance is ${state.balance}.`;
  if (!state.autoTopoff.enabled) return new QuotaError(`${start} Buy a pack or turn on auto top-off.`);
  const pack = packOf(state.autoTopoff.packId);
  return new QuotaError(`${start} Your auto top-off pack adds only ${pack.credits}; buy a larger pack.`);
}

function assertCredits(value: number, field: string, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) throw new ValidationError(`${field} must be a whole number of credits, at least ${minimum}.`);
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
