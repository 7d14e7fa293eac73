import { z } from 'zod';

/** What the bytes of an uploaded background are, by their signature (never the client's Content-Type). */
export const imageFormats = ['png', 'jpeg', 'webp'] as const;
export type ImageFormat = (typeof imageFormats)[number];

export const backgroundEventSchemas = {
  BackgroundUploaded: z.object({
    backgroundId: z.string(),
    userId: z.string(),
    /** Display name, from the uploaded file's name. */
    name: z.string(),
    /** Storage key of the image. */
    key: z.string(),
    format: z.enum(imageFormats),
    sizeBytes: z.number().int().min(1),
  }),
};

export type BackgroundEvent = { type: 'BackgroundUploaded'; data: z.infer<typeof backgroundEventSchemas.BackgroundUploaded> };

/** One stream per owner: a user's backgrounds are one collection (the natural place for a future per-user cap). */
export const backgroundStream = (userId: string) => `backgrounds-${userId}`;
