import { z } from 'zod';

export const viewports = ['desktop', 'mobile', 'tablet'] as const;
export const refreshSchedules = ['manual', 'daily', 'weekly', 'on-deploy'] as const;
export type Viewport = (typeof viewports)[number];
export type RefreshSchedule = (typeof refreshSchedules)[number];

// Secrets travel in events sealed (AES-256-GCM under the master key), never in plaintext.
const siteAccessSummary = z.object({
  kind: z.enum(['cookies', 'sign_in']),
  signInUrl: z.string().optional(),
  username: z.string().optional(),
  cookieCount: z.number().optional(),
});
const sealedSiteAccess = z.object({ summary: siteAccessSummary, sealedCredentials: z.string() });

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
    // Issue 56, given at creation (absent: false, and no access).
    allowSubmit: z.boolean().optional(),
    siteAccess: sealedSiteAccess.optional(),
  }),
  ProjectUpdated: z.object({
    projectId: z.string(),
    name: z.string().optional(),
    url: z.string().optional(),
    viewport: z.enum(viewports).optional(),
    refreshSchedule: z.enum(refreshSchedules).optional(),
    /** Issue 56: whether a recording may submit forms (`recording.allow_submit`). */
    allowSubmit: z.boolean().optional(),
  }),
  ProjectSigningSecretRotated: z.object({ projectId: z.string(), sealedSigningSecret: z.string() }),
  // Issue 56: how the recorder reaches the app behind a sign-in. The cookies or the password travel only sealed;
  // the summary (kind, sign-in URL, user name, cookie count) is what the owner is shown.
  ProjectSiteAccessSet: sealedSiteAccess.extend({ projectId: z.string() }),
  ProjectSiteAccessCleared: z.object({ projectId: z.string() }),
};

type Data<K extends keyof typeof projectEventSchemas> = z.infer<(typeof projectEventSchemas)[K]>;
export type ProjectEvent =
  | { type: 'ProjectCreated'; data: Data<'ProjectCreated'> }
  | { type: 'ProjectUpdated'; data: Data<'ProjectUpdated'> }
  | { type: 'ProjectSigningSecretRotated'; data: Data<'ProjectSigningSecretRotated'> }
  | { type: 'ProjectSiteAccessSet'; data: Data<'ProjectSiteAccessSet'> }
  | { type: 'ProjectSiteAccessCleared'; data: Data<'ProjectSiteAccessCleared'> };

export const projectStream = (projectId: string) => `project-${projectId}`;
