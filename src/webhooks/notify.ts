import { inTransaction } from '../platform/command.js';
import type { Queryable, Sql, Tx } from '../platform/database.js';
import { newId } from '../platform/ids.js';
import { enqueueJob } from '../platform/jobs.js';
import type { WebhookEventType } from './events.js';

/** The graphile-worker task that makes one attempt at one delivery (deliver.ts). */
export const WEBHOOK_DELIVER_TASK = 'webhook_deliver';
/**
 * graphile-worker's own retries of an attempt that threw (the database away, the worker killed mid-attempt): the
 * schedule of retries after a receiver's failure is ours (retry-schedule.ts), each a new job.
 */
export const DELIVERY_JOB_MAX_ATTEMPTS = 5;

export interface DemoWebhookEvent {
  projectId: string;
  demoId: string;
  type: WebhookEventType;
  /** the event's own fields (snake_case, as the rest of the body); `data.project_id` and `data.demo_id` are always the two above */
  data: Record<string, unknown>;
}

/**
 * Queues one delivery of the event to every endpoint of the project subscribed to its type, in the caller's
 * transaction when `db` is one (the event is sent if and only if what it reports commits), else in one of its
 * own. Every endpoint gets the same body, with one event id (`evt_…`) receivers dedupe on: delivery is at least
 * once. Returns the event id and how many deliveries were queued (0, and nothing written, without subscribers).
 *
 * The body: `{id, type, created_at, data: {project_id, demo_id, ...data}}`.
 */
export async function notifyDemoWebhooks(db: Queryable, event: DemoWebhookEvent): Promise<{ eventId: string; deliveries: number }> {
  if (!isTransaction(db)) return inTransaction(db, (tx) => notifyDemoWebhooks(tx, event));
  const eventId = `evt_${newId()}`;
  const body = JSON.stringify({
    id: eventId,
    type: event.type,
    created_at: new Date().toISOString(),
    data: { ...event.data, project_id: event.projectId, demo_id: event.demoId },
  });
  // The id of a delivery is minted in SQL (one per subscribed endpoint, one statement): gen_random_uuid is v4, and
  // a delivery id is never a B-tree's hot edge the way stream ids are.
  const deliveries = await db<{ id: string }[]>`
    insert into webhook_deliveries (id, endpoint_id, event_id, event_type, body, status)
    select gen_random_uuid()::text, e.id, ${eventId}, ${event.type}, ${body}, 'pending'
    from webhook_endpoints e
    where e.project_id = ${event.projectId} and ${event.type} = any(e.events)
    returning id`;
  for (const { id } of deliveries) await enqueueJob(db, WEBHOOK_DELIVER_TASK, { deliveryId: id }, { maxAttempts: DELIVERY_JOB_MAX_ATTEMPTS });
  return { eventId, deliveries: deliveries.length };
}

/**
 * Only the pool can reserve a connection: a command's transaction (inTransaction: a reserved connection) and a
 * postgres.js `sql.begin` transaction cannot.
 */
function isTransaction(db: Queryable): db is Tx {
  return typeof (db as Partial<Sql>).reserve !== 'function';
}
