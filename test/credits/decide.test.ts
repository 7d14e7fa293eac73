import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditDecider, topoffNeeded, type CreditCommand, type CreditState } from '../../src/credits/decide.js';
import type { CreditEvent } from '../../src/credits/events.js';
import { packs, priceOf } from '../../src/credits/packs.js';
import { AppError } from '../../src/platform/errors.js';

/** Given events, when a command, then events (or an error): the decider alone, no database. */
function given(events: CreditEvent[]) {
  const state = events.reduce<CreditState>(creditDecider.evolve, creditDecider.initialState());
  return { state, when: (command: CreditCommand) => () => creditDecider.decide(command, state) };
}

const opened = (credits: number): CreditEvent => ({
  type: 'CreditAccountOpened',
  data: { userId: 'u1', transactionId: 't0', amount: credits, balanceAfter: credits, description: 'Sign-up bonus' },
});
const charged = (reference: string, amount: number, balanceAfter: number): CreditEvent => ({
  type: 'CreditsCharged',
  data: { userId: 'u1', transactionId: `c-${reference}`, amount: -amount, balanceAfter, description: 'A demo', reference },
});
const topoffOn = (packId: '5' | '20' | '50' | '100', threshold = 1): CreditEvent => ({ type: 'AutoTopoffConfigured', data: { userId: 'u1', enabled: true, packId, threshold } });
const charge = (amount: number, reference = 'demo:d1:v1', topoff: Extract<CreditCommand, { type: 'ChargeCredits' }>['topoff'] = null): CreditCommand => ({
  type: 'ChargeCredits', userId: 'u1', transactionId: 't1', amount, reference, description: 'A demo', topoff,
});
const isStatus = (status: number, message?: RegExp) => (error: unknown) =>
  error instanceof AppError && error.status === status && (message === undefined || message.test(error.message));

describe('credit decisions', () => {
  it('opens an account with its sign-up bonus, even a bonus of 0', () => {
    assert.deepEqual(given([]).when({ type: 'OpenAccount', userId: 'u1', transactionId: 't0', startingCredits: 0 })(), [
      { type: 'CreditAccountOpened', data: { userId: 'u1', transactionId: 't0', amount: 0, balanceAfter: 0, description: 'Sign-up bonus' } },
    ]);
    assert.throws(given([opened(3)]).when({ type: 'OpenAccount', userId: 'u1', transactionId: 't9', startingCredits: 3 }), isStatus(409));
  });

  it('charges a negative amount and leaves the balance after it', () => {
    assert.deepEqual(given([opened(5)]).when(charge(3))(), [
      { type: 'CreditsCharged', data: { userId: 'u1', transactionId: 't1', amount: -3, balanceAfter: 2, description: 'A demo', reference: 'demo:d1:v1' } },
    ]);
  });

  it('charges a reference once: a second charge with it is a no-op', () => {
    assert.deepEqual(given([opened(5), charged('demo:d1:v1', 1, 4)]).when(charge(1))(), []);
  });

  it('refuses a charge the balance cannot cover, in a sentence, without auto top-off', () => {
    assert.throws(
      given([opened(1)]).when(charge(3)),
      isStatus(429, /^Not enough credits: this costs 3 and your balance is 1\. Buy a pack or turn on auto top-off\.$/),
    );
  });

  it('asks for a top-off only when it is on, the balance is short and one pack is enough', () => {
    assert.equal(topoffNeeded(given([opened(1)]).state, 3, 'r'), null);
    assert.equal(topoffNeeded(given([opened(5), topoffOn('5')]).state, 3, 'r'), null);
    assert.equal(topoffNeeded(given([opened(1), topoffOn('5')]).state, 3, 'r'), '5');
    assert.equal(topoffNeeded(given([opened(0), topoffOn('5')]).state, 6, 'r'), null);
    assert.equal(topoffNeeded(given([opened(1), topoffOn('5'), charged('r', 1, 0)]).state, 3, 'r'), null);
    // Threshold: a balance that covers the charge but is below the threshold buys the pack too.
    assert.equal(topoffNeeded(given([opened(4), topoffOn('5', 5)]).state, 1, 'r'), '5');
    assert.equal(topoffNeeded(given([opened(5), topoffOn('5', 5)]).state, 1, 'r'), null);
  });

  it('records the top-off the handler bought, then the charge', () => {
    const events = given([opened(1), topoffOn('20')]).when(charge(3, 'demo:d2:v1', { transactionId: 'tt', packId: '20', paymentReference: 'grant:x' }))();
    assert.deepEqual(
      events.map((e) => [e.type, 'amount' in e.data ? e.data.amount : null, 'balanceAfter' in e.data ? e.data.balanceAfter : null]),
      [['CreditsAutoToppedOff', 20, 21], ['CreditsCharged', -3, 18]],
    );
  });

  it('says when the auto top-off pack is too small', () => {
    assert.throws(given([opened(0), topoffOn('5')]).when(charge(6)), isStatus(429, /auto top-off pack adds only 5/));
  });

  it('refuses a charge of zero or a fraction', () => {
    assert.throws(given([opened(5)]).when(charge(0)), isStatus(400));
    assert.throws(given([opened(5)]).when(charge(1.5)), isStatus(400));
  });

  it('refunds exactly what the charge took, once', () => {
    const history = [opened(5), charged('demo:d1:v1', 3, 2)];
    const refund: CreditCommand = { type: 'RefundCredits', userId: 'u1', transactionId: 'r1', reference: 'demo:d1:v1', description: 'Failed' };
    const [event] = given(history).when(refund)();
    assert.deepEqual(event, {
      type: 'CreditsRefunded',
      data: { userId: 'u1', transactionId: 'r1', amount: 3, balanceAfter: 5, description: 'Failed', reference: 'demo:d1:v1', chargeTransactionId: 'c-demo:d1:v1' },
    });
    assert.deepEqual(given([...history, event!]).when(refund)(), []);
    assert.deepEqual(given(history).when({ ...refund, reference: 'never-charged' })(), []);
  });

  it('does not charge a refunded reference again', () => {
    const history: CreditEvent[] = [opened(5), charged('r', 3, 2), { type: 'CreditsRefunded', data: { userId: 'u1', transactionId: 'r1', amount: 3, balanceAfter: 5, description: null, reference: 'r', chargeTransactionId: 'c-r' } }];
    assert.deepEqual(given(history).when(charge(3, 'r'))(), []);
  });

  it('records an auto top-off change only when something changes', () => {
    assert.deepEqual(given([opened(0)]).when({ type: 'ConfigureAutoTopoff', userId: 'u1', enabled: false, packId: '20', threshold: 1 })(), []);
    assert.deepEqual(given([opened(0)]).when({ type: 'ConfigureAutoTopoff', userId: 'u1', enabled: true, packId: '50', threshold: 1 })(), [topoffOn('50')]);
    // A new threshold alone is a change.
    assert.deepEqual(given([opened(0), topoffOn('50')]).when({ type: 'ConfigureAutoTopoff', userId: 'u1', enabled: true, packId: '50', threshold: 5 })(), [topoffOn('50', 5)]);
  });

  it('bounds the threshold by the pack (issue 58), and counts one set above it before as the pack’s credits', () => {
    assert.deepEqual(given([opened(0)]).when({ type: 'ConfigureAutoTopoff', userId: 'u1', enabled: true, packId: '5', threshold: 5 })(), [topoffOn('5', 5)]);
    assert.throws(given([opened(0)]).when({ type: 'ConfigureAutoTopoff', userId: 'u1', enabled: true, packId: '5', threshold: 6 }), isStatus(400, /at most 5, the credits of the Starter pack/));
    // An account set to 1000 with the 5-credit pack before: a balance of 5 no longer asks for a pack.
    const { state } = given([opened(5), topoffOn('5', 1000)]);
    assert.equal(topoffNeeded(state, 1, 'demo:x:v1'), null);
    assert.equal(topoffNeeded({ ...state, balance: 4 }, 1, 'demo:x:v1'), '5');
  });

  it('buys a pack for its credits', () => {
    const [event] = given([opened(2)]).when({ type: 'PurchasePack', userId: 'u1', transactionId: 'p1', packId: '50', paymentReference: 'grant:p1' })();
    assert.equal(event!.type, 'CreditsPurchased');
    assert.deepEqual([(event!.data as { amount: number }).amount, (event!.data as { balanceAfter: number }).balanceAfter], [50, 52]);
  });
});

describe('prices', () => {
  it('costs 1 credit per started 10 seconds', () => {
    assert.deepEqual([priceOf('5s'), priceOf('10s'), priceOf('30s')], [1, 1, 3]);
  });

  it('sells four packs, cheaper per credit as they grow, one of them popular', () => {
    assert.deepEqual(
      packs.map((p) => [p.id, p.credits, p.price, p.perCredit, p.savings]),
      [['5', 5, 5, 1, 0], ['20', 20, 18, 0.9, 10], ['50', 50, 40, 0.8, 20], ['100', 100, 70, 0.7, 30]],
    );
    assert.equal(packs.filter((p) => p.popular).length, 1);
    assert.ok(packs.every((p) => p.label.length > 0));
  });

  describe('a refunded or disputed payment (issue 58)', () => {
    const purchased: CreditEvent = {
      type: 'CreditsPurchased',
      data: { userId: 'u1', transactionId: 'p1', amount: 20, balanceAfter: 20, description: 'Bought', packId: '20', priceCents: 1800, paymentReference: 'cs_1', paymentIntentId: 'pi_1' },
    };
    const adjust = (cause: 'refund' | 'dispute' | 'dispute_closed', totals: { refundedCredits?: number; disputedCredits?: number }): CreditCommand => ({
      type: 'AdjustPaymentCredits', userId: 'u1', transactionId: 'r1', paymentReference: 'cs_1', reference: 'stripe:evt_1', cause, ...totals,
    });
    const after = (events: CreditEvent[], command: CreditCommand) => {
      const decided = given(events).when(command)();
      return { decided, state: [...events, ...decided].reduce<CreditState>(creditDecider.evolve, creditDecider.initialState()) };
    };

    it('takes the credits back below zero once spent, and then refuses every charge saying why, even with auto top-off on', () => {
      const { decided, state } = after([opened(0), purchased, charged('demo:a:v1', 18, 2), topoffOn('100', 5)], adjust('dispute', { disputedCredits: 20 }));
      assert.deepEqual(decided.map((e) => [e.type, 'amount' in e.data ? e.data.amount : null, 'balanceAfter' in e.data ? e.data.balanceAfter : null]), [['CreditsTakenBack', -20, -18]]);
      assert.equal(state.balance, -18);
      assert.equal(topoffNeeded(state, 1, 'demo:b:v1'), null, 'a debt is not paid by charging the disputed card off-session');
      assert.throws(() => creditDecider.decide(charge(1, 'demo:b:v1'), state), isStatus(429, /balance is -18, below zero because the credits of a refunded or disputed payment were taken back/));
    });

    it('counts a refund and a dispute of the same money once, and a dispute closed gives back only what no refund stands for', () => {
      const halfRefunded = after([opened(0), purchased], adjust('refund', { refundedCredits: 10 }));
      assert.equal(halfRefunded.state.balance, 10);
      const disputed = after([opened(0), purchased, ...halfRefunded.decided], adjust('dispute', { disputedCredits: 20 }));
      assert.equal(disputed.state.balance, 0, 'the dispute takes only the 10 the refund left');
      const won = after([opened(0), purchased, ...halfRefunded.decided, ...disputed.decided], adjust('dispute_closed', { disputedCredits: 0 }));
      assert.deepEqual(won.decided.map((e) => [e.type, 'amount' in e.data ? e.data.amount : null]), [['CreditsGivenBack', 10]]);
      assert.equal(won.state.balance, 10);
    });

    it('rounds a partial refund to the nearest whole credit, never lowers a refund, and ignores a payment it does not know', () => {
      assert.equal(after([opened(0), purchased], adjust('refund', { refundedCredits: 11.5 })).state.balance, 8);
      assert.equal(after([opened(0), purchased], adjust('refund', { refundedCredits: 11.49 })).state.balance, 9);
      const refunded = after([opened(0), purchased], adjust('refund', { refundedCredits: 12 }));
      assert.deepEqual(given([opened(0), purchased, ...refunded.decided]).when(adjust('refund', { refundedCredits: 5 }))(), []);
      assert.deepEqual(given([opened(0)]).when(adjust('refund', { refundedCredits: 20 }))(), []);
    });
  });
});
