import { z } from 'zod';
import { presentationInputSchema, templateIds } from '../demos/index.js';

/** Spec Embeds and Limits: the body of POST /embed/generate. Unknown members are ignored. */
export const embedContextSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2048).optional(),
  title: z.string().max(200).optional(),
  headings: z.array(z.string().max(200)).optional(),
  description: z.string().max(500).optional(),
});

export const embedTemplate = z.enum(['auto', ...templateIds]);
export const embedSection = z.string().trim().min(1).max(120);
export const embedPrompt = z.string().trim().min(1).max(500);

export const generateEmbedInput = z.object({
  // "required in effect": checked first so its 400 is the one a caller sees.
  project_id: z.string().min(1),
  prompt: embedPrompt.optional(),
  template: embedTemplate.optional(),
  section: embedSection.optional(),
  presentation: presentationInputSchema.optional(),
  context: embedContextSchema.optional(),
});

export type GenerateEmbedInput = z.infer<typeof generateEmbedInput>;
export type EmbedContext = z.infer<typeof embedContextSchema>;
