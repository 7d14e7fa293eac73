import { z } from 'zod';
import { accountProcedure, router } from '../platform/trpc.js';
import { listUserBackgrounds } from './queries.js';
import { backgroundList } from './representation.js';

const tags = ['Backgrounds'];

const gradientSchema = z.object({ from: z.string(), to: z.string(), angle: z.number() });

const entrySchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(['catalog', 'upload']),
  kind: z.enum(['image', 'gradient']),
  imageUrl: z.string().describe('Loads publicly; usable as presentation.background.imageUrl'),
  background: z.union([z.object({ imageUrl: z.string() }), gradientSchema]).describe('A ready-to-use presentation.background value'),
  created_at: z.string().nullable().describe('Upload time; null for catalog entries'),
});

/** POST /backgrounds/upload is a multipart upload, served outside tRPC: src/http/uploads/background-upload.ts. */
export const backgroundsRouter = router({
  // The account's uploads: not for a project-scoped key.
  list: accountProcedure
    .meta({
      openapi: {
        method: 'GET', path: '/backgrounds', tags, protect: true,
        summary: 'Your uploaded backgrounds (newest first), then the built-in catalog', errorResponses: [401, 403],
      },
    })
    .input(z.void())
    .output(z.object({ backgrounds: z.array(entrySchema) }))
    .query(async ({ ctx }) => ({
      backgrounds: backgroundList(ctx.config.PUBLIC_URL, await listUserBackgrounds(ctx.sql, ctx.principal.userId)),
    })),
});
