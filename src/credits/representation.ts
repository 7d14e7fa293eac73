import { ValidationError } from '../platform/errors.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import { isTransactionEvent, type TransactionEvent, transactionTypeOf } from './events.js';
import type { CreditTransactionRecord } from './queries.js';

/** The spec's Transaction resource. `amount` is signed: a deduct is negative. */
export function toTransaction(record: CreditTransactionRecord) {
  return {
    id: record.id,
    user_id: record.user_id,
    type: record.type,
    amount: record.amount,
    balance_after: record.balance_after,
    pack_id: record.pack_id,
    description: record.description,
    created_at: record.created_at.toISOString(),
  };
}

export type CreditTransaction = ReturnType<typeof toTransaction>;

/** The same resource straight from an appended event (what the inline projection wrote), without a read back. */
export function transactionFromEvent(stored: RecordedEvent): CreditTransaction {
  if (!isTransactionEvent(stored)) throw new Error(`${stored.type} is not a credit transaction.`);
  const event = stored as TransactionEvent & RecordedEvent;
  const d = event.data;
  return {
    id: d.transactionId,
    user_id: d.userId,
    type: transactionTypeOf[event.type],
    amount: d.amount,
    balance_after: d.balanceAfter,
    pack_id: 'packId' in d ? d.packId : null,
    description: d.description,
    created_at: stored.createdAt.toISOString(),
  };
}

/**
 * The transactions cursor: the stream version of the last transaction of a page, opaque to clients (base64url of
 * `v<n>`) so that its meaning can change without breaking them.
 */
export const encodeCursor = (streamVersion: number) => Buffer.from(`v${streamVersion}`).toString('base64url');

export function decodeCursor(cursor: string): number {
  const match = /^v(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new ValidationError('cursor is not one this service gave out; pass nextCursor from the page before.');
  return Number(match[1]);
}
