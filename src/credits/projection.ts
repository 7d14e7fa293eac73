import type { Tx } from '../platform/database.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import { type CreditEvent, isTransactionEvent, type TransactionEvent, transactionTypeOf } from './events.js';
import { DEFAULT_AUTO_TOPOFF } from './packs.js';

export const creditsProjection: Projection = {
  name: 'credits',
  tables: ['credit_accounts', 'credit_transactions', 'credit_payments'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as CreditEvent & RecordedEvent;
    if (event.type === 'AutoTopoffConfigured') {
      const d = event.data;
      await tx`
        insert into credit_accounts (user_id, balance, auto_topoff_enabled, auto_topoff_pack_id, auto_topoff_threshold, updated_at, stream_version)
        values (${d.userId}, 0, ${d.enabled}, ${d.packId}, ${d.threshold ?? DEFAULT_AUTO_TOPOFF.threshold}::integer, ${stored.createdAt}, ${stored.streamVersion})
        on conflict (user_id) do update set
          auto_topoff_enabled = excluded.auto_topoff_enabled,
          auto_topoff_pack_id = excluded.auto_topoff_pack_id,
          auto_topoff_threshold = excluded.auto_topoff_threshold,
          auto_topoff_disabled_reason = null,
          updated_at = excluded.updated_at,
          stream_version = excluded.stream_version`;
      return;
    }
    if (event.type === 'AutoTopoffPaymentFailed') {
      // Only an account that turned auto top-off on (so has its row) can have a top-off payment fail.
      await tx`
        update credit_accounts
        set auto_topoff_enabled = false, auto_topoff_disabled_reason = ${event.data.reason}, updated_at = ${stored.createdAt}, stream_version = ${stored.streamVersion}
        where user_id = ${event.data.userId}`;
      return;
    }
    if (!isTransactionEvent(event)) return;
    // Sent now, with the account's statement below (not awaited first): applyProjections relies on each apply
    // sending its statements before the next event's.
    const payment = projectPayment(tx, event);
    const d = event.data;
    const packId = 'packId' in d ? d.packId : null;
    const reference = 'reference' in d ? d.reference : 'paymentReference' in d ? d.paymentReference : null;
    // Upsert: an account that was never opened (a user from before credits) gets its row at its first transaction.
    // The row carries the stream version it reflects (the next append's expected version) and whether the account
    // was opened: with the balance and the auto top-off, that is all a command decides on besides one charge.
    const opened = event.type === 'CreditAccountOpened';
    // The checked columns are domains (db/017); their parameters are sent as the base type, so PostgreSQL parses
    // them with the plain input function and checks them with the rule it keeps planned, not with domain_in,
    // which sets up the domain's checks again for every parameter of every statement.
    // One statement for both rows: a command's writes are a dozen statements, and each costs the API process CPU.
    // Past the stream's first event the account's row exists (every credit event writes it, live and in a rebuild
    // alike), so a charge updates it in place: cheaper for PostgreSQL than an insert that conflicts. Should the row
    // be missing after all, the transaction's user_id comes out null and its NOT NULL fails the statement, rather
    // than leaving the balance behind the log. Two whole statements, not fragments (each costs the API CPU per call).
    if (stored.streamVersion > 1) {
      await Promise.all([payment, tx`
        with account as (
          update credit_accounts
          set balance = ${d.balanceAfter}::integer, updated_at = ${stored.createdAt}, opened = opened or ${opened}, stream_version = ${stored.streamVersion}
          where user_id = ${d.userId}
          returning user_id
        )
        insert into credit_transactions (id, user_id, type, amount, balance_after, pack_id, description, reference, created_at, stream_version)
        values (${d.transactionId}, (select user_id from account), ${transactionTypeOf[event.type]}::text, ${d.amount}, ${d.balanceAfter}::integer, ${packId},
                ${d.description}, ${reference}, ${stored.createdAt}, ${stored.streamVersion})`]);
      return;
    }
    await Promise.all([payment, tx`
      with account as (
        insert into credit_accounts (user_id, balance, auto_topoff_enabled, auto_topoff_pack_id, updated_at, opened, stream_version)
        values (${d.userId}, ${d.balanceAfter}::integer, ${DEFAULT_AUTO_TOPOFF.enabled}, ${DEFAULT_AUTO_TOPOFF.packId}, ${stored.createdAt}, ${opened}, ${stored.streamVersion})
        on conflict (user_id) do update set
          balance = excluded.balance,
          updated_at = excluded.updated_at,
          opened = credit_accounts.opened or excluded.opened,
          stream_version = excluded.stream_version
        returning user_id
      )
      insert into credit_transactions (id, user_id, type, amount, balance_after, pack_id, description, reference, created_at, stream_version)
      values (${d.transactionId}, (select user_id from account), ${transactionTypeOf[event.type]}::text, ${d.amount}, ${d.balanceAfter}::integer, ${packId},
              ${d.description}, ${reference}, ${stored.createdAt}, ${stored.streamVersion})`]);
  },
};

/**
 * credit_payments (issue 58): a row per payment that added credits, and what its refunds and dispute took back. An
 * auto top-off's paymentReference is its PaymentIntent; a purchase names its own since issue 58 (before, none).
 */
async function projectPayment(tx: Tx, event: TransactionEvent) {
  if (event.type === 'CreditsPurchased' || event.type === 'CreditsAutoToppedOff') {
    const d = event.data;
    const intent = d.paymentIntentId ?? (event.type === 'CreditsAutoToppedOff' ? d.paymentReference : null);
    await tx`
      insert into credit_payments (user_id, payment_reference, payment_intent, pack_id, credits)
      values (${d.userId}, ${d.paymentReference}, ${intent}, ${d.packId}, ${d.amount})
      on conflict do nothing`;
  } else if (event.type === 'CreditsTakenBack' || event.type === 'CreditsGivenBack') {
    const d = event.data;
    await tx`
      update credit_payments set refunded_credits = ${d.refundedCredits}, disputed_credits = ${d.disputedCredits}
      where user_id = ${d.userId} and payment_reference = ${d.paymentReference}`;
  }
}
