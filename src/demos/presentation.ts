import { z } from 'zod';
import type { Config } from '../platform/config.js';
import { ValidationError } from '../platform/errors.js';
import { CSS_COLOUR_HINT, isCssColour } from './css-colour.js';

/**
 * The spec's Presentation object, every member and bound (spec "Presentation" and "Limits"). Used by demo create,
 * restyle and embed generate; stored JSON-encoded on the demo.
 */
export const templateIds = [
  'cinematic', 'guided-tour', 'plain-scroll', 'section-focus', 'hero-spotlight',
  'feature-sweep', 'conversion-flow', 'pricing-focus', 'proof-scroll',
] as const;
export type TemplateId = (typeof templateIds)[number];

const sectionHint = z.string().min(1).max(120);

export const autoSelectionSchema = z.object({
  selectedId: z.enum(templateIds),
  sectionHint: sectionHint.optional(),
  confidence: z.number().min(0).max(1),
  reason: z.string().min(1).max(500),
  source: z.enum(['heuristic', 'ai', 'fallback']),
  signals: z.array(z.string().min(1).max(240)).max(8).optional(),
});

export const recordingTemplateSchema = z.object({
  id: z.enum(['auto', ...templateIds]),
  sectionHint: sectionHint.optional(),
  effectiveId: z.enum(templateIds).optional(),
  autoSelection: autoSelectionSchema.optional(),
});

const colour = z.string().min(1).max(50);

/**
 * Issue 59: the frames a demo is made in. 16:9 is the demo's own video, always made; each other one listed is a
 * variant of it composed from the same capture (no second recording), served at `?aspect=9x16` (or `1x1`).
 */
export const aspectRatios = ['16:9', '9:16', '1:1'] as const;
export type AspectRatio = (typeof aspectRatios)[number];
const aspectRatio = z.enum(aspectRatios);

/**
 * The frame of a demo's video in an aspect: 16:9 at the resolution's size (1920×1080, 1280×720); the others as wide as
 * that frame is tall (9:16 1080×1920, 1:1 1080×1080; 720 wide at 720p). The compositor and the API both read it here.
 */
export function aspectFrameSize(aspect: AspectRatio, resolution: '720p' | '1080p'): { width: number; height: number } {
  const short = resolution === '1080p' ? 1080 : 720;
  if (aspect === '16:9') return { width: (short * 16) / 9, height: short };
  if (aspect === '1:1') return { width: short, height: short };
  return { width: short, height: (short * 16) / 9 };
}

export const presentationSchema = z.object({
  background: z
    .union([
      z.string().min(1).max(200),
      z.object({ from: colour, to: colour, angle: z.number().min(-360).max(360).optional() }),
      z.object({ imageUrl: z.url({ protocol: /^https?$/ }).max(2048) }),
    ])
    .optional(),
  mockup: z.enum(['macos-light', 'macos-dark', 'minimal', 'none']).optional(),
  zoom: z
    .object({
      enabled: z.boolean(),
      intensity: z.number().min(1).max(3).optional(),
      transitionMs: z.number().min(100).max(2000).optional(),
    })
    .optional(),
  padding: z.number().min(0).max(0.3).optional(),
  cursor: z
    .object({
      style: z.enum(['dot', 'arrow', 'crosshair', 'circle', 'none']).optional(),
      color: z.string().max(50).optional(),
      size: z.number().min(8).max(64).optional(),
    })
    .optional(),
  clickEffect: z
    .object({
      style: z.enum(['pulse', 'ripple', 'glow', 'none']).optional(),
      color: z.string().max(50).optional(),
      scale: z.number().min(0.2).max(3).optional(),
    })
    .optional(),
  fade: z
    .object({
      inMs: z.number().min(0).max(3000).optional(),
      outMs: z.number().min(0).max(3000).optional(),
      color: z.enum(['black', 'white']).optional(),
    })
    .optional(),
  windowAnimation: z
    .object({
      intro: z.boolean().optional(),
      outro: z.boolean().optional(),
      introDurationMs: z.number().min(200).max(2000).optional(),
      outroDurationMs: z.number().min(200).max(2000).optional(),
    })
    .optional(),
  recordingTemplate: recordingTemplateSchema.optional(),
  // Issue 36: captions burned into the video (and its GIF); a restyle changes them without re-planning.
  captions: z
    .object({
      burnIn: z.boolean(),
      position: z.enum(['bottom', 'top']).optional(),
      style: z.enum(['pill', 'bar']).optional(),
    })
    .optional(),
  debugHud: z.boolean().optional(),
  // Issue 57: the video closes on a card with the product's name and a call to action; what is left out comes from
  // the page (its name, its address). A restyle turns it on or off without re-planning.
  endCard: z
    .object({
      enabled: z.boolean(),
      title: z.string().trim().min(1).max(80).optional(),
      ctaText: z.string().trim().min(1).max(40).optional(),
      ctaUrl: z.url({ protocol: /^https?$/ }).max(2048).optional(),
    })
    .optional(),
  // Issue 59: a voice reads one line per shot (the script written from the story beats); off when absent.
  narration: z
    .object({
      enabled: z.boolean(),
      voice: z.string().min(1).max(100).optional().describe('the speech engine’s voice (OpenAI: alloy, nova, onyx…; ElevenLabs: a voice id); default the engine’s own'),
      speed: z.number().min(0.7).max(1.2).optional().describe('speaking speed, 1 the voice’s own (default)'),
    })
    .optional()
    .describe('Issue 59: a voice reads one line per shot, from the page’s words (the script: GET /demos/{id}/narration); the shots lengthen where a line needs it and the captions follow the spoken words. Off when absent. Needs a speech engine on the server (400 otherwise).'),
  // Issue 59: one frame or several (16:9 is always made); a restyle adds or drops variants without re-planning.
  aspect: z.union([aspectRatio, z.array(aspectRatio).min(1).max(3)]).optional(),
});

export type Presentation = z.infer<typeof presentationSchema>;

/**
 * A presentation as a caller sends it (demo create, restyle, embed generate): its colours must be colours CSS
 * accepts, a 400 naming the member otherwise, rather than a video that silently shows the default (decisions,
 * "Presentation"). Stored presentations keep the lenient schema: events written before this check replay as they are.
 */
export const presentationInputSchema = presentationSchema.superRefine((presentation, ctx) => {
  const colours: Array<[Array<string>, string | undefined]> = [
    [['background'], typeof presentation.background === 'string' ? presentation.background : undefined],
    [['background', 'from'], typeof presentation.background === 'object' && 'from' in presentation.background ? presentation.background.from : undefined],
    [['background', 'to'], typeof presentation.background === 'object' && 'to' in presentation.background ? presentation.background.to : undefined],
    [['cursor', 'color'], presentation.cursor?.color],
    [['clickEffect', 'color'], presentation.clickEffect?.color],
  ];
  for (const [path, value] of colours) {
    if (value !== undefined && !isCssColour(value)) ctx.addIssue({ code: 'custom', path, message: `must be ${CSS_COLOUR_HINT}`, input: value });
  }
});

/**
 * Issue 59: a demo asked to be narrated on a server with no speech engine (SHOWREEL_SPEECH=none) is refused when it
 * is asked for (400), not recorded and failed later: nothing offline is shipped that speaks (decisions, "Narration").
 */
export function assertNarrationPossible(presentation: Presentation | null | undefined, config: Pick<Config, 'SHOWREEL_SPEECH'>): void {
  if (presentation?.narration?.enabled && config.SHOWREEL_SPEECH === 'none') {
    throw new ValidationError('presentation.narration: this server has no speech engine to narrate with (its operator sets SHOWREEL_SPEECH to openai or elevenlabs).');
  }
}

/** Issue 59: the variants a presentation asks for beside the video (16:9 unless said), each once, in the order written. */
export function aspectVariants(presentation: Presentation | null | undefined, video: AspectRatio = '16:9'): AspectRatio[] {
  return aspectsOf(presentation).filter((aspect) => aspect !== video);
}

/** The frames a presentation lists, each once, in the order written; [] when it lists none. */
export function aspectsOf(presentation: Presentation | null | undefined): AspectRatio[] {
  const asked = presentation?.aspect;
  return [...new Set(asked === undefined ? [] : typeof asked === 'string' ? [asked] : asked)];
}

/**
 * Issue 59: when a restyle changes nothing but the cuts, the cuts it adds (which a kept capture can make without
 * recording), else null. Compared member by member in any key order, the recording template aside (the planner's,
 * which a restyle cannot change); a look written differently but meaning the same counts as a change.
 */
export function cutsAddedOnly(before: Presentation | null, after: Presentation): AspectRatio[] | null {
  const look = (presentation: Presentation | null) => {
    const { aspect: _aspect, recordingTemplate: _template, ...rest } = presentation ?? {};
    return canonical(rest);
  };
  if (look(before) !== look(after)) return null;
  const had = new Set(aspectVariants(before));
  return aspectVariants(after).filter((aspect) => !had.has(aspect));
}

/** JSON with each object's keys in order and absent members left out: two writings of one value compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
