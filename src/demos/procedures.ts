import { z } from 'zod';
import { inAccountTransaction, priceOf } from '../credits/index.js';
import { inTransaction } from '../platform/command.js';
import { inReadSnapshot } from '../platform/database.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { authedProcedure, eventMetadata, rateLimited, router } from '../platform/trpc.js';
import { findVisibleProject, visibleProjectPrecondition } from '../projects/index.js';
import { deleteDemo, queueDemoJob, requestDemo, updateDemo } from './commands.js';
import type { DurationTarget } from './events.js';
import { forceParameter } from './force-parameter.js';
import { aspectVariants, assertNarrationPossible, cutsAddedOnly, type Presentation, presentationInputSchema } from './presentation.js';
import { type DemoRecord, findJob, findVisibleDemo, listRefreshHistory, listVisibleDemos } from './queries.js';
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
      const fromCapture = restyleFromCapture(demo, input.presentation, forceParameter(ctx.query));
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

/**
 * Issue 59: whether a restyle is made from the shown version's kept capture: its presentation changes only the cuts
 * (`aspect`), and the capture is kept. Adding a cut to a version whose capture is not kept (made before captures
 * were, or uploaded) is a 409 that says so, unless `?force=true` asks to record it again.
 */
function restyleFromCapture(demo: DemoRecord, presentation: Presentation, force: boolean): boolean {
  // An upload has no script to restyle at all (decide.ts says so); a forced restyle records, as it always did.
  if (force || demo.source === 'upload') return false;
  const stored = storedPresentation(demo.presentation);
  const added = cutsAddedOnly(stored, presentation);
  if (added === null) return false;
  const changed = added.length > 0 || aspectVariants(stored).some((aspect) => !aspectVariants(presentation).includes(aspect));
  if (!changed) return false;
  // Burned-in captions are drawn by the browser for each cut's frame and camera: a cut made later, without one,
  // would lack them, so it is recorded again instead (asked for with ?force=true), never shown without them.
  if (added.length > 0 && presentation.captions?.burnIn) {
    throw new ConflictError(
      `This demo's captions are burned in, and a ${added.join(' and ')} cut made from the kept capture would have none. Restyle with ?force=true to record it again with the cut and its captions (${priceOf((demo.duration_target ?? '10s') as DurationTarget)} credit(s)).`,
    );
  }
  if (demo.capture_key) return true;
  if (added.length === 0) return false;
  throw new ConflictError(
    `This version's recording was made before captures were kept, so a ${added.join(' and ')} cut cannot be made from it without recording again. Restyle with ?force=true to record it again with the cut (${priceOf((demo.duration_target ?? '10s') as DurationTarget)} credit(s)).`,
  );
}

function storedPresentation(text: string | null): Presentation | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as Presentation;
  } catch {
    return null;
  }
}
