/** Public entry of the payments module (issue 34): the provider chosen by SHOWREEL_PAYMENTS and Stripe's webhook. */
export { paymentEventSchemas, paymentsStream, paymentEventStream } from './events.js';
export { paymentsProjection } from './projection.js';
export { createPayments, type Payments } from './create-payments.js';
export { findCustomerId, findHandledEvent } from './queries.js';
export type { WebhookAnswer, StripeWebhook } from './stripe-webhook.js';
