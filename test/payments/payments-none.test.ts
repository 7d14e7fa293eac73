import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chargeCredits, configureAutoTopoff } from '../../src/credits/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { QuotaError } from '../../src/platform/errors.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const REFUSAL = { error: 'Payments are not configured on this service; an administrator grants credits.' };

/**
 * Issue 34, finding 1: "Credits are free" — `POST /credits/purchase` added the pack to any account, as often as asked.
 * A self-hosted service (SHOWREEL_PAYMENTS=none, the default) now sells nothing: an administrator grants credits.
 */
describe('payments: none, the default', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.stop());

  const balance = async (user: TestUser) => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;
  const creditEvents = async (user: TestUser) =>
    (await app.sql<{ n: number }[]>`select count(*)::int as n from events where stream_id = ${`credits-${user.userId}`}`)[0]!.n;

  it('refuses a purchase with 403 and the reason, however often it is asked, and the balance stays', async () => {
    const user = await app.createUser({ credits: 3 });
    const events = await creditEvents(user);
    for (const packId of ['100', '100', '5']) {
      const response = await app.api('/api/v1/credits/purchase', { key: user.key, body: { packId } });
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, REFUSAL);
    }
    assert.equal(await balance(user), 3);
    assert.equal(await creditEvents(user), events, 'nothing was recorded');
  });

  it('refuses to turn auto top-off on (nothing could pay for its packs), and lets it be turned off', async () => {
    const user = await app.createUser({ credits: 3 });
    const on = await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: true, packId: '5' } });
    assert.equal(on.status, 403);
    assert.deepEqual(on.body, REFUSAL);
    assert.equal((await app.api('/api/v1/credits/auto-topoff', { key: user.key })).body.enabled, false);
    const off = await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: false, packId: '5' } });
    assert.equal(off.status, 200);
  });

  it('never tops off an account whose auto top-off was on from before: a short charge is refused as short, and nothing is added', async () => {
    const user = await app.createUser({ credits: 1 });
    await inTransaction(app.sql, (tx) => configureAutoTopoff(tx, { userId: user.userId, enabled: true, packId: '100' }, { actor: 'test' }));
    const charge = inTransaction(app.sql, (tx) => chargeCredits(tx, { userId: user.userId, amount: 3, description: 'A demo', reference: 'demo:short:v1' }, { actor: 'test' }));
    await assert.rejects(charge, (error: unknown) => {
      assert.ok(error instanceof QuotaError);
      assert.match(error.message, /^Not enough credits: this costs 3 and your balance is 1, and the auto top-off payment was declined \(payments are not configured on this service\)/);
      return true;
    });
    assert.equal(await balance(user), 1);
  });

  it('has no Stripe webhook: 404, whatever is posted', async () => {
    const response = await app.api('/api/v1/payments/stripe/webhook', { rawBody: '{"id":"evt_1"}', headers: { 'stripe-signature': 't=1,v1=00' } });
    assert.equal(response.status, 404);
    assert.deepEqual(Object.keys(response.body), ['error']);
  });

  it('will not start with SHOWREEL_PAYMENTS=stripe without both Stripe secrets, naming each, and never echoes a key', () => {
    assert.throws(
      () => loadConfig({ SHOWREEL_PAYMENTS: 'stripe' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.some((p) => /^STRIPE_SECRET_KEY: is required when SHOWREEL_PAYMENTS=stripe/.test(p)) &&
        error.problems.some((p) => /^STRIPE_WEBHOOK_SECRET: is required when SHOWREEL_PAYMENTS=stripe/.test(p)),
    );
    assert.throws(
      () => loadConfig({ SHOWREEL_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'pk_live_not-a-secret-key', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }),
      (error: unknown) => error instanceof ConfigError && /STRIPE_SECRET_KEY: must be a Stripe secret key/.test(error.message) && !error.message.includes('pk_live_not'),
    );
    assert.equal(loadConfig({}).SHOWREEL_PAYMENTS, 'none');
  });
});
