import { noPaymentsProvider, type PaymentProvider } from '../credits/index.js';
import type { Config } from '../platform/config.js';
import type { Sql } from '../platform/database.js';
import type { Logger } from '../platform/logger.js';
import { createStripeClient } from './stripe-client.js';
import { createStripeProvider } from './stripe-provider.js';
import { createStripeWebhook, type StripeWebhook } from './stripe-webhook.js';

export interface Payments {
  provider: PaymentProvider;
  /** The Stripe webhook's handler; null when this service takes no Stripe payments (the endpoint is then a 404). */
  stripeWebhook: StripeWebhook | null;
}

/** SHOWREEL_PAYMENTS: `none` (the default) sells nothing; `stripe` (its keys were required by loadConfig). */
export function createPayments(config: Config, sql: Sql, logger: Logger): Payments {
  if (config.SHOWREEL_PAYMENTS !== 'stripe') return { provider: noPaymentsProvider, stripeWebhook: null };
  const stripe = createStripeClient(config.STRIPE_SECRET_KEY!, config.STRIPE_API_BASE);
  const paymentsLogger = logger.child({ payments: 'stripe' });
  logger.info({ apiBase: config.STRIPE_API_BASE ?? 'https://api.stripe.com' }, 'payments: Stripe');
  return {
    // PUBLIC_URL may be filled in once the server knows its port: read it when a checkout is made.
    provider: createStripeProvider({ stripe, sql, logger: paymentsLogger, publicUrl: () => config.PUBLIC_URL }),
    stripeWebhook: createStripeWebhook({ stripe, webhookSecret: config.STRIPE_WEBHOOK_SECRET!, sql, logger: paymentsLogger }),
  };
}
