import type { Tx } from '../platform/database.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { PaymentEvent } from './events.js';

export const paymentsProjection: Projection = {
  name: 'payments',
  tables: ['payment_customers', 'payment_events'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as PaymentEvent & RecordedEvent;
    if (event.type === 'PaymentCustomerLinked') {
      const d = event.data;
      await tx`
        insert into payment_customers (user_id, provider, customer_id, linked_at) values (${d.userId}, ${d.provider}, ${d.customerId}, ${stored.createdAt})
        on conflict (user_id) do update set provider = excluded.provider, customer_id = excluded.customer_id, linked_at = excluded.linked_at`;
    } else if (event.type === 'PaymentEventHandled') {
      const d = event.data;
      await tx`
        insert into payment_events (provider, event_id, event_type, user_id, outcome, received_at)
        values (${d.provider}, ${d.eventId}, ${d.eventType}, ${d.userId}, ${d.outcome}, ${stored.createdAt})`;
    }
  },
};
