import Stripe from 'stripe';

/**
 * The Stripe SDK, pointed at api.stripe.com, or at STRIPE_API_BASE (a local stand-in in tests: the SDK takes a
 * host, port and protocol). The secret key lives only in this object; it is never logged (the SDK's own request
 * events are not subscribed to, and errors are logged by their type and message, which carry no key).
 */
export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  const target = apiBase ? new URL(apiBase) : null;
  return new Stripe(secretKey, {
    // A purchase's calls are made while the buyer waits: bounded. Auto top-off calls are shorter still and not
    // retried (see TOPOFF_CALL in stripe-provider.ts): no request waits on them.
    timeout: 20_000,
    maxNetworkRetries: 2,
    telemetry: false,
    ...(target
      ? { host: target.hostname, port: target.port || (target.protocol === 'https:' ? 443 : 80), protocol: target.protocol === 'https:' ? ('https' as const) : ('http' as const) }
      : {}),
  });
}
