import type { Queryable } from '../platform/database.js';
import type { WebhookEventType } from './events.js';

export interface WebhookEndpointRecord {
  id: string;
  project_id: string;
  user_id: string;
  url: string;
  events: WebhookEventType[];
  secret_enc: string;
  created_at: Date;
  secret_rotated_at: Date | null;
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'refused';

export interface WebhookDeliveryRecord {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  response_excerpt: string | null;
  error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

/** A project's endpoints, oldest first. The caller has checked the project is visible to the principal. */
export function listProjectWebhooks(sql: Queryable, projectId: string): Promise<WebhookEndpointRecord[]> {
  return sql<WebhookEndpointRecord[]>`select * from webhook_endpoints where project_id = ${projectId} order by created_at, id`;
}

/** One endpoint, only through the project it belongs to (another project's id is not found). */
export async function findProjectWebhook(sql: Queryable, projectId: string, webhookId: string): Promise<WebhookEndpointRecord | null> {
  const [row] = await sql<WebhookEndpointRecord[]>`select * from webhook_endpoints where id = ${webhookId} and project_id = ${projectId}`;
  return row ?? null;
}

export async function countProjectWebhooks(sql: Queryable, projectId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from webhook_endpoints where project_id = ${projectId}`;
  return row?.count ?? 0;
}

/** The endpoints of a project subscribed to an event type. */
export function subscribedEndpoints(sql: Queryable, projectId: string, type: WebhookEventType): Promise<Array<{ id: string }>> {
  return sql<Array<{ id: string }>>`select id from webhook_endpoints where project_id = ${projectId} and ${type} = any(events) order by created_at, id`;
}

/** An endpoint's delivery log, newest first. */
export function listDeliveries(sql: Queryable, endpointId: string, limit: number): Promise<WebhookDeliveryRecord[]> {
  return sql<WebhookDeliveryRecord[]>`
    select * from webhook_deliveries where endpoint_id = ${endpointId} order by created_at desc, id desc limit ${limit}`;
}

/** A delivery with what its attempt needs of the endpoint; null when either is gone (the endpoint was deleted). */
export async function findDeliveryForAttempt(
  sql: Queryable,
  deliveryId: string,
): Promise<(WebhookDeliveryRecord & { url: string; secret_enc: string; project_id: string }) | null> {
  const [row] = await sql<Array<WebhookDeliveryRecord & { url: string; secret_enc: string; project_id: string }>>`
    select d.*, e.url, e.secret_enc, e.project_id
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
    where d.id = ${deliveryId}`;
  return row ?? null;
}
