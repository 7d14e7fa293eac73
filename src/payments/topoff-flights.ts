import type { PaymentResult } from '../credits/index.js';

/**
 * Auto top-off payments under way (issue 58): at most one provider call per account turn, and no charge ever waits
 * for one. The key is the payment's idempotency key (`auto_topoff:<user>:<turn>`, see lastAutoTopoffTurn), the
 * same for every charge that finds the balance low until the payment's webhook (or a failure, or a new setting)
 * moves the turn on.
 *
 * The first charge to ask starts the call and, like every other asking meanwhile, is answered at once: `pending`
 * (the credits come with the webhook). What the call answered is then remembered for a while, so that charges
 * after it are answered from memory, not by asking the provider again:
 * - pending (the PaymentIntent exists): until its webhook moves the turn on, or PENDING_MS at most;
 * - declined (the card's answer, also reported by the provider's payment_failed webhook): DECLINED_MS;
 * - the provider unreachable or too slow: RETRY_MS, after which the next charge asks again (same key: one payment).
 * Nothing retries on its own: a call is made only when a charge asks, so calls stop when nobody wants them.
 *
 * Per process. Several API processes may each make one call per turn; the idempotency key makes those one payment.
 */
export const PENDING_MS = 10 * 60_000;
export const DECLINED_MS = 5 * 60_000;
export const RETRY_MS = 30_000;

interface Flight {
  /** null while the call is under way */
  answer: PaymentResult | null;
  /** when the remembered answer stops counting (ms since the epoch); Infinity while the call is under way */
  expiresAt: number;
}

export function createTopoffFlights(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const flights = new Map<string, Flight>();

  function forget(at: number) {
    for (const [key, flight] of flights) if (flight.expiresAt <= at) flights.delete(key);
  }

  return {
    /**
     * The answer for `key`, at once: the remembered one, or `pending` while the call is under way (starting it when
     * none is). `call` must not throw for a payment's own reasons; anything it throws counts as unreachable.
     */
    ask(key: string, call: () => Promise<PaymentResult>): PaymentResult {
      const at = now();
      forget(at);
      const known = flights.get(key);
      if (known) return known.answer ?? { outcome: 'pending', reference: key };
      const flight: Flight = { answer: null, expiresAt: Infinity };
      flights.set(key, flight);
      call().then(
        (answer) => remember(flight, answer),
        () => remember(flight, UNREACHABLE),
      );
      return { outcome: 'pending', reference: key };
    },
    /** How many calls are under way now (for tests and logs). */
    underWay: () => [...flights.values()].filter((f) => f.answer === null).length,
  };

  function remember(flight: Flight, answer: PaymentResult) {
    flight.answer = answer;
    const unreachable = answer === UNREACHABLE;
    flight.expiresAt = now() + (unreachable ? RETRY_MS : answer.outcome === 'declined' ? DECLINED_MS : PENDING_MS);
  }
}

/** The provider did not answer in time, or failed on its side: no payment was made (or it is replayed later). */
export const UNREACHABLE: PaymentResult = {
  outcome: 'declined',
  reason: 'the payment service could not be reached; it is asked again in 30 seconds',
  retryAfterSeconds: RETRY_MS / 1000,
};

export type TopoffFlights = ReturnType<typeof createTopoffFlights>;
