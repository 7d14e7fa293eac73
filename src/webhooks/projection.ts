import type { Tx } from '../platform/database.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { WebhookEvent } from './events.js';

export const webhooksProjection: Projection = {
  name: 'webhook_endpoints',
  tables: ['webhook_endpoints'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as WebhookEvent & RecordedEvent;
    switch (event.type) {
      case 'WebhookEndpointCreated': {
        const d = event.data;
        await tx`
          insert into webhook_endpoints (id, project_id, user_id, url, events, secret_enc, created_at)
          values (${d.webhookId}, ${d.projectId}, ${d.userId}, ${d.url}, ${d.events}::text[], ${d.sealedSecret}, ${stored.createdAt})`;
        return;
      }
      case 'WebhookSecretRotated':
        await tx`update webhook_endpoints set secret_enc = ${event.data.sealedSecret}, secret_rotated_at = ${stored.createdAt} where id = ${event.data.webhookId}`;
        return;
      case 'WebhookEndpointDeleted':
        // The delivery log goes with its endpoint; a delivery job still queued finds no row and ends (deliver.ts).
        await tx`delete from webhook_endpoints where id = ${event.data.webhookId}`;
        await tx`delete from webhook_deliveries where endpoint_id = ${event.data.webhookId}`;
        return;
    }
  },
};
