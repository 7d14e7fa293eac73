import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chargeCredits } from '../../src/credits/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { QuotaError } from '../../src/platform/errors.js';
import { rebuildReadModels } from '../../src/platform/projections.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startStripeStandIn } from '../helpers/stripe-stand-in.js';
import { STRIPE_SECRET_KEY as SECRET_KEY, STRIPE_WEBHOOK as WEBHOOK, STRIPE_WEBHOOK_SECRET as WEBHOOK_SECRET, stripeWebhooks } from '../helpers/stripe-webhooks.js';

/**
 * SHOWREEL_PAYMENTS=stripe (issue 34): a purchase is a Checkout Session, auto top-off an off-session PaymentIntent on
 * the saved card, and only Stripe's signed webhook adds credits, once per event. Stripe itself is a local stand-in
 * (no machine here reaches it) that keeps what the SDK sent; the webhook deliveries carry real signatures, made with
 * the SDK's own test header helper.
 */
/** Polls `done` every 20 ms, for up to 5 s: what a background call does shows up a little later. */
async function waitFor(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 5000; waited += 20) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail('waited 5 s in vain');
}

describe('payments: Stripe', () => {
  let app: TestApp;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  let webhooks: ReturnType<typeof stripeWebhooks>;

  before(async () => {
    stripe = await startStripeStandIn();
    app = await startTestApp({ SHOWREEL_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url });
    webhooks = stripeWebhooks(app);
  });
  after(async () => {
    await app.stop();
    await stripe.stop();
  });

  const balance = async (user: TestUser) => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;
  const history = async (user: TestUser) => (await app.api('/api/v1/credits', { key: user.key })).body.recentTransactions as any[];
  const stripeEvent = (type: string, object: Record<string, unknown>, id?: string) => webhooks.event(type, object, id);
  const deliver = (payload: string, signature?: string) => webhooks.deliver(payload, signature);
  const paidSession = (user: TestUser, packId: string, amount: number, id: string, customer: string | null = null) =>
    webhooks.paidSession(user, packId, amount, id, null, customer);
  const buyOnce = async (user: TestUser) => {
    const started = await app.api('/api/v1/credits/purchase', { key: user.key, body: { packId: '20' } });
    assert.equal(started.status, 201, started.text);
    const customer = stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!.params.customer!;
    assert.equal((await deliver(stripeEvent('checkout.session.completed', paidSession(user, '20', 1800, started.body.checkoutId, customer)))).status, 200);
    return customer;
  };

  describe('purchase', () => {
    it('answers 201 with the Checkout page, having asked Stripe for a session of exactly the pack, and adds nothing yet', async () => {
      const user = await app.createUser({ credits: 2 });
      const response = await app.api('/api/v1/credits/purchase', { key: user.key, body: { packId: '20' } });
      assert.equal(response.status, 201);
      assert.deepEqual(Object.keys(response.body).sort(), ['checkoutId', 'checkoutUrl', 'packId']);
      assert.match(response.body.checkoutUrl, /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
      assert.equal(response.body.packId, '20');
      assert.equal(await balance(user), 2, 'credits come only with the webhook');

      const [customer] = stripe.callsTo('POST', '/v1/customers').filter((c) => c.params['metadata[showreel_user_id]'] === user.userId);
      assert.ok(customer, 'a Stripe customer for the user');
      assert.equal(customer.params.email, user.email);
      assert.equal(customer.authorization, `Bearer ${SECRET_KEY}`);
      const session = stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!;
      assert.equal(session.authorization, `Bearer ${SECRET_KEY}`);
      assert.ok(session.idempotencyKey, 'sent with an idempotency key');
      assert.deepEqual(
        {
          mode: session.params.mode,
          customer: session.params.customer,
          amount: session.params['line_items[0][price_data][unit_amount]'],
          currency: session.params['line_items[0][price_data][currency]'],
          quantity: session.params['line_items[0][quantity]'],
          user: session.params['metadata[showreel_user_id]'],
          pack: session.params['metadata[showreel_pack_id]'],
          kind: session.params['metadata[showreel_kind]'],
          saveCard: session.params['payment_intent_data[setup_future_usage]'],
        },
        { mode: 'payment', customer: 'cus_standin_' + stripe.state.customers, amount: '1800', currency: 'usd', quantity: '1', user: user.userId, pack: '20', kind: 'purchase', saveCard: 'off_session' },
      );
      assert.match(session.params.success_url!, /\/app\/credits\?checkout=paid$/);

      // The customer is linked: a second purchase uses it, no new customer.
      const customers = stripe.callsTo('POST', '/v1/customers').length;
      assert.equal((await app.api('/api/v1/credits/purchase', { key: user.key, body: { packId: '5' } })).status, 201);
      assert.equal(stripe.callsTo('POST', '/v1/customers').length, customers);
      assert.equal(stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!.params.customer, session.params.customer);
    });
  });

  describe('the webhook', () => {
    it('adds the pack when Stripe says the checkout was paid, once: a replayed event adds nothing', async () => {
      const user = await app.createUser({ credits: 2 });
      const payload = stripeEvent('checkout.session.completed', paidSession(user, '20', 1800, 'cs_test_paid_1'));
      const first = await deliver(payload);
      assert.equal(first.status, 200);
      assert.deepEqual(first.body, { received: true, outcome: 'credited 20' });
      assert.equal(await balance(user), 22);
      const [purchase] = await history(user);
      assert.deepEqual([purchase.type, purchase.amount, purchase.pack_id], ['purchase', 20, '20']);

      const replay = await deliver(payload);
      assert.equal(replay.status, 200);
      assert.deepEqual(replay.body, { received: true, outcome: 'already handled: credited 20' });
      assert.equal(await balance(user), 22);
      // Another event about the same session (async_payment_succeeded) does not pay it twice either.
      const again = await deliver(stripeEvent('checkout.session.async_payment_succeeded', paidSession(user, '20', 1800, 'cs_test_paid_1')));
      assert.deepEqual(again.body, { received: true, outcome: 'already credited' });
      assert.equal(await balance(user), 22);
    });

    it('still knows a handled event after the read models are rebuilt from the log (as after a restart or replay)', async () => {
      const user = await app.createUser({ credits: 0 });
      const payload = stripeEvent('checkout.session.completed', paidSession(user, '5', 500, 'cs_test_replayed'));
      assert.equal((await deliver(payload)).status, 200);
      await app.sql.begin((tx) => rebuildReadModels(tx));
      assert.match((await deliver(payload)).body.outcome, /^already handled/);
      assert.equal(await balance(user), 5);
    });

    it('answers 400 to a missing or bad signature and adds nothing', async () => {
      const user = await app.createUser({ credits: 1 });
      const payload = stripeEvent('checkout.session.completed', paidSession(user, '100', 7000, 'cs_test_forged'));
      const wrongSecret = webhooks.signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someoneelse000000000' });
      const tampered = webhooks.signer.webhooks.generateTestHeaderString({ payload: payload.replace('"100"', '"50"'), secret: WEBHOOK_SECRET });
      const stale = webhooks.signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
      for (const [name, signature] of [['another secret', wrongSecret], ['another body', tampered], ['an hour old', stale], ['garbage', 'v1=abc']] as const) {
        const response = await deliver(payload, signature);
        assert.equal(response.status, 400, name);
        assert.deepEqual(Object.keys(response.body), ['error'], name);
        assert.match(response.body.error, /Stripe-Signature/);
      }
      const unsigned = await app.api(WEBHOOK, { rawBody: payload, headers: { 'content-type': 'application/json' } });
      assert.equal(unsigned.status, 400);
      assert.equal(await balance(user), 1);
      // The forged event's id was not spent: were Stripe to send it for real, it would count.
      assert.equal((await app.sql`select 1 from payment_events where event_id = ${JSON.parse(payload).id}`).length, 0);
    });

    it('answers 400 with the reason to a signed event that is malformed, and to one signed in the future, changing nothing', async () => {
      const user = await app.createUser({ credits: 2 });
      const now = Math.floor(Date.now() / 1000);
      const malformed = {
        'no data': JSON.stringify({ id: 'evt_test_nodata', object: 'event', type: 'checkout.session.completed', created: now }),
        'a null data.object': JSON.stringify({ id: 'evt_test_nullobject', object: 'event', type: 'checkout.session.completed', created: now, data: { object: null } }),
        'no id': JSON.stringify({ object: 'event', type: 'checkout.session.completed', created: now, data: { object: paidSession(user, '20', 1800, 'cs_test_noid') } }),
      };
      for (const [name, payload] of Object.entries(malformed)) {
        const response = await deliver(payload);
        assert.equal(response.status, 400, `${name}: ${response.text}`);
        assert.deepEqual(Object.keys(response.body), ['error'], name);
        assert.match(response.body.error, /signed but malformed/, name);
      }
      const payload = stripeEvent('checkout.session.completed', paidSession(user, '20', 1800, 'cs_test_future'));
      const ahead = webhooks.signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: now + 3600 });
      const future = await deliver(payload, ahead);
      assert.equal(future.status, 400, future.text);
      assert.match(future.body.error, /in the future/);
      // A clock a minute ahead is within the window, as Stripe documents it.
      const nearly = await deliver(payload, webhooks.signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: now + 60 }));
      assert.equal(nearly.status, 200, nearly.text);
      assert.equal(await balance(user), 2 + 20);
    });

    it('credits nothing for a payment that is not the pack’s price, an unknown user, or an unpaid session', async () => {
      const user = await app.createUser({ credits: 0 });
      const cheap = await deliver(stripeEvent('checkout.session.completed', paidSession(user, '100', 100, 'cs_test_cheap')));
      assert.match(cheap.body.outcome, /^refused: 100 usd is not the price of pack 100/);
      const stranger = await deliver(stripeEvent('checkout.session.completed', { ...paidSession(user, '5', 500, 'cs_test_x'), metadata: { showreel_user_id: 'nobody', showreel_pack_id: '5', showreel_kind: 'purchase' } }));
      assert.equal(stranger.body.outcome, 'refused: no such user');
      const unpaid = await deliver(stripeEvent('checkout.session.completed', { ...paidSession(user, '5', 500, 'cs_test_unpaid'), payment_status: 'unpaid' }));
      assert.equal(unpaid.body.outcome, 'ignored: not paid yet (unpaid)');
      const other = await deliver(stripeEvent('customer.created', { id: 'cus_1', object: 'customer' }));
      assert.deepEqual(other.body, { received: true, outcome: 'ignored: customer.created is not used' });
      assert.equal(await balance(user), 0);
    });
  });

  describe('auto top-off', () => {
    it('is refused (409) until a card was saved by a first purchase', async () => {
      const user = await app.createUser();
      const on = await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: true, packId: '5' } });
      assert.equal(on.status, 409);
      assert.match(on.body.error, /buy a pack once, then turn it on/);
    });

    it('charges the saved card off-session; the credits come with payment_intent.succeeded, once', async () => {
      const user = await app.createUser({ credits: 0 });
      const customer = await buyOnce(user);
      assert.equal(await balance(user), 20);
      assert.equal((await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: true, packId: '50', threshold: 1 } })).status, 200);
      const charge = (amount: number, reference: string) =>
        inTransaction(app.sql, (tx) => chargeCredits(tx, { userId: user.userId, amount, description: 'A demo', reference }, { actor: 'test' }));
      await charge(19, 'demo:a:v1');

      // Short: the payment starts (in the background: the charge does not wait on Stripe), and this charge is
      // refused at once until its credits arrive.
      await assert.rejects(charge(3, 'demo:b:v1'), (error: unknown) => error instanceof QuotaError && /auto top-off payment \(the 50-credit pack\) is under way/.test(error.message));
      const intentsOfUser = () => stripe.callsTo('POST', '/v1/payment_intents').filter((c) => c.params['metadata[showreel_user_id]'] === user.userId);
      await waitFor(() => intentsOfUser().length > 0);
      const intents = intentsOfUser();
      assert.equal(intents.length, 1);
      assert.deepEqual(
        {
          amount: intents[0]!.params.amount,
          currency: intents[0]!.params.currency,
          customer: intents[0]!.params.customer,
          paymentMethod: intents[0]!.params.payment_method,
          offSession: intents[0]!.params.off_session,
          confirm: intents[0]!.params.confirm,
          pack: intents[0]!.params['metadata[showreel_pack_id]'],
          kind: intents[0]!.params['metadata[showreel_kind]'],
        },
        { amount: '4000', currency: 'usd', customer, paymentMethod: 'pm_card_visa_1', offSession: 'true', confirm: 'true', pack: '50', kind: 'auto_topoff' },
      );
      assert.equal(await balance(user), 1, 'nothing added before Stripe confirms');

      // Another charge before the webhook is answered from the payment under way: Stripe is not asked again (issue 58).
      await assert.rejects(charge(2, 'demo:c:v1'), (error: unknown) => error instanceof QuotaError && /is under way/.test(error.message));
      assert.equal(intentsOfUser().length, 1);

      const succeeded = stripeEvent('payment_intent.succeeded', {
        id: 'pi_standin_topoff',
        object: 'payment_intent',
        amount: 4000,
        amount_received: 4000,
        currency: 'usd',
        customer,
        metadata: { showreel_user_id: user.userId, showreel_pack_id: '50', showreel_kind: 'auto_topoff' },
      });
      assert.deepEqual((await deliver(succeeded)).body, { received: true, outcome: 'credited 50' });
      assert.deepEqual((await deliver(succeeded)).body, { received: true, outcome: 'already handled: credited 50' });
      assert.equal(await balance(user), 51);
      assert.equal((await history(user))[0].type, 'auto_topoff');
      assert.equal((await charge(3, 'demo:b:v1')).balance, 48);

      // The checkout's own PaymentIntent succeeding is not an auto top-off: its session's event paid for it.
      const checkoutIntent = await deliver(stripeEvent('payment_intent.succeeded', { id: 'pi_x', object: 'payment_intent', amount: 1800, amount_received: 1800, currency: 'usd', metadata: { showreel_user_id: user.userId, showreel_pack_id: '20', showreel_kind: 'purchase' } }));
      assert.equal(checkoutIntent.body.outcome, 'ignored: not an auto top-off');
      assert.equal(await balance(user), 48);
    });

    it('turns itself off with the reason when the card is declined, adding nothing', async () => {
      const user = await app.createUser({ credits: 0 });
      await buyOnce(user);
      assert.equal((await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: true, packId: '5' } })).status, 200);
      stripe.state.declineCards = true;
      const charge = () => inTransaction(app.sql, (tx) => chargeCredits(tx, { userId: user.userId, amount: 25, description: 'A demo', reference: 'demo:declined:v1' }, { actor: 'test' }));
      try {
        // The first charge is answered before Stripe: the payment is under way; once Stripe declined it, the
        // charges after it say so, without asking Stripe again.
        await assert.rejects(charge(), (error: unknown) => error instanceof QuotaError && /is under way/.test(error.message));
        await waitFor(async () => {
          const error = await charge().catch((e: Error) => e);
          return error instanceof QuotaError && /auto top-off payment was declined \(Your card has insufficient funds\.\)/.test(error.message);
        });
        assert.equal(stripe.callsTo('POST', '/v1/payment_intents').filter((c) => c.params['metadata[showreel_user_id]'] === user.userId).length, 1);
      } finally {
        stripe.state.declineCards = false;
      }
      const failed = await deliver(
        stripeEvent('payment_intent.payment_failed', {
          id: 'pi_standin_declined',
          object: 'payment_intent',
          amount: 500,
          currency: 'usd',
          last_payment_error: { message: 'Your card has insufficient funds.' },
          metadata: { showreel_user_id: user.userId, showreel_pack_id: '5', showreel_kind: 'auto_topoff' },
        }),
      );
      assert.deepEqual(failed.body, { received: true, outcome: 'auto top-off turned off' });
      const setting = (await app.api('/api/v1/credits/auto-topoff', { key: user.key })).body;
      assert.equal(setting.enabled, false);
      assert.match(setting.disabledReason, /^Auto top-off was turned off: the payment for the 5-credit pack failed \(Your card has insufficient funds\.\)/);
      assert.equal(await balance(user), 20);
      // Turning it on again clears the reason.
      const on = await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: true } });
      assert.deepEqual(on.body, { enabled: true, packId: '5', threshold: 1 });
    });
  });
});
