import { z } from 'zod';

/**
 * The payments module's facts (issue 34). Credits themselves live in the credits ledger; this records who a user is
 * at the payment service, and which of its events were acted on.
 *
 * - `payments-<userId>`: PaymentCustomerLinked, the provider's customer of the user (Stripe: cus_…). An id, not a
 *   secret: it lets a second purchase and an off-session auto top-off use the same customer and saved card.
 * - `payment-event-<provider>-<eventId>`: PaymentEventHandled, once per provider event. A redelivered or replayed
 *   webhook finds its stream and adds nothing; being in the event store, this survives restarts and replays.
 */
export const paymentProviders = ['stripe'] as const;

export const paymentEventSchemas = {
  PaymentCustomerLinked: z.object({ userId: z.string(), provider: z.enum(paymentProviders), customerId: z.string().min(1) }),
  PaymentEventHandled: z.object({
    provider: z.enum(paymentProviders),
    eventId: z.string().min(1),
    eventType: z.string(),
    userId: z.string().nullable(),
    /** What was done: `credited 20`, `ignored: …`, `refused: …`. */
    outcome: z.string(),
  }),
};

type Data<K extends keyof typeof paymentEventSchemas> = z.infer<(typeof paymentEventSchemas)[K]>;
export type PaymentEvent = { [K in keyof typeof paymentEventSchemas]: { type: K; data: Data<K> } }[keyof typeof paymentEventSchemas];

export const paymentsStream = (userId: string) => `payments-${userId}`;
export const paymentEventStream = (provider: string, eventId: string) => `payment-event-${provider}-${eventId}`;
