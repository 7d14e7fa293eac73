import { sendAppendAndProject } from '../platform/command.js';
import type { Tx } from '../platform/database.js';
import { lockStream } from '../platform/event-store/lock-stream.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { paymentEventStream, paymentsStream } from './events.js';
import { findCustomerId, findHandledEvent, type HandledPaymentEvent } from './queries.js';

/**
 * Links the user to the provider's customer, once: a user who already has one keeps it (two purchases started at
 * once may each have asked Stripe for a customer; the idempotency key makes that one customer anyway). Returns the
 * customer id in use.
 */
export async function linkCustomer(tx: Tx, input: { userId: string; provider: 'stripe'; customerId: string }, metadata: EventMetadata): Promise<string> {
  const stream = paymentsStream(input.userId);
  await lockStream(tx, stream);
  const existing = await findCustomerId(tx, input.userId, input.provider);
  if (existing) return existing;
  const [row] = await tx<{ version: number }[]>`select coalesce(max(stream_version), 0)::int as version from events where stream_id = ${stream}`;
  await sendAppendAndProject(tx, stream, row?.version ?? 0, [{ type: 'PaymentCustomerLinked', data: input }], metadata).written;
  return input.customerId;
}

/**
 * Runs `handle` for a provider event unless that event was handled before, and records it as handled in the same
 * transaction: either the credits and the record commit together, or neither (and the provider delivers again).
 * The event's stream lock makes two deliveries of one event at once wait for each other; the second then finds
 * the first's record. Returns the earlier record for a replay.
 */
export async function handleOnce(
  tx: Tx,
  event: { provider: 'stripe'; eventId: string; eventType: string },
  metadata: EventMetadata,
  handle: () => Promise<{ userId: string | null; outcome: string }>,
): Promise<{ replayed: true; earlier: HandledPaymentEvent } | { replayed: false; outcome: string }> {
  const stream = paymentEventStream(event.provider, event.eventId);
  await lockStream(tx, stream);
  const earlier = await findHandledEvent(tx, event.provider, event.eventId);
  if (earlier) return { replayed: true, earlier };
  const { userId, outcome } = await handle();
  // Version 0: should the stream exist after all (a read model behind its log), the append refuses.
  await sendAppendAndProject(tx, stream, 0, [{ type: 'PaymentEventHandled', data: { ...event, userId, outcome } }], metadata).written;
  return { replayed: false, outcome };
}
