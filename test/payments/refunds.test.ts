import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auditAccount } from '../../src/credits/index.js';
import { rebuildReadModels } from '../../src/platform/projections.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startStripeStandIn } from '../helpers/stripe-stand-in.js';
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, stripeWebhooks } from '../helpers/stripe-webhooks.js';

/**
 * Refunds and disputes (issue 58): a pack's credits came from a payment, and a refund or a dispute of that payment
 * takes them back through the ledger, even below zero once they were spent; a negative balance refuses new demos
 * saying why, and a dispute closed with the payment standing gives them back. Deliveries carry real signatures.
 */
describe('payments: refunds and disputes take a pack’s credits back', () => {
  let app: TestApp;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  let webhooks: ReturnType<typeof stripeWebhooks>;

  before(async () => {
    stripe = await startStripeStandIn();
    app = await startTestApp({ SHOWREEL_PAYMENTS: 'stripe', STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url });
    webhooks = stripeWebhooks(app);
  });
  after(async () => {
    await app.stop();
    await stripe.stop();
  });

  const credits = async (user: TestUser) => (await app.api('/api/v1/credits', { key: user.key })).body;
  const balance = async (user: TestUser) => (await credits(user)).balance as number;
  const outcome = async (type: string, object: Record<string, unknown>, id?: string) => {
    const response = await webhooks.deliver(webhooks.event(type, object, id));
    assert.equal(response.status, 200, response.text);
    return response.body.outcome as string;
  };
  /** A user who bought `packId` through Checkout, paid by PaymentIntent `intent`. */
  const buyer = async (packId: string, priceCents: number, intent: string) => {
    const user = await app.createUser({ credits: 0 });
    assert.equal(await outcome('checkout.session.completed', webhooks.paidSession(user, packId, priceCents, `cs_test_${intent}`, intent)), `credited ${packId}`);
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } });
    assert.equal(project.status, 201, project.text);
    return { user, projectId: project.body.id as string };
  };
  const createDemo = (user: TestUser, projectId: string, durationTarget: '10s' | '30s') =>
    app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show how to start a free trial', duration_target: durationTarget } });

  it('a refund after the pack was spent leaves the balance negative, and a new demo is refused with the reason', async () => {
    const { user, projectId } = await buyer('5', 500, 'pi_refund_spent');
    for (const target of ['30s', '10s', '10s'] as const) assert.equal((await createDemo(user, projectId, target)).status, 202);
    assert.equal(await balance(user), 0);

    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_refund_spent', 500, 500)), 'took back 5');
    assert.equal(await balance(user), -5);

    const refused = await createDemo(user, projectId, '10s');
    assert.equal(refused.status, 429, refused.text);
    assert.deepEqual(Object.keys(refused.body), ['error']);
    assert.match(refused.body.error, /your balance is -5, below zero because the credits of a refunded or disputed payment were taken back/);
    assert.equal(await balance(user), -5, 'a refused demo charges nothing');

    // The history says what happened, in the API and on the dashboard.
    const [refund] = (await credits(user)).recentTransactions;
    assert.deepEqual(
      { type: refund.type, amount: refund.amount, balance_after: refund.balance_after, pack_id: refund.pack_id },
      { type: 'refund', amount: -5, balance_after: -5, pack_id: '5' },
    );
    assert.equal(refund.description, 'The payment for the Starter pack (5 credits) was refunded (requested by customer): 5 credits taken back.');
    const page = await dashboardPage(user, '/app/credits');
    assert.ok(page.includes('The payment for the Starter pack (5 credits) was refunded (requested by customer): 5 credits taken back.'), 'the reason on the credits page');
    assert.match(page, /<td class="num neg">-5<\/td><td class="num opt">-5<\/td>/);

    // A purchase brings the balance back above zero, and demos go on.
    assert.equal(await outcome('checkout.session.completed', webhooks.paidSession(user, '20', 1800, 'cs_test_after_refund', 'pi_after_refund')), 'credited 20');
    assert.equal(await balance(user), 15);
    assert.equal((await createDemo(user, projectId, '10s')).status, 202);
    assert.equal((await auditAccount(app.sql, user.userId)).problems.length, 0);
  });

  it('a dispute takes the credits back, a replay changes nothing, and the dispute closed in the payment’s favour gives them back', async () => {
    const { user, projectId } = await buyer('20', 1800, 'pi_disputed');
    assert.equal((await createDemo(user, projectId, '30s')).status, 202);
    assert.equal(await balance(user), 17);

    const created = webhooks.event('charge.dispute.created', webhooks.dispute('pi_disputed', 1800, 'needs_response'));
    assert.equal((await webhooks.deliver(created)).body.outcome, 'took back 20');
    assert.equal(await balance(user), -3);
    assert.equal((await webhooks.deliver(created)).body.outcome, 'already handled: took back 20');
    assert.equal(await balance(user), -3, 'a replayed event takes nothing more');
    // The same dispute reported again under another event id is the same dispute: nothing more either.
    assert.equal(await outcome('charge.dispute.created', webhooks.dispute('pi_disputed', 1800, 'needs_response')), 'ignored: nothing changed');
    assert.equal(await balance(user), -3);
    const refused = await createDemo(user, projectId, '10s');
    assert.equal(refused.status, 429);
    assert.match(refused.body.error, /balance is -3, below zero/);
    assert.equal((await credits(user)).recentTransactions[0].description, 'The payment for the Creator pack (20 credits) was disputed (fraudulent): 20 credits taken back until the dispute is closed.');

    assert.equal(await outcome('charge.dispute.closed', webhooks.dispute('pi_disputed', 1800, 'won')), 'gave back 20');
    assert.equal(await balance(user), 17);
    const [givenBack] = (await credits(user)).recentTransactions;
    assert.deepEqual([givenBack.type, givenBack.amount, givenBack.description], ['purchase', 20, 'The dispute of the payment for the Creator pack (20 credits) was closed and the payment stands: 20 credits given back.']);
    assert.equal((await createDemo(user, projectId, '10s')).status, 202);
    assert.equal(await balance(user), 16);
  });

  it('never takes one payment back twice: a refund and then a dispute of the same charge take the pack once', async () => {
    const { user } = await buyer('20', 1800, 'pi_refund_then_dispute');
    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_refund_then_dispute', 1800, 1800)), 'took back 20');
    assert.equal(await outcome('charge.dispute.created', webhooks.dispute('pi_refund_then_dispute', 1800, 'needs_response')), 'nothing to take back');
    assert.equal(await balance(user), 0);
    assert.match((await credits(user)).recentTransactions[0].description, /was disputed \(fraudulent\); its credits were already taken back\.$/);
    // Won, the dispute gives back nothing: the refund still stands for the money.
    assert.equal(await outcome('charge.dispute.closed', webhooks.dispute('pi_refund_then_dispute', 1800, 'won')), 'nothing to give back');
    assert.equal(await balance(user), 0);
    assert.equal((await auditAccount(app.sql, user.userId)).problems.length, 0);
  });

  it('takes back a partial refund in proportional whole credits, and the rest when the refund grows', async () => {
    const { user } = await buyer('20', 1800, 'pi_partial');
    // $9.00 of $18.00: 10 of the 20 credits. Stripe reports the refunded amount so far, so a second refund says 1800.
    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_partial', 1800, 900)), 'took back 10');
    assert.equal(await balance(user), 10);
    assert.match((await credits(user)).recentTransactions[0].description, /was refunded in part \(requested by customer\): 10 credits taken back\.$/);
    // $1.35 more (10.35 of 18.00 is 11.5 credits): rounded to the nearest, a half taken.
    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_partial', 1800, 1035)), 'took back 2');
    // An older report arriving late lowers nothing.
    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_partial', 1800, 900)), 'ignored: nothing changed');
    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_partial', 1800, 1800)), 'took back 8');
    assert.equal(await balance(user), 0);
    assert.equal((await auditAccount(app.sql, user.userId)).problems.length, 0);
  });

  it('takes back an auto top-off refunded, ignores a payment it never credited, and keeps what it took after a rebuild', async () => {
    const user = await app.createUser({ credits: 1 });
    const topoff = {
      id: 'pi_topoff_refunded',
      object: 'payment_intent',
      amount: 500,
      amount_received: 500,
      currency: 'usd',
      metadata: { showreel_user_id: user.userId, showreel_pack_id: '5', showreel_kind: 'auto_topoff' },
    };
    assert.equal(await outcome('payment_intent.succeeded', topoff), 'credited 5');
    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_topoff_refunded', 500, 500)), 'took back 5');
    assert.equal(await balance(user), 1);
    assert.equal(await outcome('charge.refunded', webhooks.refundedCharge('pi_someone_elses', 500, 500)), 'ignored: no credited payment for pi_someone_elses');

    await app.sql.begin((tx) => rebuildReadModels(tx));
    assert.equal(await balance(user), 1);
    assert.equal(await outcome('charge.dispute.created', webhooks.dispute('pi_topoff_refunded', 500, 'needs_response')), 'nothing to take back');
    assert.equal(await balance(user), 1);
  });

  /** A dashboard page as the user sees it, signed in with their password. */
  async function dashboardPage(user: TestUser, path: string): Promise<string> {
    const origin = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    const signedIn = await fetch(`${app.url}/app/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const page = await fetch(`${app.url}${path}`, { headers: { cookie } });
    assert.equal(page.status, 200);
    return page.text();
  }
});
