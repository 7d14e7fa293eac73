import { z } from 'zod';
import { inTransaction } from '../platform/command.js';
import { NotFoundError } from '../platform/errors.js';
import { authedProcedure, eventMetadata, router } from '../platform/trpc.js';
import { restoreDemoVersion } from './commands.js';
import { findVisibleDemo, listDemoVersions } from './queries.js';
import { toDemo, variantsOf } from './representation.js';
import { demoSchema, variantSchema } from './schemas.js';
import { variantView } from './urls.js';

/**
 * A demo's versions (issue 35): each published recording keeps its media for the retention (SHOWREEL_VERSIONS_KEPT,
 * default the last 5, plus the one shown), addressable as `/video/<id>.<format>?v=N`, `/gif/<id>.gif?v=N` and
 * `/thumb/<id>.png?v=N`; an earlier one can be made current again without recording or charge.
 */
const tags = ['Demos'];

const versionSchema = z.object({
  version: z.number().describe('1 for the first recording, then one more for each refresh or restyle'),
  current: z.boolean().describe('whether this is the version the demo shows (its plain media URLs serve it)'),
  made_by: z.string().describe('generate, refresh, restyle or upload'),
  cut_from_version: z
    .number()
    .nullable()
    .describe('Issue 59: for a restyle that only changed the cuts, the version whose kept recording they were made from (nothing was recorded); null for a version recorded anew'),
  duration_ms: z.number(),
  kept: z.boolean().describe('false once its media were removed after newer versions (it can no longer be played or restored)'),
  video_url: z.string().nullable(),
  gif_url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  variants: z
    .array(variantSchema.extend({ video_url: z.string().nullable() }))
    .describe('Issue 59: the version’s vertical and square cuts (`?v=N&aspect=9x16`); null URLs once its media were removed'),
  created_at: z.string(),
});

// A path parameter, and POST bodies are never coerced (strict-body.ts): the version is checked as text.
const versionInput = z.object({ id: z.string().min(1), version: z.string().regex(/^[1-9]\d{0,6}$/, 'must be a version number (1, 2, …)') });

export const demoVersionsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET', path: '/demos/{id}/versions', tags, protect: true, summary: 'The versions of a demo, newest first, with their media URLs',
        description: 'Every published version of the demo. The media of the most recent ones (SHOWREEL_VERSIONS_KEPT, default 5) and of the current one stay available under `?v=N`; older ones are listed with `kept: false`.',
        errorResponses: [401, 403, 404],
      },
    })
    .input(z.object({ id: z.string().min(1) }))
    .output(z.object({ versions: z.array(versionSchema) }))
    .query(async ({ ctx, input }) => {
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      const base = ctx.config.PUBLIC_URL;
      const versions = await listDemoVersions(ctx.sql, demo.id);
      return {
        versions: versions.map((v) => {
          const kept = v.media_removed_at === null;
          const url = (path: string, key: string | null) => (kept && key ? `${base}${path}?v=${v.version}` : null);
          return {
            version: v.version, current: v.version === demo.version, made_by: v.job_kind, cut_from_version: v.cut_from_version, duration_ms: v.duration_ms, kept,
            video_url: url(`/video/${demo.id}.${demo.format}`, v.video_key), gif_url: url(`/gif/${demo.id}.gif`, v.gif_key),
            thumbnail_url: url(`/thumb/${demo.id}.png`, v.thumbnail_key),
            // Issue 59: as in the demo's detail; a version whose media are gone lists its cuts without addresses.
            variants: variantsOf(v.variants).map((variant) => {
              const view = variantView(base, demo, variant, v.duration_ms, v.version);
              return kept ? view : { ...view, video_url: null, gif_url: null, thumbnail_url: null };
            }),
            created_at: v.created_at.toISOString(),
          };
        }),
      };
    }),

  restore: authedProcedure
    .meta({
      openapi: {
        method: 'POST', path: '/demos/{id}/versions/{version}/restore', tags, protect: true, summary: 'Make an earlier version of a demo current again',
        description: 'The version’s stored media become the demo’s (share page, embeds, plain media URLs) and its look becomes the one a restyle starts from. Nothing is recorded and no credit is charged. 409 while a job of the demo runs, or when the version’s media are no longer kept.',
        errorResponses: [400, 401, 403, 404, 409],
      },
    })
    .input(versionInput)
    .output(demoSchema)
    .mutation(async ({ ctx, input }) => {
      if (!(await findVisibleDemo(ctx.sql, ctx.principal, input.id))) throw new NotFoundError('Demo');
      await inTransaction(ctx.sql, (tx) => restoreDemoVersion(tx, { demoId: input.id, userId: ctx.principal.userId, version: Number(input.version) }, eventMetadata(ctx)));
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      return toDemo(demo, ctx.config.PUBLIC_URL);
    }),
});
