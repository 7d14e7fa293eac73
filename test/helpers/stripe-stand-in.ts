import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the Stripe SDK sent, as Stripe would have received it. */
export interface StripeCall {
  method: string;
  path: string;
  /** The form-encoded body (or the query of a GET), flattened as Stripe's own encoding: `metadata[pack]` → value. */
  params: Record<string, string>;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

/**
 * A local stand-in for api.stripe.com (no machine here reaches Stripe): it answers the few calls Showreel makes with
 * Stripe-shaped objects, and keeps every request so that a test can check what the SDK sent. `declineCards` makes
 * the off-session PaymentIntent fail as a declined card does (HTTP 402, a card_error).
 */
export async function startStripeStandIn() {
  const calls: StripeCall[] = [];
  // answerDelayMs: a slow Stripe, answering every call that long after it arrived (calls are kept on arrival).
  const state = { declineCards: false, savedCards: ['pm_card_visa_1'], customers: 0, sessions: 0, intents: 0, answerDelayMs: 0 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : body));
      const call: StripeCall = {
        method: req.method ?? '',
        path: url.pathname,
        params,
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      };
      calls.push(call);
      const [status, answer] = respond(call);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${calls.length}` });
        res.end(JSON.stringify(answer));
      };
      if (state.answerDelayMs > 0) setTimeout(send, state.answerDelayMs).unref();
      else send();
    });
  });

  function respond(call: StripeCall): [number, unknown] {
    if (call.method === 'POST' && call.path === '/v1/customers') {
      return [200, { id: `cus_standin_${++state.customers}`, object: 'customer', email: call.params.email ?? null, metadata: {} }];
    }
    if (call.method === 'POST' && call.path === '/v1/checkout/sessions') {
      const id = `cs_test_standin_${++state.sessions}`;
      return [200, { id, object: 'checkout.session', mode: 'payment', url: `https://checkout.stripe.com/c/pay/${id}`, payment_status: 'unpaid', customer: call.params.customer }];
    }
    const cards = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(call.path);
    if (call.method === 'GET' && cards) {
      const data = state.savedCards.map((id) => ({ id, object: 'payment_method', type: 'card', customer: cards[1] }));
      return [200, { object: 'list', data, has_more: false, url: call.path }];
    }
    if (call.method === 'POST' && call.path === '/v1/payment_intents') {
      if (state.declineCards) {
        return [402, { error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } }];
      }
      const amount = Number(call.params.amount);
      return [200, { id: `pi_standin_${++state.intents}`, object: 'payment_intent', status: 'succeeded', amount, amount_received: amount, currency: call.params.currency }];
    }
    return [404, { error: { type: 'invalid_request_error', message: `The stand-in does not know ${call.method} ${call.path}.` } }];
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    state,
    callsTo: (method: string, path: string | RegExp) => calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path))),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A call still waiting on a slowed answer would hold close() open.
        server.closeAllConnections();
      }),
  };
}
