import type { Queryable } from '../platform/database.js';

export async function findCustomerId(sql: Queryable, userId: string, provider: 'stripe'): Promise<string | null> {
  const [row] = await sql<{ customer_id: string }[]>`select customer_id from payment_customers where user_id = ${userId} and provider = ${provider}`;
  return row?.customer_id ?? null;
}

export interface HandledPaymentEvent {
  event_id: string;
  event_type: string;
  user_id: string | null;
  outcome: string;
  received_at: Date;
}

export async function findHandledEvent(sql: Queryable, provider: 'stripe', eventId: string): Promise<HandledPaymentEvent | null> {
  const [row] = await sql<HandledPaymentEvent[]>`select event_id, event_type, user_id, outcome, received_at from payment_events where provider = ${provider} and event_id = ${eventId}`;
  return row ?? null;
}
