import { decideAndAppend } from '../platform/command.js';
import type { Tx } from '../platform/database.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { newId } from '../platform/ids.js';
import type { SecretBox } from '../platform/secrets.js';
import { webhookDecider } from './decide.js';
import { type WebhookEventType, webhookStream } from './events.js';
import { newWebhookSigningSecret } from './signature.js';

export interface CreateWebhookInput {
  projectId: string;
  userId: string;
  url: string;
  events: WebhookEventType[];
}

/** Registers an endpoint; its signing secret exists in plaintext only in this return value. */
export async function createWebhookEndpoint(tx: Tx, secrets: SecretBox, input: CreateWebhookInput, metadata: EventMetadata) {
  const webhookId = newId();
  const secret = newWebhookSigningSecret();
  await decideAndAppend(
    tx,
    webhookStream(webhookId),
    webhookDecider,
    { type: 'CreateWebhookEndpoint', endpoint: { webhookId, ...input, sealedSecret: secrets.seal(secret) } },
    metadata,
    { newStream: true },
  );
  return { webhookId, secret };
}

/** A new signing secret, effective for the next attempt of every delivery; the old one stops at once. */
export async function rotateWebhookSecret(
  tx: Tx,
  secrets: SecretBox,
  input: { webhookId: string; projectId: string; userId: string },
  metadata: EventMetadata,
): Promise<string> {
  const secret = newWebhookSigningSecret();
  await decideAndAppend(tx, webhookStream(input.webhookId), webhookDecider, { type: 'RotateWebhookSecret', ...input, sealedSecret: secrets.seal(secret) }, metadata);
  return secret;
}

export async function deleteWebhookEndpoint(tx: Tx, input: { webhookId: string; projectId: string; userId: string }, metadata: EventMetadata): Promise<void> {
  await decideAndAppend(tx, webhookStream(input.webhookId), webhookDecider, { type: 'DeleteWebhookEndpoint', ...input }, metadata);
}
