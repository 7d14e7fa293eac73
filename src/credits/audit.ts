import { inReadSnapshot, type Queryable, type Sql } from '../platform/database.js';
import { readStream } from '../platform/event-store/read-stream.js';
import type { StoredEvent } from '../platform/event-store/types.js';
import { CREDIT_STREAM_PREFIX, type CreditEvent, creditEventSchemas, creditStream, isTransactionEvent, transactionTypeOf } from './events.js';
import { type PaidPayment, takenBackOf } from './decide.js';
import { DEFAULT_AUTO_TOPOFF } from './packs.js';
import type { CreditAccountRecord, CreditTransactionRecord } from './queries.js';

/**
 * The credits audit: the events are the truth, and this proves both that they are consistent in themselves and that
 * the read models say the same.
 *
 * For each account it folds the stream and checks that every event is well formed, that each `balanceAfter` is the
 * previous one plus `amount`, that only credits taken back leave it negative (a charge never does), that a reference is charged once and refunded once for exactly
 * what was charged; then it compares the fold with `credit_accounts` and `credit_transactions`, row by row.
 * Everything is read in one REPEATABLE READ snapshot, so writes landing meanwhile cannot look like mismatches.
 */
export interface AccountAudit {
  userId: string;
  ok: boolean;
  events: number;
  /** The balance the events add up to. */
  balance: number;
  /** What credit_accounts says; null when it has no row. */
  readModelBalance: number | null;
  problems: string[];
}

export interface CreditAuditReport {
  accounts: AccountAudit[];
  summary: { accounts: number; events: number; clean: number; mismatched: number; ok: boolean };
}

export async function auditCredits(sql: Sql, options: { userId?: string } = {}): Promise<CreditAuditReport> {
  return await inReadSnapshot(sql, async (tx): Promise<CreditAuditReport> => {
    const userIds = options.userId !== undefined ? [options.userId] : await listAccountIds(tx);
    const accounts: AccountAudit[] = [];
    for (const userId of userIds) accounts.push(await auditAccount(tx, userId));
    const mismatched = accounts.filter((a) => !a.ok).length;
    return {
      accounts,
      summary: {
        accounts: accounts.length,
        events: accounts.reduce((sum, a) => sum + a.events, 0),
        clean: accounts.length - mismatched,
        mismatched,
        ok: mismatched === 0,
      },
    };
  });
}

/** Every account the events or the read models know of: a row without events is a mismatch too. */
async function listAccountIds(sql: Queryable): Promise<string[]> {
  const rows = await sql<{ user_id: string }[]>`
    select substr(stream_id, ${CREDIT_STREAM_PREFIX.length + 1}) as user_id from events
      where starts_with(stream_id, ${CREDIT_STREAM_PREFIX})
    union select user_id from credit_accounts
    union select user_id from credit_transactions
    order by user_id`;
  return rows.map((r) => r.user_id);
}

interface ExpectedTransaction {
  type: string;
  amount: number;
  balance_after: number;
  pack_id: string | null;
  description: string | null;
  reference: string | null;
  stream_version: number;
  created_at: number;
}

export async function auditAccount(sql: Queryable, userId: string): Promise<AccountAudit> {
  const events = await readStream(sql, creditStream(userId));
  const problems: string[] = [];
  const fold = foldEvents(events, problems);

  const [account] = await sql<CreditAccountRecord[]>`select * from credit_accounts where user_id = ${userId}`;
  const rows = await sql<CreditTransactionRecord[]>`select * from credit_transactions where user_id = ${userId}`;
  if (events.length > 0 && !account) problems.push('credit_accounts has no row for this account.');
  if (events.length === 0 && account) problems.push('credit_accounts has a row but the account has no events.');
  if (account) {
    if (account.balance !== fold.balance) problems.push(`credit_accounts.balance is ${account.balance}; the events add up to ${fold.balance}.`);
    if (account.auto_topoff_threshold !== fold.autoTopoff.threshold) {
      problems.push(`credit_accounts.auto_topoff_threshold is ${account.auto_topoff_threshold}; the events say ${fold.autoTopoff.threshold}.`);
    }
    if (account.auto_topoff_enabled !== fold.autoTopoff.enabled || account.auto_topoff_pack_id !== fold.autoTopoff.packId) {
      problems.push(
        `credit_accounts auto top-off is ${describeTopoff(account.auto_topoff_enabled, account.auto_topoff_pack_id)}; the events say ${describeTopoff(fold.autoTopoff.enabled, fold.autoTopoff.packId)}.`,
      );
    }
    // Commands decide on these two (see loadAccount in commands.ts): a row behind its stream would fail every append.
    if (account.opened !== fold.opened) problems.push(`credit_accounts.opened is ${account.opened}; the events say ${fold.opened}.`);
    if (account.stream_version !== events.length) problems.push(`credit_accounts.stream_version is ${account.stream_version}; the stream is at ${events.length}.`);
  }

  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.id);
    const expected = fold.transactions.get(row.id);
    if (!expected) {
      problems.push(`credit_transactions has ${row.id} (${row.type} ${row.amount}) that no event records.`);
      continue;
    }
    const actual: ExpectedTransaction = {
      type: row.type,
      amount: row.amount,
      balance_after: row.balance_after,
      pack_id: row.pack_id,
      description: row.description,
      reference: row.reference,
      stream_version: row.stream_version,
      created_at: row.created_at.getTime(),
    };
    for (const field of Object.keys(expected) as (keyof ExpectedTransaction)[]) {
      if (actual[field] !== expected[field]) {
        problems.push(`credit_transactions ${row.id}: ${field} is ${JSON.stringify(actual[field])}; the event says ${JSON.stringify(expected[field])}.`);
      }
    }
  }
  for (const [id, expected] of fold.transactions) {
    if (!seen.has(id)) problems.push(`credit_transactions is missing ${id} (${expected.type} ${expected.amount}, stream version ${expected.stream_version}).`);
  }

  return { userId, ok: problems.length === 0, events: events.length, balance: fold.balance, readModelBalance: account?.balance ?? null, problems };
}

/** The fold: the ledger as the events alone tell it, with every broken rule noted in `problems`. */
function foldEvents(events: StoredEvent[], problems: string[]) {
  let balance = 0;
  let opened = false;
  let autoTopoff: { enabled: boolean; packId: string; threshold: number } = { ...DEFAULT_AUTO_TOPOFF };
  const transactions = new Map<string, ExpectedTransaction>();
  const charges = new Map<string, { cost: number; refunded: boolean }>();
  const payments = new Map<string, PaidPayment>();

  for (const stored of events) {
    const at = `event ${stored.streamVersion} (${stored.type})`;
    const schema = creditEventSchemas[stored.type as keyof typeof creditEventSchemas];
    if (!schema) {
      problems.push(`${at}: not a credits event type.`);
      continue;
    }
    const parsed = schema.safeParse(stored.data);
    if (!parsed.success) {
      problems.push(`${at}: malformed data (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}).`);
      continue;
    }
    const event = { type: stored.type, data: parsed.data } as CreditEvent;
    if (event.type === 'AutoTopoffConfigured') {
      autoTopoff = { enabled: event.data.enabled, packId: event.data.packId, threshold: event.data.threshold ?? DEFAULT_AUTO_TOPOFF.threshold };
      continue;
    }
    if (event.type === 'AutoTopoffPaymentFailed') {
      autoTopoff = { ...autoTopoff, enabled: false };
      continue;
    }
    if (!isTransactionEvent(event)) continue;
    const d = event.data;
    if (event.type === 'CreditAccountOpened') {
      if (opened) problems.push(`${at}: the account is opened a second time.`);
      opened = true;
    }
    if (event.type === 'CreditsCharged') {
      if (charges.has(event.data.reference)) problems.push(`${at}: reference ${event.data.reference} is charged a second time.`);
      charges.set(event.data.reference, { cost: -d.amount, refunded: false });
    }
    if (event.type === 'CreditsRefunded') {
      const charge = charges.get(event.data.reference);
      if (!charge) problems.push(`${at}: refunds ${event.data.reference}, which was never charged.`);
      else if (charge.refunded) problems.push(`${at}: refunds ${event.data.reference} a second time.`);
      else if (charge.cost !== d.amount) problems.push(`${at}: refunds ${d.amount} but the charge took ${charge.cost}.`);
      if (charge) charge.refunded = true;
    }
    if (event.type === 'CreditsPurchased' || event.type === 'CreditsAutoToppedOff') {
      payments.set(event.data.paymentReference, { packId: event.data.packId, credits: d.amount, refundedCredits: 0, disputedCredits: 0 });
    }
    if (event.type === 'CreditsTakenBack' || event.type === 'CreditsGivenBack') {
      const payment = payments.get(event.data.paymentReference);
      if (!payment) problems.push(`${at}: takes back credits of payment ${event.data.paymentReference}, which added none.`);
      else {
        const after = { ...payment, refundedCredits: event.data.refundedCredits, disputedCredits: event.data.disputedCredits };
        const moved = takenBackOf(payment) - takenBackOf(after);
        if (moved !== d.amount) problems.push(`${at}: moves ${d.amount} credits but the payment's refunds and dispute say ${moved}.`);
        payments.set(event.data.paymentReference, after);
      }
    }
    const expectedAfter = balance + d.amount;
    if (d.balanceAfter !== expectedAfter) problems.push(`${at}: balanceAfter is ${d.balanceAfter}; the previous ${balance} plus ${d.amount} is ${expectedAfter}.`);
    // Only credits taken back from a refunded or disputed payment may leave the balance below zero (issue 58).
    if (expectedAfter < 0 && event.type === 'CreditsCharged') problems.push(`${at}: a charge leaves the balance negative (${expectedAfter}).`);
    if (transactions.has(d.transactionId)) problems.push(`${at}: transaction id ${d.transactionId} is used twice.`);
    // Continue from what the event claims, so one bad link is reported once, not at every later event.
    balance = d.balanceAfter;
    transactions.set(d.transactionId, {
      type: transactionTypeOf[event.type],
      amount: d.amount,
      balance_after: d.balanceAfter,
      pack_id: 'packId' in d ? d.packId : null,
      description: d.description,
      reference: 'reference' in d ? d.reference : 'paymentReference' in d ? d.paymentReference : null,
      stream_version: stored.streamVersion,
      created_at: stored.createdAt.getTime(),
    });
  }
  return { balance, opened, autoTopoff, transactions };
}

const describeTopoff = (enabled: boolean, packId: string) => `${enabled ? 'on' : 'off'} with pack ${packId}`;
