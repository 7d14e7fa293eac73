import type { Decider } from '../platform/command.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import type { WebhookEvent } from './events.js';

export type WebhookState = { exists: false } | { exists: true; userId: string; projectId: string; deleted: boolean };

type CreatedData = Extract<WebhookEvent, { type: 'WebhookEndpointCreated' }>['data'];

/** Every command but creation names the project it came through: an endpoint is reached only through its project. */
export type WebhookCommand =
  | { type: 'CreateWebhookEndpoint'; endpoint: CreatedData }
  | { type: 'RotateWebhookSecret'; webhookId: string; projectId: string; userId: string; sealedSecret: string }
  | { type: 'DeleteWebhookEndpoint'; webhookId: string; projectId: string; userId: string };

export const webhookDecider: Decider<WebhookState, WebhookEvent, WebhookCommand> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'WebhookEndpointCreated':
        return { exists: true, userId: event.data.userId, projectId: event.data.projectId, deleted: false };
      case 'WebhookSecretRotated':
        return state;
      case 'WebhookEndpointDeleted':
        return state.exists ? { ...state, deleted: true } : state;
    }
  },
  decide(command, state) {
    if (command.type === 'CreateWebhookEndpoint') {
      if (state.exists) throw new ConflictError('This webhook endpoint already exists.');
      return [{ type: 'WebhookEndpointCreated', data: command.endpoint }];
    }
    // Another user's endpoint, one of another project, or one deleted: not found, and nothing said about which.
    if (!state.exists || state.deleted || state.userId !== command.userId || state.projectId !== command.projectId) {
      throw new NotFoundError('Webhook endpoint');
    }
    if (command.type === 'RotateWebhookSecret') {
      return [{ type: 'WebhookSecretRotated', data: { webhookId: command.webhookId, sealedSecret: command.sealedSecret } }];
    }
    return [{ type: 'WebhookEndpointDeleted', data: { webhookId: command.webhookId, projectId: command.projectId } }];
  },
};
