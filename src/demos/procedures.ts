import { z } from 'zod';
import { inAccountTransaction } from '../credits/index.js';
import { inTransaction } from '../platform/command.js';
import { inReadSnapshot } from '../platform/database.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { authedProcedure, eventMetadata, rateLimited, router } from '../platform/trpc.js';
import { findVisibleProject, visibleProjectPrecondition } from '../projects/index.js';
import { deleteDemo, queueDemoJob, requestDemo, updateDemo } from './commands.js';
import type { DurationTarget } from './events.js';
import { forceParameter } from './force-parameter.js';
import { assertNarrationPossible, presentationInputSchema } from './presentation.js';
import { findJob, findVisibleDemo, listRefreshHistory, listVisibleDemos } from './queries.js';
import { quoteRestyle } from './restyle-quote.js';
import { toDemo, toHistoryEntry, toLatestJob, toProgress } from './representation.js';
import {
  createDemoInput,
  demoIdInput,
  demoSchema,
  historyEntrySchema,
  jobAcceptedSchema,
  latestJobSchema,
  progressSchema,
  updateDemoInput,
} from './schemas.js';
import { demoUrls } from './urls.js';

const tags = ['Demos'];

export const demosRouter = router({
  create: authedProcedure
    .use(rateLimited('demo create'))
    .meta({
      openapi: { method: 'POST', path: '/demos', tags, protect: true, summary: 'Ask for a demo; generation runs in the background', errorResponses: [400, 401, 403, 404, 429] },
      successStatus: 202,
    })
    .input(createDemoInput)
    .output(z.object({ id: z.string(), status: z.literal('pending'), jobId: z.string(), pollUrl: z.string(), wsUrl: z.string() }))
    .mutation(async ({ ctx, input }) => {
      assertNarrationPossible(input.presentation, ctx.config);
      // A charge: in one of the account's turns, so that a burst of one account's demos waits here, not on pooled
      // connections that every other account needs (inAccountTransaction).
      const { demoId, jobId } = await inAccountTransaction(ctx.sql, ctx.principal.userId, (tx) =>
        requestDemo(
          tx,
          {
            projectId: input.project_id,
            userId: ctx.principal.userId,
            prompt: input.prompt,
            format: input.format,
            resolution: input.resolution,
            durationTarget: input.duration_target,
            mode: input.mode,
            presentation: input.presentation ?? null,
          },
          eventMetadata(ctx),
          // Checked in the transaction, inside the demo's first statement rather than a round trip before it.
          { projectVisible: visibleProjectPrecondition(tx, ctx.principal, input.project_id) },
        ),
      );
      const urls = demoUrls(ctx.config.PUBLIC_URL, demoId, input.format);
      return { id: demoId, status: 'pending' as const, jobId, pollUrl: urls.pollUrl, wsUrl: urls.wsUrl };
    }),

  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/demos', tags, protect: true, summary: 'List demos, optionally of one project', errorResponses: [400, 401, 403, 404] } })
    .input(z.object({ project_id: z.string().min(1).optional() }))
    .output(z.object({ demos: z.array(demoSchema) }))
    .query(async ({ ctx, input }) => {
      if (input.project_id !== undefined && !(await findVisibleProject(ctx.sql, ctx.principal, input.project_id))) {
        throw new NotFoundError('Project');
      }
      const demos = await listVisibleDemos(ctx.sql, ctx.principal, input.project_id ?? null);
      return { demos: demos.map((demo) => toDemo(demo, ctx.config.PUBLIC_URL)) };
    }),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/demos/{id}', tags, protect: true, summary: 'A demo with its latest job and refresh history', errorResponses: [401, 403, 404] } })
    .input(demoIdInput)
    .output(demoSchema.extend({ latestJob: latestJobSchema, refreshHistory: z.array(historyEntrySchema) }))
    .query(async ({ ctx, input }) => {
      // One snapshot: a refresh that ends between two separate reads showed "succeeded, version 6" in the history
      // beside a demo still at version 5.
      const { demo, job, history } = await inReadSnapshot(ctx.sql, async (tx) => {
        const demo = await findVisibleDemo(tx, ctx.principal, input.id);
        if (!demo) throw new NotFoundError('Demo');
        const [job, history] = await Promise.all([demo.latest_job_id ? findJob(tx, demo.latest_job_id) : null, listRefreshHistory(tx, demo.id)]);
        return { demo, job, history };
      });
      return {
        ...toDemo(demo, ctx.config.PUBLIC_URL),
        latestJob: toLatestJob(job),
        refreshHistory: history.map((entry) => toHistoryEntry(entry, ctx.config.PUBLIC_URL)),
      };
    }),

  progress: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/demos/{id}/progress', tags, protect: true, summary: 'Poll generation progress (pollUrl)', errorResponses: [401, 403, 404] } })
    .input(demoIdInput)
    .output(progressSchema)
    .query(async ({ ctx, input }) => {
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      return toProgress(demo, demo.latest_job_id ? await findJob(ctx.sql, demo.latest_job_id) : null);
    }),

  update: authedProcedure
    .meta({ openapi: { method: 'PATCH', path: '/demos/{id}', tags, protect: true, summary: 'Change the prompt, title or context of a demo', errorResponses: [400, 401, 403, 404] } })
    .input(updateDemoInput)
    .output(demoSchema)
    .mutation(async ({ ctx, input }) => {
      if (!(await findVisibleDemo(ctx.sql, ctx.principal, input.id))) throw new NotFoundError('Demo');
      await inTransaction(ctx.sql, (tx) =>
        updateDemo(tx, { demoId: input.id, userId: ctx.principal.userId, prompt: input.prompt, title: input.title, context: input.context }, eventMetadata(ctx)),
      );
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      return toDemo(demo, ctx.config.PUBLIC_URL);
    }),

  delete: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/demos/{id}', tags, protect: true, summary: 'Delete a demo and its media (its history stays)', errorResponses: [401, 403, 404] } })
    .input(demoIdInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      if (!(await findVisibleDemo(ctx.sql, ctx.principal, input.id))) throw new NotFoundError('Demo');
      await inTransaction(ctx.sql, (tx) => deleteDemo(tx, input.id, ctx.principal.userId, eventMetadata(ctx)));
      return { ok: true as const };
    }),

  refresh: authedProcedure
    .use(rateLimited('demo refresh'))
    .meta({
      openapi: {
        method: 'POST', path: '/demos/{id}/refresh', tags, protect: true, summary: 'Re-plan and re-record a demo',
        description: 'Always re-records, changed page or not (`?force=true` says so explicitly; scheduled and deploy-webhook refreshes check for changes first).',
        errorResponses: [400, 401, 403, 404, 409, 429],
      },
      successStatus: 202,
    })
    .input(demoIdInput)
    .output(jobAcceptedSchema)
    .mutation(async ({ ctx, input }) => {
      const force = forceParameter(ctx.query);
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      const job = await inAccountTransaction(ctx.sql, ctx.principal.userId, (tx) =>
        queueDemoJob(
          tx,
          { demoId: demo.id, userId: ctx.principal.userId, kind: 'refresh', triggeredBy: 'manual', durationTarget: (demo.duration_target ?? '10s') as DurationTarget, force },
          eventMetadata(ctx),
        ),
      );
      if (!job) throw new NotFoundError('Demo');
      // A job already in flight is answered as it is: a first generation still pending, a restyle recording.
      return { id: demo.id, status: job.queued ? 'refreshing' : demo.status, jobId: job.jobId };
    }),

  restyle: authedProcedure
    .use(rateLimited('demo restyle'))
    .meta({
      openapi: { method: 'POST', path: '/demos/{id}/restyle', tags, protect: true, summary: 'Re-record from the stored action script with a new presentation', errorResponses: [400, 401, 403, 404, 409, 429] },
      successStatus: 202,
    })
    .input(demoIdInput.extend({ presentation: presentationInputSchema }))
    .output(jobAcceptedSchema)
    .mutation(async ({ ctx, input }) => {
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      assertNarrationPossible(input.presentation, ctx.config);
      // Issue 59: a change of the cuts alone is made from the kept capture, free; a cut it cannot make is a 409.
      const quote = quoteRestyle({ ...demo, captureKept: Boolean(demo.capture_key) }, input.presentation, forceParameter(ctx.query));
      if (quote.refusal) throw new ConflictError(quote.refusal);
      const fromCapture = quote.fromCapture;
      const job = await inAccountTransaction(ctx.sql, ctx.principal.userId, (tx) =>
        queueDemoJob(
          tx,
          {
            demoId: demo.id, userId: ctx.principal.userId, kind: 'restyle', triggeredBy: 'restyle', presentation: input.presentation,
            durationTarget: (demo.duration_target ?? '10s') as DurationTarget, fromCapture,
          },
          eventMetadata(ctx),
        ),
      );
      if (!job) throw new NotFoundError('Demo');
      return { id: demo.id, status: 'recording', jobId: job.jobId };
    }),
});

