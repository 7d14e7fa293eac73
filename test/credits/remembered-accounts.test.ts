import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import {
  auditCredits,
  chargeNewReference,
  configureAutoTopoff,
  getBalance,
  grantAtOnceProvider,
  listTransactions,
  openAccount,
  purchaseCredits,
  setPaymentProvider,
  type PaymentProvider,
} from '../../src/credits/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { type Sql, withoutSocketHost } from '../../src/platform/database.js';
import { QuotaError } from '../../src/platform/errors.js';
import { newId } from '../../src/platform/ids.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const metadata = { actor: 'test' };

/**
 * A process charges a new demo on the account state it last committed, without reading it first (one round trip
 * for the whole demo). These are the stories where that memory is wrong: another API process, or the worker, wrote
 * to the account in between. Each pool here stands for a process.
 */
describe('charges on a remembered account', () => {
  let db: TestDatabase;
  let here: Sql;
  let elsewhere: Sql;

  before(async () => {
    db = await createTestDatabase();
    here = db.sql;
    elsewhere = postgres(withoutSocketHost(db.url).url, { max: 4, onnotice: () => {} });
  });
  after(async () => {
    await elsewhere.end();
    await db.drop();
  });

  const open = async (credits: number) => {
    const userId = newId();
    await inTransaction(here, (tx) => openAccount(tx, { userId, startingCredits: credits }, metadata));
    return userId;
  };
  const charge = (sql: Sql, userId: string, amount = 1) =>
    inTransaction(sql, (tx) => chargeNewReference(tx, { userId, amount, description: 'A demo', reference: `job:${newId()}` }, metadata));
  const buy = (sql: Sql, userId: string, packId = '5', provider: PaymentProvider = grantAtOnceProvider) =>
    inTransaction(sql, (tx) => purchaseCredits(tx, { userId, packId }, metadata, { provider }));
  const auditClean = async (userId: string) => {
    const audit = await auditCredits(here, { userId });
    assert.deepEqual(audit.accounts[0]?.problems, []);
  };

  it('stays exact when another process bought credits in between: every balance_after follows the one before', async () => {
    const userId = await open(10);
    await charge(here, userId);
    await buy(elsewhere, userId);
    const result = await charge(here, userId);
    assert.equal(result.balance, 10 - 1 + 5 - 1);
    assert.equal(await getBalance(here, userId), 13);
    const balances = (await listTransactions(here, userId, 10)).map((t) => t.balance_after);
    assert.deepEqual(balances, [13, 14, 9, 10]);
    await auditClean(userId);
  });

  it('never refuses on what it remembers: a balance that ran out here but was topped up elsewhere is charged', async () => {
    const userId = await open(1);
    await charge(here, userId);
    await buy(elsewhere, userId);
    assert.equal((await charge(here, userId)).balance, 4);
  });

  it('never pays on what it remembers: an auto top-off turned on elsewhere is bought on the account as it is', async () => {
    const userId = await open(1);
    await charge(here, userId);
    await inTransaction(elsewhere, (tx) => configureAutoTopoff(tx, { userId, enabled: true, packId: '5' }, metadata));
    const payments: string[] = [];
    const counting: PaymentProvider = { ...grantAtOnceProvider, name: 'counting', charge: async (request) => (payments.push(request.idempotencyKey), { outcome: 'settled', reference: 'p' }) };
    setPaymentProvider(counting);
    try {
      const result = await charge(here, userId, 2);
      assert.ok(result.autoTopoff, 'the pack was bought first');
      assert.equal(result.balance, 3);
      assert.equal(payments.length, 1);
    } finally {
      setPaymentProvider(grantAtOnceProvider);
    }
    await auditClean(userId);
  });

  it('lets exactly N of 50 charges through on a balance of N when two processes charge the account at once', async () => {
    const N = 20;
    for (let round = 1; round <= 5; round++) {
      const userId = await open(N + 2);
      // Both processes remember the account (each made a charge), so both start on the fast path.
      await charge(here, userId);
      await charge(elsewhere, userId);
      const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => charge(i % 2 === 0 ? here : elsewhere, userId)));
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      for (const failure of refused) assert.ok(failure.reason instanceof QuotaError, `round ${round}: ${String(failure.reason)}`);
      assert.equal(results.length - refused.length, N, `round ${round}`);
      assert.equal(await getBalance(here, userId), 0, `round ${round}`);
      await auditClean(userId);
    }
  });
});
