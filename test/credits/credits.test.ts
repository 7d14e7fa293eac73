import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  chargeCredits,
  grantAtOnceProvider,
  PAYMENTS_NOT_CONFIGURED,
  purchaseCredits,
  refundCredits,
  setPaymentProvider,
  type PaymentProvider,
} from '../../src/credits/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { AppError, QuotaError } from '../../src/platform/errors.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const metadata = { actor: 'test' };
const declining: PaymentProvider = { ...grantAtOnceProvider, name: 'declining', charge: async () => ({ outcome: 'declined', reason: 'card declined' }) };

/**
 * The ledger's own rules, with a payment provider that settles at once (auto top-off bought inside the charge). What
 * a service sells, and how (SHOWREEL_PAYMENTS=none, stripe), is in test/payments/.
 */
describe('credits', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
    setPaymentProvider(grantAtOnceProvider);
  });
  after(() => app.stop());

  const overview = (user: TestUser) => app.api('/api/v1/credits', { key: user.key });
  const setTopoff = (user: TestUser, body: unknown) => app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body });
  const charge = (user: TestUser, amount: number, reference: string, provider?: PaymentProvider) =>
    inTransaction(app.sql, (tx) => chargeCredits(tx, { userId: user.userId, amount, description: `Demo ${reference}`, reference }, metadata, provider ? { provider } : {}));
  const eventCount = async (user: TestUser) =>
    (await app.sql<{ n: number }[]>`select count(*)::int as n from events where stream_id = ${`credits-${user.userId}`}`)[0]!.n;

  describe('GET /api/v1/credits', () => {
    it('shows the starting balance, the packs, the auto top-off setting and the sign-up bonus', async () => {
      const user = await app.createUser({ credits: 10 });
      const response = await overview(user);
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body).sort(), ['autoTopoff', 'balance', 'packs', 'recentTransactions']);
      assert.equal(response.body.balance, 10);
      assert.deepEqual(response.body.autoTopoff, { enabled: false, packId: '20', threshold: 1 });
      assert.deepEqual(
        response.body.packs.map((p: any) => [p.id, p.credits, p.price, p.perCredit, p.savings, p.label, p.popular]),
        [
          ['5', 5, 5, 1, 0, 'Starter', false],
          ['20', 20, 18, 0.9, 10, 'Creator', true],
          ['50', 50, 40, 0.8, 20, 'Studio', false],
          ['100', 100, 70, 0.7, 30, 'Agency', false],
        ],
      );
      const [bonus] = response.body.recentTransactions;
      assert.equal(response.body.recentTransactions.length, 1);
      assert.deepEqual(Object.keys(bonus).sort(), ['amount', 'balance_after', 'created_at', 'description', 'id', 'pack_id', 'type', 'user_id']);
      assert.deepEqual(
        { type: bonus.type, amount: bonus.amount, balance_after: bonus.balance_after, pack_id: bonus.pack_id, user_id: bonus.user_id },
        { type: 'bonus', amount: 10, balance_after: 10, pack_id: null, user_id: user.userId },
      );
      assert.ok(Date.parse(bonus.created_at));
    });

    it('starts an account created with --credits 0 at exactly 0', async () => {
      const user = await app.createUser({ credits: 0 });
      const response = await overview(user);
      assert.equal(response.body.balance, 0);
      assert.deepEqual(response.body.recentTransactions.map((t: any) => [t.type, t.amount]), [['bonus', 0]]);
    });

    it('lists at most 20 transactions, newest first', async () => {
      const user = await app.createUser({ credits: 30 });
      for (let i = 1; i <= 25; i++) await charge(user, 1, `list:${i}`);
      const { body } = await overview(user);
      assert.equal(body.balance, 5);
      assert.equal(body.recentTransactions.length, 20);
      assert.deepEqual(body.recentTransactions[0].description, 'Demo list:25');
      assert.deepEqual(body.recentTransactions.map((t: any) => t.balance_after), Array.from({ length: 20 }, (_, i) => 5 + i));
    });
  });

  describe('auto top-off setting', () => {
    it('reads the default, then stores what PUT says', async () => {
      const user = await app.createUser();
      assert.deepEqual((await app.api('/api/v1/credits/auto-topoff', { key: user.key })).body, { enabled: false, packId: '20', threshold: 1 });

      const on = await setTopoff(user, { enabled: true, packId: '50' });
      assert.equal(on.status, 200);
      assert.deepEqual(on.body, { enabled: true, packId: '50', threshold: 1 });
      assert.deepEqual((await app.api('/api/v1/credits/auto-topoff', { key: user.key })).body, { enabled: true, packId: '50', threshold: 1 });

      // Leaving packId out keeps the pack chosen before.
      assert.deepEqual((await setTopoff(user, { enabled: false })).body, { enabled: false, packId: '50', threshold: 1 });
      assert.deepEqual((await overview(user)).body.autoTopoff, { enabled: false, packId: '50', threshold: 1 });
    });

    it('answers 400 naming the field for an unknown pack or a missing flag, and changes nothing', async () => {
      const user = await app.createUser();
      const unknown = await setTopoff(user, { enabled: true, packId: '7' });
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.body, { error: 'packId must be one of: 5, 20, 50, 100.' });
      const missing = await setTopoff(user, { packId: '5' });
      assert.equal(missing.status, 400);
      assert.match(missing.body.error, /enabled is required/);
      assert.deepEqual((await app.api('/api/v1/credits/auto-topoff', { key: user.key })).body, { enabled: false, packId: '20', threshold: 1 });
    });
  });

  describe('POST /api/v1/credits/purchase', () => {
    it('adds the pack’s credits and records a purchase when the provider settles at once', async () => {
      const user = await app.createUser({ credits: 3 });
      const bought = await inTransaction(app.sql, (tx) => purchaseCredits(tx, { userId: user.userId, packId: '20' }, metadata));
      assert.equal(bought.balance, 23);
      const { transaction } = bought;
      assert.deepEqual(
        { type: transaction.type, amount: transaction.amount, balance_after: transaction.balance_after, pack_id: transaction.pack_id },
        { type: 'purchase', amount: 20, balance_after: 23, pack_id: '20' },
      );
      assert.match(transaction.description!, /Creator pack: 20 credits for \$18\.00/);
      const { body } = await overview(user);
      assert.equal(body.balance, 23);
      assert.deepEqual(body.recentTransactions[0], transaction);
    });

    it('has no checkout without a payment service: 403, nothing added', async () => {
      const user = await app.createUser({ credits: 3 });
      const response = await app.api('/api/v1/credits/purchase', { key: user.key, body: { packId: '20' } });
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, { error: PAYMENTS_NOT_CONFIGURED });
      assert.equal((await overview(user)).body.balance, 3);
    });

    it('answers 400 naming packId for an unknown pack, and writes nothing', async () => {
      const user = await app.createUser({ credits: 3 });
      const before = await eventCount(user);
      for (const body of [{ packId: '7' }, { packId: 20 }, {}]) {
        const response = await app.api('/api/v1/credits/purchase', { key: user.key, body });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.match(response.body.error, /packId/);
      }
      assert.equal(await eventCount(user), before);
      assert.equal((await overview(user)).body.balance, 3);
    });

    it('adds nothing when the payment provider declines', async () => {
      const user = await app.createUser({ credits: 3 });
      await assert.rejects(
        inTransaction(app.sql, (tx) => purchaseCredits(tx, { userId: user.userId, packId: '5' }, metadata, { provider: declining })),
        (error: unknown) => error instanceof AppError && error.status === 402 && /declined/.test(error.message),
      );
      assert.equal((await overview(user)).body.balance, 3);
    });
  });

  describe('charging', () => {
    it('refuses with 429 when the balance is short and auto top-off is off, and writes nothing', async () => {
      const user = await app.createUser({ credits: 1 });
      const before = await eventCount(user);
      await assert.rejects(charge(user, 3, 'demo:short:v1'), (error: unknown) => {
        assert.ok(error instanceof QuotaError);
        assert.equal(error.status, 429);
        assert.equal(error.message, 'Not enough credits: this costs 3 and your balance is 1. Buy a pack or turn on auto top-off.');
        return true;
      });
      assert.equal(await eventCount(user), before);
      assert.equal((await overview(user)).body.balance, 1);
    });

    it('buys the auto top-off pack when short, then deducts', async () => {
      const user = await app.createUser({ credits: 1 });
      assert.equal((await setTopoff(user, { enabled: true, packId: '5' })).status, 200);
      const result = await charge(user, 3, 'demo:topoff:v1');
      assert.equal(result.balance, 3);
      assert.equal(result.autoTopoff?.type, 'auto_topoff');
      const { body } = await overview(user);
      assert.equal(body.balance, 3);
      assert.deepEqual(
        body.recentTransactions.map((t: any) => [t.type, t.amount, t.balance_after, t.pack_id]),
        [
          ['deduct', -3, 3, null],
          ['auto_topoff', 5, 6, '5'],
          ['bonus', 1, 1, null],
        ],
      );

      // Enough credits now: no second top-off.
      const next = await charge(user, 2, 'demo:topoff:v2');
      assert.equal(next.autoTopoff, null);
      assert.equal(next.balance, 1);
    });

    it('refuses with 429 and writes nothing when the auto top-off payment is declined', async () => {
      const user = await app.createUser({ credits: 0 });
      await setTopoff(user, { enabled: true, packId: '20' });
      const before = await eventCount(user);
      await assert.rejects(charge(user, 1, 'demo:declined:v1', declining), (error: unknown) => error instanceof QuotaError && /declined/.test(error.message));
      assert.equal(await eventCount(user), before);
    });

    it('charges a reference once: a repeat returns the first charge', async () => {
      const user = await app.createUser({ credits: 5 });
      const first = await charge(user, 2, 'job:render-1');
      const again = await charge(user, 2, 'job:render-1');
      assert.equal(again.alreadyCharged, true);
      assert.deepEqual(again.transaction, first.transaction);
      assert.equal((await overview(user)).body.balance, 3);
    });

    it('commits with the caller’s transaction: a caller that fails leaves no charge', async () => {
      const user = await app.createUser({ credits: 5 });
      await assert.rejects(
        inTransaction(app.sql, async (tx) => {
          await chargeCredits(tx, { userId: user.userId, amount: 2, description: 'Demo', reference: 'demo:rollback:v1' }, metadata);
          throw new Error('the demo could not be created');
        }),
        /could not be created/,
      );
      assert.equal((await overview(user)).body.balance, 5);
      assert.equal((await charge(user, 2, 'demo:rollback:v1')).alreadyCharged, false);
    });

    it('refunds exactly what a charge took, once; an unknown reference is a no-op', async () => {
      const user = await app.createUser({ credits: 5 });
      await charge(user, 3, 'demo:refund:v1');
      const refund = (reference: string) => inTransaction(app.sql, (tx) => refundCredits(tx, { userId: user.userId, reference, description: 'Generation failed' }, metadata));

      const first = await refund('demo:refund:v1');
      assert.equal(first.balance, 5);
      assert.deepEqual([first.transaction?.type, first.transaction?.amount, first.transaction?.balance_after], ['refund', 3, 5]);
      const second = await refund('demo:refund:v1');
      assert.deepEqual(second, first);
      const unknown = await refund('demo:never:v1');
      assert.deepEqual(unknown, { transaction: null, balance: 5 });

      const { body } = await overview(user);
      assert.equal(body.balance, 5);
      assert.deepEqual(body.recentTransactions.map((t: any) => t.type), ['refund', 'deduct', 'bonus']);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a credential on every credits endpoint', async () => {
      const calls: Array<[string, string, unknown?]> = [
        ['GET', '/api/v1/credits'],
        ['GET', '/api/v1/credits/auto-topoff'],
        ['PUT', '/api/v1/credits/auto-topoff', { enabled: true, packId: '5' }],
        ['POST', '/api/v1/credits/purchase', { packId: '5' }],
      ];
      for (const [method, path, body] of calls) {
        const response = await app.api(path, { method, body });
        assert.equal(response.status, 401, `${method} ${path}`);
        assert.deepEqual(Object.keys(response.body), ['error']);
      }
    });

    it('accepts the dashboard session as well as a live key', async () => {
      const user = await app.createUser({ credits: 4 });
      const signIn = await app.api('/api/v1/auth/sign-in', { body: { email: user.email, password: user.password } });
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const response = await app.api('/api/v1/credits', { cookie });
      assert.equal(response.status, 200);
      assert.equal(response.body.balance, 4);
      // Authenticated (not a 401), then refused for what it is: no payment service here.
      const bought = await app.api('/api/v1/credits/purchase', { cookie, body: { packId: '5' } });
      assert.deepEqual([bought.status, bought.body], [403, { error: PAYMENTS_NOT_CONFIGURED }]);
    });
  });
});
