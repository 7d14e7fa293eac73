import { z } from 'zod';

export const viewports = ['desktop', 'mobile', 'tablet'] as const;
export const refreshSchedules = ['manual', 'daily', 'weekly', 'on-deploy'] as const;
export type Viewport = (typeof viewports)[number];
export type RefreshSchedule = (typeof refreshSchedules)[number];

// Secrets travel in events sealed (AES-256-GCM under the master key), never in plaintext.
export const projectEventSchemas = {
  ProjectCreated: z.object({
    projectId: z.string(),
    userId: z.string(),
    name: z.string(),
    url: z.string(),
    viewport: z.enum(viewports),
    refreshSchedule: z.enum(refreshSchedules),
    sealedSigningSecret: z.string(),
    sealedWebhookSecret: z.string(),
  }),
  ProjectUpdated: z.object({
    projectId: z.string(),
    name: z.string().optional(),
    url: z.string().optional(),
    viewport: z.enum(viewports).optional(),
    refreshSchedule: z.enum(refreshSchedules).optional(),
  }),
  ProjectSigningSecretRotated: z.object({ projectId: z.string(), sealedSigningSecret: z.string() }),
};

type Data<K extends keyof typeof projectEventSchemas> = z.infer<(typeof projectEventSchemas)[K]>;
export type ProjectEvent =
  | { type: 'ProjectCreated'; data: Data<'ProjectCreated'> }
  | { type: 'ProjectUpdated'; data: Data<'ProjectUpdated'> }
  | { type: 'ProjectSigningSecretRotated'; data: Data<'ProjectSigningSecretRotated'> };

export const projectStream = (projectId: string) => `project-${projectId}`;
