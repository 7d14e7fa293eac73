import { backgroundEventSchemas, backgroundsProjection } from './backgrounds/index.js';
import { creditEventSchemas, creditsProjection } from './credits/index.js';
import { registerEvents } from './platform/event-store/event-registry.js';
import { registerProjection } from './platform/projections.js';
import { demoEventSchemas, demosProjection } from './demos/index.js';
import { keyEventSchemas, keysProjection } from './keys/index.js';
import { paymentEventSchemas, paymentsProjection } from './payments/index.js';
import { projectEventSchemas, projectsProjection } from './projects/index.js';
import { userEventSchemas, usersProjection } from './users/index.js';
import { webhookEventSchemas, webhooksProjection } from './webhooks/index.js';

/**
 * The composition of the domain: every module's events and inline projections, declared in one place so the
 * server, the worker, the CLI and scripts/replay all see the same set.
 */
export function registerDomain(): void {
  registerEvents(userEventSchemas);
  registerEvents(keyEventSchemas);
  registerEvents(projectEventSchemas);
  registerEvents(creditEventSchemas);
  registerEvents(demoEventSchemas);
  registerEvents(backgroundEventSchemas);
  registerEvents(paymentEventSchemas);
  registerEvents(webhookEventSchemas);
  registerProjection(usersProjection);
  registerProjection(keysProjection);
  registerProjection(projectsProjection);
  registerProjection(creditsProjection);
  registerProjection(demosProjection);
  registerProjection(backgroundsProjection);
  registerProjection(paymentsProjection);
  registerProjection(webhooksProjection);
}
