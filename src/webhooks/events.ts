import { z } from 'zod';

/** What an endpoint can subscribe to: a demo's job ended, or a change-aware refresh looked at its page (issue 37). */
export const webhookEventTypes = ['demo.ready', 'demo.failed', 'demo.changed', 'demo.unchanged'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

// The signing secret travels in events sealed (AES-256-GCM under the master key), never in plaintext.
export const webhookEventSchemas = {
  WebhookEndpointCreated: z.object({
    webhookId: z.string(),
    projectId: z.string(),
    userId: z.string(),
    url: z.string(),
    events: z.array(z.enum(webhookEventTypes)),
    sealedSecret: z.string(),
  }),
  WebhookSecretRotated: z.object({ webhookId: z.string(), sealedSecret: z.string() }),
  WebhookEndpointDeleted: z.object({ webhookId: z.string(), projectId: z.string() }),
};

type Data<K extends keyof typeof webhookEventSchemas> = z.infer<(typeof webhookEventSchemas)[K]>;
export type WebhookEvent =
  | { type: 'WebhookEndpointCreated'; data: Data<'WebhookEndpointCreated'> }
  | { type: 'WebhookSecretRotated'; data: Data<'WebhookSecretRotated'> }
  | { type: 'WebhookEndpointDeleted'; data: Data<'WebhookEndpointDeleted'> };

export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;
