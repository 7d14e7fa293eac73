import { z } from 'zod';
import { refreshSchedules, viewports } from './events.js';
import { singleLineName } from '../platform/validation.js';
import { siteAccessInput, siteAccessSchema } from './site-access.js';

export const projectName = singleLineName(100);
export const projectUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const projectSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  url: z.string(),
  viewport: z.enum(viewports),
  refresh_schedule: z.enum(refreshSchedules),
  webhook_secret: z.string().nullable(),
  // Issue 56 (an addition to the interface, docs/decisions.md): what the recorder signs in with, as a summary only
  // (never a password or a cookie's value), and what a recording may do on the page.
  access: siteAccessSchema,
  recording: z.object({ allow_submit: z.boolean() }),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Issue 56: `recording` in create and update bodies. */
const recordingInput = z.object({ allow_submit: z.boolean() });

export const projectDemoSummarySchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  prompt: z.string(),
  status: z.string(),
  thumbnail_key: z.string().nullable(),
  snapshots: z.string().nullable(),
  video_key: z.string().nullable(),
  gif_key: z.string().nullable(),
  duration_ms: z.number().nullable(),
  format: z.string(),
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const createProjectInput = z.object({
  name: projectName,
  url: projectUrl,
  viewport: z.enum(viewports).default('desktop'),
  // Not in the spec's create body, but accepted: a user setting a schedule at creation expects it to stick.
  refresh_schedule: z.enum(refreshSchedules).default('manual'),
  access: siteAccessInput.optional(),
  recording: recordingInput.optional(),
});

export const updateProjectInput = z.object({
  id: z.string(),
  name: projectName.optional(),
  url: projectUrl.optional(),
  viewport: z.enum(viewports).optional(),
  refresh_schedule: z.enum(refreshSchedules).optional(),
  // null clears it; left out, it stays as it is.
  access: siteAccessInput.optional(),
  recording: recordingInput.optional(),
});

export const projectIdInput = z.object({ id: z.string().min(1) });
