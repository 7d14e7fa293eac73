import { z } from 'zod';
import { aspectRatios, presentationSchema } from './presentation.js';

export const formats = ['mp4', 'webm'] as const;
export const resolutions = ['720p', '1080p'] as const;
export const durationTargets = ['5s', '10s', '30s'] as const;
export const modes = ['script', 'agent'] as const;
export const jobKinds = ['generate', 'refresh', 'restyle'] as const;
export const triggers = ['create', 'manual', 'project', 'schedule', 'webhook', 'restyle'] as const;
export type Format = (typeof formats)[number];
export type Resolution = (typeof resolutions)[number];
export type DurationTarget = (typeof durationTargets)[number];
export type JobKind = (typeof jobKinds)[number];
export type Trigger = (typeof triggers)[number];

/**
 * Terminology
 * - demo: one video of one project, re-recordable; `version` counts the recordings that completed.
 * - job: one run of the pipeline for a demo (generate, refresh or restyle), with our own id; graphile-worker
 *   carries it out. Its credits are charged when it is queued and refunded if it finally fails.
 */
const mediaOutcome = {
  videoKey: z.string(),
  gifKey: z.string().nullable(),
  thumbnailKey: z.string().nullable(),
  durationMs: z.number().int().min(0),
};

export const demoEventSchemas = {
  DemoRequested: z.object({
    demoId: z.string(),
    projectId: z.string(),
    userId: z.string(),
    prompt: z.string(),
    format: z.enum(formats),
    resolution: z.enum(resolutions),
    durationTarget: z.enum(durationTargets),
    mode: z.enum(modes),
    presentation: presentationSchema.nullable(),
    // Embeds: the page knowledge for the planner (JSON text) and the reuse key (spec Embeds "Reuse").
    context: z.string().nullable().optional(),
    contextHash: z.string().nullable().optional(),
    // The demo's first job (its generation), queued with it: one event where streams written before issue 14 have
    // this one and a DemoJobQueued of kind generate (both still replay to the same rows).
    firstJob: z.object({ jobId: z.string(), credits: z.number().int().min(0) }).optional(),
  }),
  DemoUploaded: z.object({
    demoId: z.string(),
    projectId: z.string(),
    userId: z.string(),
    jobId: z.string(),
    prompt: z.string(),
    title: z.string().nullable(),
    format: z.enum(formats),
    resolution: z.enum(resolutions),
    ...mediaOutcome,
  }),
  DemoJobQueued: z.object({
    demoId: z.string(),
    jobId: z.string(),
    kind: z.enum(jobKinds),
    triggeredBy: z.enum(triggers),
    credits: z.number().int().min(0),
    // Restyle carries the new presentation; the others re-use the demo's.
    presentation: presentationSchema.nullable().optional(),
    // A refresh that re-records whatever the page shows (`?force=true`); schedules and webhooks check first.
    force: z.boolean().optional(),
    // Issue 59: a restyle that only adds cuts, made from the shown version's kept capture (no recording, no credit).
    fromCapture: z.boolean().optional(),
  }),
  DemoJobStarted: z.object({ demoId: z.string(), jobId: z.string(), attempt: z.number().int().min(1) }),
  DemoJobProgressed: z.object({ demoId: z.string(), jobId: z.string(), step: z.string(), progress: z.number().min(0).max(1) }),
  DemoJobSucceeded: z.object({
    demoId: z.string(),
    jobId: z.string(),
    version: z.number().int().min(1),
    ...mediaOutcome,
    title: z.string().nullable().optional(),
    actionScript: z.string().nullable().optional(),
    aiPlan: z.string().nullable().optional(),
    snapshots: z.string().nullable().optional(),
    recordingLog: z.string().nullable().optional(),
    presentation: z.string().nullable().optional(),
    // Issue 37: the fingerprint of what this version shows (JSON, src/pipeline/fingerprint), and what changed on
    // the page since the version before, in a marketer's words.
    fingerprint: z.string().nullable().optional(),
    changes: z.array(z.string()).optional(),
    // Issue 36: the version's chapters and captions (JSON, TimedStory); absent before it and for restyles of old scripts.
    story: z.string().nullable().optional(),
    // Issue 55: the beats of the prompt the page did not have, in words; absent before it (a restyle keeps its plan's).
    warnings: z.array(z.string()).optional(),
    // Issue 59: the aspect variants made from the same recording; absent before it and when none was asked for.
    variants: z.array(z.object({ aspect: z.enum(aspectRatios), videoKey: z.string(), gifKey: z.string().nullable(), thumbnailKey: z.string().nullable() })).optional(),
    // Issue 59: where the version's capture is kept (a prefix), for cuts added later; absent when it is not kept.
    captureKey: z.string().optional(),
  }),
  // A scheduled or webhook refresh that found nothing the demo shows changed: no recording, its credits refunded.
  DemoRefreshUnchanged: z.object({ demoId: z.string(), jobId: z.string(), refundedCredits: z.number().int().min(0) }),
  DemoJobFailed: z.object({ demoId: z.string(), jobId: z.string(), error: z.string(), refundedCredits: z.number().int().min(0) }),
  DemoUpdated: z.object({ demoId: z.string(), prompt: z.string().optional(), title: z.string().optional(), context: z.string().nullable().optional() }),
  // Issue 59: the narration script as the user edited it (JSON array of {chapter, text}), null when reset.
  DemoNarrationScriptEdited: z.object({ demoId: z.string(), script: z.string().nullable() }),
  DemoAssetReplaced: z.object({ demoId: z.string(), asset: z.enum(['thumbnail', 'gif']), key: z.string() }),
  DemoDeleted: z.object({ demoId: z.string() }),
  // Versions (issue 35): an earlier version made current again, its media as they were stored (no recording, no
  // charge); and the media of versions past the retention removed by a job, after which they cannot be restored.
  DemoVersionRestored: z.object({
    demoId: z.string(),
    version: z.number().int().min(1),
    ...mediaOutcome,
    presentation: z.string().nullable(),
  }),
  DemoVersionsMediaRemoved: z.object({ demoId: z.string(), versions: z.array(z.number().int().min(1)) }),
};

type Data<K extends keyof typeof demoEventSchemas> = z.infer<(typeof demoEventSchemas)[K]>;
export type DemoEvent = { [K in keyof typeof demoEventSchemas]: { type: K; data: Data<K> } }[keyof typeof demoEventSchemas];

export const demoStream = (demoId: string) => `demo-${demoId}`;
