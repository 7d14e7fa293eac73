import { z } from 'zod';
import { durationTargets, formats, modes, resolutions } from './events.js';
import { demoPhases, PHASE_DESCRIPTION } from './phase.js';
import { aspectRatios, presentationInputSchema } from './presentation.js';

const phase = z.enum(demoPhases).describe(PHASE_DESCRIPTION);

export const demoPrompt = z.string().trim().min(1).max(500);
export const demoTitleInput = z.string().trim().min(1).max(120);

export const createDemoInput = z.object({
  project_id: z.string().min(1),
  prompt: demoPrompt,
  format: z.enum(formats).default('mp4'),
  resolution: z.enum(resolutions).default('1080p'),
  duration_target: z.enum(durationTargets).default('10s'),
  presentation: presentationInputSchema.optional(),
  mode: z.enum(modes).default('script'),
});

export const updateDemoInput = z.object({
  id: z.string().min(1),
  prompt: demoPrompt.optional(),
  // Issue 35: a generated demo is named from its prompt and section; its owner may rename it (docs/decisions.md).
  title: demoTitleInput.optional(),
  context: z.string().max(2000).nullable().optional(),
});

export const demoIdInput = z.object({ id: z.string().min(1) });

/**
 * Issue 59: an aspect variant as the API shows it: what it is and where to get it, never where it is stored (the
 * demo's own `video_key` etc. are the spec's; a variant's keys are not shown).
 */
export const variantSchema = z.object({
  aspect: z.enum(aspectRatios).describe('the frame: `9:16` (vertical) or `1:1` (square)'),
  format: z.enum(['mp4', 'webm']).describe('the video\'s container, the demo\'s `format`'),
  width: z.number().int().describe('the video\'s width in pixels: 1080 (720 at 720p)'),
  height: z.number().int().describe('the video\'s height in pixels: 1920 for 9:16, 1080 for 1:1 (1280, 720 at 720p)'),
  duration_ms: z.number().nullable().describe('the video\'s length, the 16:9 video\'s (the same timeline)'),
  video_url: z.string().describe('`/video/{id}.{format}?aspect=9x16`'),
  gif_url: z.string().nullable().describe('`/gif/{id}.gif?aspect=9x16`'),
  thumbnail_url: z.string().nullable().describe('`/thumb/{id}.png?aspect=9x16`'),
});

export const demoSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  prompt: z.string(),
  status: z.string(),
  phase,
  title: z.string().nullable(),
  action_script: z.string().nullable(),
  ai_plan: z.string().nullable(),
  snapshots: z.string().nullable(),
  video_key: z.string().nullable(),
  gif_key: z.string().nullable(),
  thumbnail_key: z.string().nullable(),
  duration_ms: z.number().nullable(),
  recording_log: z.string().nullable(),
  format: z.enum(formats),
  resolution: z.enum(resolutions),
  duration_target: z.string().nullable(),
  context: z.string().nullable(),
  context_hash: z.string().nullable().optional(),
  presentation: z.string().nullable(),
  version: z.number(),
  error: z.string().nullable(),
  source: z.enum(['generated', 'upload']),
  capture_kept: z
    .boolean()
    .describe('Issue 59: whether the shown version’s recording (its capture) is kept, so a 9:16 or 1:1 cut added by a restyle is made from it without recording again, at no credit. False for uploads and versions made before captures were kept.'),
  created_at: z.string(),
  updated_at: z.string(),
  refreshed_at: z.string().nullable(),
  chapters: z
    .array(z.object({ title: z.string(), start_ms: z.number(), end_ms: z.number() }))
    .describe(
      'Issue 36: one chapter per story beat of the shown version (the opening, each framed section, the ending), titled in the page’s words and timed by the recording. Also WebVTT at `/chapters/{id}.vtt` (`?v=N` for a kept version). Empty for uploads and demos recorded before chapters existed.',
    ),
  captions: z
    .object({
      count: z.number().describe('how many captions the video has (WebVTT at `/captions/{id}.vtt`)'),
      language: z.string().nullable().describe('the page’s language (`<html lang>`), which captions follow'),
      off_reason: z.string().nullable().describe('why there are no captions (a page in another language and no model planner), else null'),
      source: z
        .enum(['model', 'rules', 'mixed'])
        .nullable()
        .describe(
          'who wrote the captions: `model` (the model planner, in the page’s language), `rules` (the offline rules, English only), `mixed` (the model’s, with the ones that failed the checks replaced by the rules’); null when there are none',
        ),
    })
    .nullable()
    .describe('Issue 36: the shown version’s captions; null for uploads and demos recorded before captions existed.'),
  narration: z
    .object({
      engine: z.string().describe('the speech engine that spoke it: `openai` (an OpenAI-compatible `/audio/speech` endpoint) or `elevenlabs`'),
      voice: z.string().describe('the voice it was spoken in'),
      speed: z.number().describe('the speaking speed (1 is the voice’s own)'),
      lines: z
        .array(z.object({ chapter: z.string(), text: z.string(), start_ms: z.number(), end_ms: z.number() }))
        .describe('each spoken line, in order: the chapter (shot) it is said over, its words, and when it starts and ends in the video; the captions show these words while they are said'),
      unsaid: z
        .array(z.object({ chapter: z.string(), text: z.string(), reason: z.string() }))
        .describe('lines left unsaid because their shot was too short for them (a line is never cut off)'),
    })
    .nullable()
    .describe('Issue 59: the shown version’s narration (`presentation.narration`); null when it is not narrated.'),
  warnings: z
    .array(z.string())
    .describe(
      'Issue 55: what the prompt asked for that the page did not have, one sentence each, e.g. “Couldn’t find “the roadmap” on this page; the video shows the parts that were found.” Those of the shown version; empty when everything asked for was found, and for uploads and demos recorded before warnings existed.',
    ),
  variants: z
    .array(variantSchema)
    .describe(
      'Issue 59: the aspect variants of the shown version (9:16, 1:1), each composed from the same recording as the 16:9 video, as `presentation.aspect` asked; empty when none was. Each with its frame, format, length and public URLs (`/video/{id}.{format}?aspect=9x16`, `/gif/…`, `/thumb/…`).',
    ),
});

export const latestJobSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    step: z.string().nullable(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    error: z.string().nullable(),
  })
  .nullable();

export const historyEntrySchema = z.object({
  id: z.string(),
  triggered_by: z.string(),
  result: z.string(),
  old_version: z.number().nullable(),
  new_version: z.number().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  changes: z.array(z.string()).nullable().describe('What changed on the page since the version before, in words ("Pricing: Pro $12 → $15 per user", "New section: Integrations"); [] when nothing did; null when not known.'),
  checked_at: z.string().nullable().describe('When the page was compared with the version shown (a finished refresh).'),
  before_thumbnail_url: z.string().nullable().describe('Thumbnail of the version this refresh started from.'),
  after_thumbnail_url: z.string().nullable().describe('Thumbnail of the version it recorded; null when nothing was recorded.'),
  credits_charged: z.number().describe('What this run cost: charged when queued, 0 once refunded (it failed, or found nothing changed and recorded nothing).'),
  from_capture: z.boolean().describe('Issue 59: a restyle that only changed the cuts, made from the kept recording of the version before: nothing was recorded and nothing charged.'),
});

export const progressSchema = z.object({
  id: z.string(),
  status: z.string(),
  phase,
  step: z.string().nullable(),
  progress: z.number(),
  error: z.string().nullable(),
  updated_at: z.string(),
});

export const jobAcceptedSchema = z.object({ id: z.string(), status: z.string(), jobId: z.string() });
