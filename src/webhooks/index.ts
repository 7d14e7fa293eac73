/** Public entry of the outbound webhooks module (issue 37). */
export { webhookEventSchemas, webhookEventTypes, type WebhookEventType } from './events.js';
export { webhooksProjection } from './projection.js';
export { notifyDemoWebhooks, WEBHOOK_DELIVER_TASK, type DemoWebhookEvent } from './notify.js';
export { listProjectWebhooks, listDeliveries, type WebhookEndpointRecord, type WebhookDeliveryRecord } from './queries.js';
export { webhooksRouter } from './procedures.js';
export { webhookTasks, WEBHOOK_PRUNE_CRONTAB } from './tasks.js';
export { SIGNATURE_HEADER, EVENT_ID_HEADER, signatureOf } from './signature.js';
