import { z } from 'zod';

export const keyTypes = ['live', 'publishable'] as const;
export type KeyType = (typeof keyTypes)[number];

export const keyEventSchemas = {
  // The plaintext key is never in an event: only its SHA-256 and a display prefix.
  ApiKeyCreated: z.object({
    keyId: z.string(),
    userId: z.string(),
    name: z.string(),
    type: z.enum(keyTypes),
    projectId: z.string().nullable(),
    allowedDomains: z.array(z.string()).nullable(),
    keyHash: z.string(),
    prefix: z.string(),
  }),
  // The key stops working at once (its read-model row goes); the stream keeps its history (issue 13).
  ApiKeyRevoked: z.object({ keyId: z.string(), userId: z.string() }),
};

export type KeyEvent =
  | { type: 'ApiKeyCreated'; data: z.infer<typeof keyEventSchemas.ApiKeyCreated> }
  | { type: 'ApiKeyRevoked'; data: z.infer<typeof keyEventSchemas.ApiKeyRevoked> };

export const keyStream = (keyId: string) => `apikey-${keyId}`;
