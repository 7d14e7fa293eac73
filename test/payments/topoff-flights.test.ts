import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentResult } from '../../src/credits/index.js';
import { createTopoffFlights, DECLINED_MS, PENDING_MS, RETRY_MS } from '../../src/payments/topoff-flights.js';

/** A provider call the test answers when it likes, counting how often it was made. */
function providerCall() {
  let answer: (result: PaymentResult) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const made = { count: 0 };
  const call = () => {
    made.count += 1;
    return new Promise<PaymentResult>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  };
  return { call, made, answer: (result: PaymentResult) => answer(result), fail: (error: Error) => fail(error) };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('auto top-off flights: one provider call per account turn, nobody waiting on it', () => {
  it('answers every ask at once with `pending` while one call is under way, then from what the call answered', async () => {
    let now = 0;
    const flights = createTopoffFlights({ now: () => now });
    const provider = providerCall();
    for (let i = 0; i < 30; i++) assert.deepEqual(flights.ask('auto_topoff:u1:3', provider.call), { outcome: 'pending', reference: 'auto_topoff:u1:3' });
    assert.equal(provider.made.count, 1);
    assert.equal(flights.underWay(), 1);

    provider.answer({ outcome: 'pending', reference: 'pi_1' });
    await settle();
    assert.deepEqual(flights.ask('auto_topoff:u1:3', provider.call), { outcome: 'pending', reference: 'pi_1' });
    now += PENDING_MS - 1;
    flights.ask('auto_topoff:u1:3', provider.call);
    assert.equal(provider.made.count, 1, 'a pending payment is not asked for again while its webhook is awaited');
    // A new turn (the webhook landed) is a new payment.
    flights.ask('auto_topoff:u1:4', provider.call);
    assert.equal(provider.made.count, 2);
  });

  it('remembers a declined card, and forgets an unreachable provider after RETRY_MS: only a new ask calls again', async () => {
    let now = 0;
    const flights = createTopoffFlights({ now: () => now });
    const declined = providerCall();
    flights.ask('auto_topoff:u2:1', declined.call);
    declined.answer({ outcome: 'declined', reason: 'Your card was declined.' });
    await settle();
    now += DECLINED_MS - 1;
    assert.deepEqual(flights.ask('auto_topoff:u2:1', declined.call), { outcome: 'declined', reason: 'Your card was declined.' });
    assert.equal(declined.made.count, 1);

    const unreachable = providerCall();
    flights.ask('auto_topoff:u3:1', unreachable.call);
    unreachable.fail(new Error('socket hang up'));
    await settle();
    const answer = flights.ask('auto_topoff:u3:1', unreachable.call);
    assert.equal(answer.outcome, 'declined');
    assert.match(answer.outcome === 'declined' ? answer.reason : '', /could not be reached/);
    assert.equal(answer.outcome === 'declined' ? answer.retryAfterSeconds : null, RETRY_MS / 1000);
    now += RETRY_MS + 1;
    await settle();
    assert.equal(unreachable.made.count, 1, 'nothing calls on its own');
    flights.ask('auto_topoff:u3:1', unreachable.call);
    assert.equal(unreachable.made.count, 2, 'the next ask after the pause calls again');
  });
});
