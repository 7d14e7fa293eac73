import type { Tx } from '../platform/database.js';
import { AppError, QuotaError, ValidationError } from '../platform/errors.js';
import { sendAppendAndProject } from '../platform/command.js';
import { lockStream } from '../platform/event-store/lock-stream.js';
import type { EventMetadata, RecordedEvent } from '../platform/event-store/types.js';
import { newId } from '../platform/ids.js';
import { beforeCommit, settleInOrder } from '../platform/transaction.js';
import { type AccountUse, useAccount } from './account-cache.js';
import { type AutoTopoff, type CreditCommand, type CreditState, creditDecider, topoffNeeded } from './decide.js';
import { type CreditEvent, creditStream } from './events.js';
import { findPack, type PackId, packIds, packOf } from './packs.js';
import { type PaymentProvider, paymentProvider } from './payment-provider.js';
import { autoTopoffOf, type CreditAccountRecord, findByReference, findPayment, lastAutoTopoffTurn } from './queries.js';
import { type CreditTransaction, toTransaction, transactionFromEvent } from './representation.js';

/**
 * The ledger's commands. Each runs inside the caller's transaction, so a demo and the charge for it commit together
 * or not at all, and each first takes the account's stream lock (see lockStream): an account is a hot stream, and
 * its writers queue instead of retrying. The appends still carry the expected version.
 */

export interface CommandOptions {
  /** The payment provider for this call; the one set with setPaymentProvider otherwise. */
  provider?: PaymentProvider;
}

/** A payment the provider refused: 402, nothing recorded. */
export class PaymentDeclinedError extends AppError {
  constructor(reason: string) {
    super(402, `The payment was declined (${reason}); no credits were added.`);
  }
}

export interface LoadedAccount {
  userId: string;
  state: CreditState;
  version: number;
  /** This command's use of the account in the process's memory of accounts (see useAccount); null outside inTransaction. */
  use: AccountUse | null;
}

/**
 * Locks the account's stream, then reads the state to decide on from its read model: the `credit_accounts` row
 * (balance, auto top-off, opened, the stream version it reflects) and, for a command about one charge, that
 * charge's rows. The projection writes them in the same transaction as every append, so under the lock they are
 * current; the cost of a command does not grow with the account's history. The append still checks the expected
 * version, so a row that ever fell behind its stream fails the command (ConcurrencyError) instead of deciding on
 * a stale balance, and `npm run audit:credits` compares the rows with the fold.
 *
 * `state.charges` then holds only the charge under `reference`: the decider reads no other.
 */
export async function loadAccount(tx: Tx, userId: string, reference?: string): Promise<LoadedAccount> {
  const use = useAccount(tx, userId);
  // Sent together, one round trip: PostgreSQL runs pipelined statements in order, so the read starts only once the
  // lock is held, and at READ COMMITTED it sees what the previous holder committed. One read for the account row
  // and the charge's rows (each statement costs the API process CPU): a row per charge row, or one with nulls.
  // One select per type, so that each is an index lookup on its partial unique index (charge_once, refund_once);
  // `type in (...)` would scan the account's every transaction. No reference: `= null` matches nothing.
  const [, rows] = await Promise.all([
    lockStream(tx, creditStream(userId)),
    tx<AccountRow[]>`
      select a.user_id, a.balance, a.auto_topoff_enabled, a.auto_topoff_pack_id, a.auto_topoff_threshold, a.updated_at, a.opened,
             a.stream_version, c.id as charge_id, c.type as charge_type, c.amount as charge_amount
      from (select 1) as one
      left join credit_accounts a on a.user_id = ${userId}
      left join lateral (
        select id, type, amount from credit_transactions where user_id = ${userId} and reference = ${reference ?? null}::text and type = 'deduct'
        union all
        select id, type, amount from credit_transactions where user_id = ${userId} and reference = ${reference ?? null}::text and type = 'refund'
      ) c on true`,
  ]);
  const charges = new Map<string, { transactionId: string; cost: number; refunded: boolean }>();
  if (reference !== undefined) {
    const deduct = rows.find((r) => r.charge_type === 'deduct');
    if (deduct) charges.set(reference, { transactionId: deduct.charge_id!, cost: -deduct.charge_amount!, refunded: rows.some((r) => r.charge_type === 'refund') });
  }
  const row = rows[0]!;
  const loaded: LoadedAccount = isAccount(row)
    ? { userId, state: { opened: row.opened, balance: row.balance, autoTopoff: autoTopoffOf(row), charges, payments: new Map() }, version: row.stream_version, use }
    : { userId, state: { ...creditDecider.initialState(), charges }, version: 0, use };
  // Read under the lock, so current: worth remembering even when the command appends nothing.
  use?.willBe(loaded.state, loaded.version);
  return loaded;
}

const isAccount = (row: AccountRow): row is AccountRow & { user_id: string } => row.user_id !== null;

/** The columns loadAccount reads (not the disabled reason: no command decides on it). */
type AccountRow = Omit<CreditAccountRecord, 'user_id' | 'auto_topoff_disabled_reason'> & {
  /** null when the account has no row yet */
  user_id: string | null;
  charge_id: string | null;
  charge_type: 'deduct' | 'refund' | null;
  charge_amount: number | null;
};

/**
 * Decide on the loaded state, append at its version with the inline projections (one round trip). `untilCommit`:
 * nothing after it needs the rows, so they travel with the caller's next statements or its COMMIT (beforeCommit):
 * the account's lock is then released one round trip sooner.
 */
/** Internal to the credits module (also used by payment-adjustments.ts). */
export async function append(
  tx: Tx,
  account: LoadedAccount,
  command: CreditCommand,
  metadata: EventMetadata,
  { untilCommit = false, lockStream = false }: { untilCommit?: boolean; lockStream?: boolean } = {},
) {
  const decided = creditDecider.decide(command, account.state);
  const { events, written } = sendAppendAndProject(tx, creditStream(account.userId), account.version, decided, metadata, { lockStream });
  const state = decided.reduce(creditDecider.evolve, account.state);
  account.use?.willBe(state, account.version + decided.length);
  if (untilCommit) await beforeCommit(tx, written);
  else await written;
  return { state, events };
}

export const transactionIn = (events: RecordedEvent[], type: CreditEvent['type']) => {
  const event = events.find((e) => e.type === type);
  return event ? transactionFromEvent(event) : null;
};

/** Opens the account with `startingCredits` as its sign-up bonus (a `bonus` transaction, even of 0). */
export async function openAccount(tx: Tx, input: { userId: string; startingCredits: number }, metadata: EventMetadata): Promise<CreditTransaction> {
  const account = await loadAccount(tx, input.userId);
  const { events } = await append(tx, account, { type: 'OpenAccount', transactionId: newId(), ...input }, metadata);
  return transactionIn(events, 'CreditAccountOpened')!;
}

export interface PurchaseResult {
  balance: number;
  transaction: CreditTransaction;
}

/**
 * Buys a pack through a provider that settles at once (tests, scripts; see grantAtOnceProvider). Buyers go through
 * the provider's checkout instead (the purchase procedure), and its webhook records the purchase (recordPaidPurchase).
 * An unknown pack is a 400 naming packId.
 */
export async function purchaseCredits(
  tx: Tx,
  input: { userId: string; packId: string; transactionId?: string },
  metadata: EventMetadata,
  options: CommandOptions = {},
): Promise<PurchaseResult> {
  const pack = findPack(input.packId);
  if (!pack) throw new ValidationError(`packId must be one of: ${packIds.join(', ')}.`);
  const account = await loadAccount(tx, input.userId);
  // A caller that retries its transaction passes the same transactionId, so the provider sees the same key.
  const transactionId = input.transactionId ?? newId();
  const payment = await (options.provider ?? paymentProvider()).charge({ userId: input.userId, pack, idempotencyKey: `purchase:${transactionId}` });
  if (payment.outcome === 'declined') throw new PaymentDeclinedError(payment.reason);
  if (payment.outcome === 'pending') throw new Error('purchaseCredits needs a provider that settles at once; buyers go through checkout.');
  const { state, events } = await append(
    tx,
    account,
    { type: 'PurchasePack', userId: input.userId, transactionId, packId: pack.id, paymentReference: payment.reference },
    metadata,
  );
  return { balance: state.balance, transaction: transactionIn(events, 'CreditsPurchased')! };
}

export interface PaymentRecord {
  userId: string;
  packId: PackId;
  /** The provider's id of the payment (Stripe: the Checkout Session or the PaymentIntent): credited once. */
  paymentReference: string;
  /** The provider's payment behind it (Stripe: the PaymentIntent), by which its refunds and disputes find it. */
  paymentIntentId?: string | null;
}

/**
 * Records a payment the provider confirmed (its verified webhook): a purchase through checkout, or an auto top-off
 * charged off-session. The only way a paid pack becomes credits. A payment already credited adds nothing and
 * answers the earlier transaction (`alreadyRecorded`), whatever event reported it again.
 */
export async function recordPayment(
  tx: Tx,
  input: PaymentRecord & { kind: 'purchase' | 'auto_topoff' },
  metadata: EventMetadata,
): Promise<{ transaction: CreditTransaction; balance: number; alreadyRecorded: boolean }> {
  const account = await loadAccount(tx, input.userId);
  const earlier = await findPayment(tx, input.userId, input.paymentReference);
  if (earlier) return { transaction: toTransaction(earlier), balance: account.state.balance, alreadyRecorded: true };
  const base = { userId: input.userId, transactionId: newId(), packId: input.packId, paymentReference: input.paymentReference };
  // An auto top-off's paymentReference is its PaymentIntent already; a checkout's is its session.
  const command: CreditCommand =
    input.kind === 'purchase'
      ? { type: 'PurchasePack', ...base, ...(input.paymentIntentId ? { paymentIntentId: input.paymentIntentId } : {}) }
      : { type: 'SettleAutoTopoff', ...base };
  const { state, events } = await append(tx, account, command, metadata);
  return { transaction: transactionIn(events, input.kind === 'purchase' ? 'CreditsPurchased' : 'CreditsAutoToppedOff')!, balance: state.balance, alreadyRecorded: false };
}

/**
 * An auto top-off payment failed (the provider's webhook says so): nothing was credited for it, so nothing is taken
 * back; auto top-off is turned off with the reason, which the user sees until they set it again. A failure of a
 * payment already credited, or reported when auto top-off is already off, changes nothing.
 */
export async function recordAutoTopoffFailure(
  tx: Tx,
  input: { userId: string; paymentReference: string; reason: string },
  metadata: EventMetadata,
): Promise<{ turnedOff: boolean }> {
  const account = await loadAccount(tx, input.userId);
  if (!account.state.autoTopoff.enabled || (await findPayment(tx, input.userId, input.paymentReference))) return { turnedOff: false };
  await append(tx, account, { type: 'FailAutoTopoff', ...input }, metadata);
  return { turnedOff: true };
}

/**
 * An administrator's grant (`showreel admin grant-credits`): a `bonus` transaction with the reason as its
 * description; `grantedBy` (who) is kept in the event.
 */
export async function grantCredits(
  tx: Tx,
  input: { userId: string; credits: number; reason: string; grantedBy: string },
  metadata: EventMetadata,
): Promise<PurchaseResult> {
  const account = await loadAccount(tx, input.userId);
  const command: CreditCommand = { type: 'GrantCredits', userId: input.userId, transactionId: newId(), amount: input.credits, description: input.reason, grantedBy: input.grantedBy };
  const { state, events } = await append(tx, account, command, metadata);
  return { balance: state.balance, transaction: transactionIn(events, 'CreditsGranted')! };
}

export async function configureAutoTopoff(
  tx: Tx,
  input: { userId: string; enabled: boolean; packId: string; threshold?: number },
  metadata: EventMetadata,
): Promise<AutoTopoff> {
  const pack = findPack(input.packId);
  if (!pack) throw new ValidationError(`packId must be one of: ${packIds.join(', ')}.`);
  const account = await loadAccount(tx, input.userId);
  // Left out, the threshold stays what it was, lowered to the pack's credits should it be above (a smaller pack).
  const threshold = input.threshold ?? Math.min(account.state.autoTopoff.threshold, pack.credits);
  const command = { type: 'ConfigureAutoTopoff' as const, userId: input.userId, enabled: input.enabled, packId: pack.id, threshold };
  const { state } = await append(tx, account, command, metadata);
  return state.autoTopoff;
}

export interface ChargeInput {
  userId: string;
  /** Credits to take, a whole number ≥ 1 (see priceOf). */
  amount: number;
  description: string;
  /** Idempotency key of the charge, e.g. `demo:<id>:v<n>`: a reference already charged is not charged again. */
  reference: string;
}

export interface ChargeResult {
  /** The deduct (the earlier one when the reference was already charged). */
  transaction: CreditTransaction;
  /** The auto top-off bought to cover this charge, if one was. */
  autoTopoff: CreditTransaction | null;
  balance: number;
  alreadyCharged: boolean;
}

/**
 * Takes `amount` credits. When the balance is short and auto top-off is on, buys the configured pack first
 * (an `auto_topoff` transaction, then the `deduct`); otherwise throws QuotaError (429) and writes nothing.
 */
export async function chargeCredits(
  tx: Tx,
  input: ChargeInput,
  metadata: EventMetadata,
  options: CommandOptions & { account?: Promise<LoadedAccount> } = {},
): Promise<ChargeResult> {
  if (input.reference.length === 0) throw new ValidationError('reference must not be empty.');
  // `account`: the caller already sent loadAccount(tx, userId, reference) with statements of its own (one round trip).
  const account = await (options.account ?? loadAccount(tx, input.userId, input.reference));
  const { state } = account;
  if (state.charges.has(input.reference)) {
    const existing = await findByReference(tx, input.userId, 'deduct', input.reference);
    if (!existing) throw new Error(`Charge ${input.reference} is in the log but not in credit_transactions: run the credits audit.`);
    return { transaction: toTransaction(existing), autoTopoff: null, balance: state.balance, alreadyCharged: true };
  }

  let topoff: { transactionId: string; packId: PackId; paymentReference: string } | null = null;
  const packId = topoffNeeded(state, input.amount, input.reference);
  if (packId !== null) {
    // The same key until the account's next auto top-off turn (see lastAutoTopoffTurn): a retry of this transaction,
    // and every other charge that finds the balance low before the payment lands, ask for the same payment.
    const turn = await lastAutoTopoffTurn(tx, input.userId);
    const payment = await (options.provider ?? paymentProvider()).charge({
      userId: input.userId,
      pack: packOf(packId),
      idempotencyKey: `auto_topoff:${input.userId}:${turn}`,
    });
    if (payment.outcome === 'declined') {
      throw new QuotaError(
        `Not enough credits: this costs ${input.amount} and your balance is ${state.balance}, and the auto top-off payment was declined (${payment.reason}). Buy a pack or check your payment method.`,
        payment.retryAfterSeconds,
      );
    }
    if (payment.outcome === 'settled') topoff = { transactionId: newId(), packId, paymentReference: payment.reference };
    // Pending: the credits come with the payment's webhook. Below the threshold but covering the charge, the charge
    // goes on meanwhile; short of it, it is refused now, saying when to try again.
    else if (state.balance < input.amount) {
      throw new QuotaError(
        `Not enough credits: this costs ${input.amount} and your balance is ${state.balance}. Your auto top-off payment (the ${packOf(packId).credits}-credit pack) is under way; the credits are added once the payment is confirmed, usually within a minute: try again then.`,
        30,
      );
    }
  }

  const { state: after, events } = await append(tx, account, chargeCommand(input, topoff), metadata, { untilCommit: true });
  return {
    transaction: transactionIn(events, 'CreditsCharged')!,
    autoTopoff: transactionIn(events, 'CreditsAutoToppedOff'),
    balance: after.balance,
    alreadyCharged: false,
  };
}

/**
 * Charges under a reference the caller minted in this very command (e.g. `job:<new job id>`), so never charged
 * before. When this process remembers the account (see useAccount) and the charge is a plain one on that state, it
 * is decided at once: the lock and the append go out with the caller's next statements and COMMIT, one round trip
 * less for the whole command, and no read. Should the account have moved meanwhile, the append fails (its version
 * check) and inTransaction runs the command again, from a read. Everything else reads the account under its lock
 * first, as chargeCredits does: nothing remembered, another command of this process on the account, an auto top-off
 * to buy (a payment is never made on remembered state), or a balance short of the charge (a refusal is never made
 * on it either).
 *
 * `precondition`: a check the caller sent before; on the read path its failure wins over the account's. It must
 * fail in the database, not only in JavaScript (see visibleProjectPrecondition): on the remembered path nothing is
 * awaited before COMMIT goes out.
 */
export async function chargeNewReference(
  tx: Tx,
  input: ChargeInput,
  metadata: EventMetadata,
  options: { precondition?: Promise<unknown> } = {},
): Promise<ChargeResult> {
  const use = useAccount(tx, input.userId);
  const remembered = use?.remembered;
  if (use && remembered && remembered.state.balance >= input.amount && topoffNeeded(remembered.state, input.amount, input.reference) === null) {
    const account: LoadedAccount = { userId: input.userId, state: remembered.state, version: remembered.version, use };
    // The lock still, so that a command that reads the account (one of this process that arrives meanwhile, or one
    // elsewhere) waits for this one's COMMIT and reads what it wrote, instead of colliding with it. Taken by the
    // append's own statement (a statement less per demo, see AppendOptions).
    const { state, events } = await append(tx, account, chargeCommand(input, null), metadata, { untilCommit: true, lockStream: true });
    return { transaction: transactionIn(events, 'CreditsCharged')!, autoTopoff: null, balance: state.balance, alreadyCharged: false };
  }
  const account = loadAccount(tx, input.userId, input.reference);
  if (options.precondition) await settleInOrder([options.precondition, account] as const);
  return chargeCredits(tx, input, metadata, { ...options, account });
}

function chargeCommand(input: ChargeInput, topoff: Extract<CreditCommand, { type: 'ChargeCredits' }>['topoff']): CreditCommand {
  return {
    type: 'ChargeCredits',
    userId: input.userId,
    transactionId: newId(),
    amount: input.amount,
    reference: input.reference,
    description: input.description,
    topoff,
  };
}

export interface RefundResult {
  /** The refund (the earlier one when already refunded); null when nothing was charged under the reference. */
  transaction: CreditTransaction | null;
  balance: number;
}

/** Gives back exactly what the charge under `reference` took, once. Unknown or already refunded: a no-op. */
export async function refundCredits(
  tx: Tx,
  input: { userId: string; reference: string; description?: string | null },
  metadata: EventMetadata,
): Promise<RefundResult> {
  const account = await loadAccount(tx, input.userId, input.reference);
  const { state, events } = await append(
    tx,
    account,
    { type: 'RefundCredits', userId: input.userId, transactionId: newId(), reference: input.reference, description: input.description ?? null },
    metadata,
  );
  const refund = transactionIn(events, 'CreditsRefunded');
  if (refund) return { transaction: refund, balance: state.balance };
  const earlier = await findByReference(tx, input.userId, 'refund', input.reference);
  return { transaction: earlier ? toTransaction(earlier) : null, balance: state.balance };
}
