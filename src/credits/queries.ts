import type { Queryable } from '../platform/database.js';
import type { TransactionType } from './events.js';
import type { PaidPayment } from './decide.js';
import { DEFAULT_AUTO_TOPOFF, type PackId, packOf } from './packs.js';

export interface CreditAccountRecord {
  user_id: string;
  balance: number;
  auto_topoff_enabled: boolean;
  auto_topoff_pack_id: PackId;
  auto_topoff_threshold: number;
  /** Why a failed payment turned auto top-off off; null otherwise. */
  auto_topoff_disabled_reason: string | null;
  updated_at: Date;
  opened: boolean;
  /** The version of the account's stream this row reflects. */
  stream_version: number;
}

export interface CreditTransactionRecord {
  id: string;
  user_id: string;
  type: TransactionType;
  amount: number;
  balance_after: number;
  pack_id: PackId | null;
  description: string | null;
  reference: string | null;
  created_at: Date;
  stream_version: number;
}

export async function findAccount(sql: Queryable, userId: string): Promise<CreditAccountRecord | null> {
  const [row] = await sql<CreditAccountRecord[]>`select * from credit_accounts where user_id = ${userId}`;
  return row ?? null;
}

/** The balance; 0 for a user whose account was never opened. */
export async function getBalance(sql: Queryable, userId: string): Promise<number> {
  return (await findAccount(sql, userId))?.balance ?? 0;
}

export async function getAutoTopoff(sql: Queryable, userId: string): Promise<AutoTopoffSetting> {
  return autoTopoffOf(await findAccount(sql, userId));
}

export interface AutoTopoffSetting {
  enabled: boolean;
  packId: PackId;
  threshold: number;
  /** Present only when a failed payment turned auto top-off off: why, for the user. */
  disabledReason?: string;
}

/** The setting of an account row; the default (off, pack 20, threshold 1) when there is none. */
export function autoTopoffOf(account: Omit<CreditAccountRecord, 'auto_topoff_disabled_reason'> & { auto_topoff_disabled_reason?: string | null } | null): AutoTopoffSetting {
  if (!account) return { ...DEFAULT_AUTO_TOPOFF };
  // A threshold set above its pack before thresholds were bounded (issue 58) counts, and reads, as the pack's credits.
  const threshold = Math.min(account.auto_topoff_threshold, packOf(account.auto_topoff_pack_id).credits);
  const setting: AutoTopoffSetting = { enabled: account.auto_topoff_enabled, packId: account.auto_topoff_pack_id, threshold };
  if (!account.auto_topoff_enabled && account.auto_topoff_disabled_reason) setting.disabledReason = account.auto_topoff_disabled_reason;
  return setting;
}

/**
 * The stream version of the account's last auto top-off turn: set up, paid, or failed (0 if none). Every off-session
 * payment asked for between two turns is the same payment (its idempotency key carries this), so charges that each
 * find the balance low while one payment is under way do not pay again; once its webhook lands, the next is new.
 */
export async function lastAutoTopoffTurn(sql: Queryable, userId: string): Promise<number> {
  const [row] = await sql<{ version: number }[]>`
    select coalesce(max(stream_version), 0)::int as version from events
    where stream_id = ${`credits-${userId}`} and type in ('AutoTopoffConfigured', 'CreditsAutoToppedOff', 'AutoTopoffPaymentFailed')`;
  return row?.version ?? 0;
}

/** The purchase or auto top-off already recorded for a provider's payment, if any: a payment adds credits once. */
export async function findPayment(sql: Queryable, userId: string, paymentReference: string): Promise<CreditTransactionRecord | null> {
  const [row] = await sql<CreditTransactionRecord[]>`
    select * from credit_transactions where user_id = ${userId} and type in ('purchase', 'auto_topoff') and reference = ${paymentReference}`;
  return row ?? null;
}

/** Newest first. */
export async function listTransactions(sql: Queryable, userId: string, limit = 20): Promise<CreditTransactionRecord[]> {
  const bounded = Math.max(1, Math.min(Math.trunc(limit), 1000));
  return sql<CreditTransactionRecord[]>`
    select * from credit_transactions where user_id = ${userId} order by stream_version desc limit ${bounded}`;
}

/**
 * One page of the history, newest first. The order is the account's stream version, which a new transaction only
 * ever raises (writers hold the account's stream lock), so "older than the cursor" is the same set however many
 * charges land between two pages: nothing is skipped or repeated.
 */
export async function pageTransactions(
  sql: Queryable,
  userId: string,
  page: { limit: number; before: number | null },
): Promise<{ transactions: CreditTransactionRecord[]; next: number | null }> {
  const rows = await sql<CreditTransactionRecord[]>`
    select * from credit_transactions
    where user_id = ${userId} ${page.before === null ? sql`` : sql`and stream_version < ${page.before}`}
    order by stream_version desc limit ${page.limit + 1}`;
  const transactions = rows.slice(0, page.limit);
  return { transactions, next: rows.length > page.limit ? transactions.at(-1)!.stream_version : null };
}

/** Credits spent since a moment: the charges less their refunds. */
export async function creditsSpentSince(sql: Queryable, userId: string, since: Date): Promise<number> {
  const [row] = await sql<{ spent: number }[]>`
    select coalesce(-sum(amount), 0)::int as spent from credit_transactions
    where user_id = ${userId} and type in ('deduct', 'refund') and created_at >= ${since}`;
  return row?.spent ?? 0;
}

/** The charge (type deduct) or refund made under a caller's reference. */
export async function findByReference(
  sql: Queryable,
  userId: string,
  type: 'deduct' | 'refund',
  reference: string,
): Promise<CreditTransactionRecord | null> {
  const [row] = await sql<CreditTransactionRecord[]>`
    select * from credit_transactions where user_id = ${userId} and type = ${type} and reference = ${reference}`;
  return row ?? null;
}

/** A payment that added credits, and what of it was taken back (issue 58; the credit_payments read model). */
export interface CreditPaymentRecord {
  user_id: string;
  payment_reference: string;
  payment_intent: string | null;
  pack_id: PackId;
  credits: number;
  refunded_credits: number;
  disputed_credits: number;
}

/** The credited payment whose provider payment (a Stripe PaymentIntent) this is, whoever's it is. */
export async function findPaymentByIntent(sql: Queryable, paymentIntentId: string): Promise<CreditPaymentRecord | null> {
  const [row] = await sql<CreditPaymentRecord[]>`select * from credit_payments where payment_intent = ${paymentIntentId} limit 1`;
  return row ?? null;
}

export const paidPaymentOf = (row: CreditPaymentRecord): PaidPayment => ({
  packId: row.pack_id,
  credits: row.credits,
  refundedCredits: row.refunded_credits,
  disputedCredits: row.disputed_credits,
});
