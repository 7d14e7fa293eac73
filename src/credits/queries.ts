import type { Queryable } from '../platform/database.js';
import type { TransactionType } from './events.js';
import { DEFAULT_AUTO_TOPOFF, type PackId } from './packs.js';

export interface CreditAccountRecord {
  user_id: string;
  balance: number;
  auto_topoff_enabled: boolean;
  auto_topoff_pack_id: PackId;
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

export async function getAutoTopoff(sql: Queryable, userId: string): Promise<{ enabled: boolean; packId: PackId }> {
  return autoTopoffOf(await findAccount(sql, userId));
}

/** The setting of an account row; the default (off, pack 20) when there is none. */
export function autoTopoffOf(account: CreditAccountRecord | null): { enabled: boolean; packId: PackId } {
  return account ? { enabled: account.auto_topoff_enabled, packId: account.auto_topoff_pack_id } : { ...DEFAULT_AUTO_TOPOFF };
}

/** Newest first. */
export async function listTransactions(sql: Queryable, userId: string, limit = 20): Promise<CreditTransactionRecord[]> {
  const bounded = Math.max(1, Math.min(Math.trunc(limit), 1000));
  return sql<CreditTransactionRecord[]>`
    select * from credit_transactions where user_id = ${userId} order by stream_version desc limit ${bounded}`;
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
