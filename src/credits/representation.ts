import type { StoredEvent } from '../platform/event-store/types.js';
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
export function transactionFromEvent(stored: StoredEvent): CreditTransaction {
  if (!isTransactionEvent(stored)) throw new Error(`${stored.type} is not a credit transaction.`);
  const event = stored as TransactionEvent & StoredEvent;
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
