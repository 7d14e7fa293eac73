import type { Task } from 'graphile-worker';
import { attemptDelivery, pruneDeliveryLog, type WebhookServices } from './deliver.js';
import { WEBHOOK_DELIVER_TASK } from './notify.js';

const WEBHOOK_PRUNE_TASK = 'webhook_deliveries_prune';
/** Daily, in UTC (graphile-worker crontab syntax). */
export const WEBHOOK_PRUNE_CRONTAB = `17 3 * * * ${WEBHOOK_PRUNE_TASK}`;

/** The worker's webhook tasks: one attempt at a delivery, and the delivery log's pruning. */
export function webhookTasks(services: WebhookServices): Record<string, Task> {
  return {
    [WEBHOOK_DELIVER_TASK]: async (payload) => {
      await attemptDelivery(services, (payload as { deliveryId: string }).deliveryId);
    },
    [WEBHOOK_PRUNE_TASK]: async () => {
      const deleted = await pruneDeliveryLog(services.sql);
      if (deleted > 0) services.logger.info({ deleted }, 'old webhook deliveries pruned');
    },
  };
}
