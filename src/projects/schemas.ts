import { z } from 'zod';
import { refreshSchedules, viewports } from './events.js';
import { singleLineName } from '../platform/validation.js';

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
  created_at: z.string(),
  updated_at: z.string(),
});

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
});

export const updateProjectInput = z.object({
  id: z.string(),
  name: projectName.optional(),
  url: projectUrl.optional(),
  viewport: z.enum(viewports).optional(),
  refresh_schedule: z.enum(refreshSchedules).optional(),
});

export const projectIdInput = z.object({ id: z.string().min(1) });
