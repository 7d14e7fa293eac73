import { z } from 'zod';
import { findProjectById, findVisibleProject } from '../projects/index.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../platform/errors.js';
import { constantTimeEqual } from '../platform/secrets.js';
import { authedProcedure, eventMetadata, PUBLISHABLE_KEY_REFUSED, publicProcedure, router } from '../platform/trpc.js';
import { forceParameter } from './force-parameter.js';
import { refreshProjectDemos } from './project-refresh.js';

export const projectRefreshRouter = router({
  refreshProject: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/projects/{id}/refresh', tags: ['Projects'], protect: true, summary: 'Re-record every ready generated demo of a project', errorResponses: [401, 403, 404, 429] } })
    .input(z.object({ id: z.string().min(1) }))
    .output(z.object({ queued: z.number(), jobs: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => {
      if (!(await findVisibleProject(ctx.sql, ctx.principal, input.id))) throw new NotFoundError('Project');
      const jobs = await refreshProjectDemos(ctx.sql, input.id, 'project', eventMetadata(ctx));
      return { queued: jobs.length, jobs: jobs.map((j) => j.jobId) };
    }),

  /** Inbound deploy webhook: `X-Webhook-Secret` (compared in constant time) or the owner's live key. */
  webhookRefresh: publicProcedure
    .meta({
      openapi: {
        method: 'POST', path: '/webhooks/projects/{projectId}/refresh', tags: ['Webhooks'],
        summary: 'Refresh a project from a deployment pipeline',
        description: 'Each ready demo is re-recorded only if what it shows changed on the page (else its refresh ends `unchanged`, with no charge); `?force=true` re-records regardless.',
        requestHeaders: z.object({ 'x-webhook-secret': z.string().optional() }),
        errorResponses: [401, 403, 404, 429],
      },
    })
    .input(z.object({ projectId: z.string().min(1) }))
    .output(z.object({ refreshed: z.number(), jobs: z.array(z.object({ demoId: z.string(), jobId: z.string() })) }))
    .mutation(async ({ ctx, input }) => {
      const force = forceParameter(ctx.query);
      const header = ctx.headers['x-webhook-secret'];
      const secret = Array.isArray(header) ? header[0] : header;
      if (secret) {
        // An unknown project and a wrong secret get the same answer: the webhook, open to anyone, must not tell
        // which project ids exist.
        const project = await findProjectById(ctx.sql, input.projectId);
        const expected = project?.webhook_secret_enc ? ctx.secrets.open(project.webhook_secret_enc) : null;
        if (expected === null || !constantTimeEqual(secret, expected)) throw new UnauthorizedError('The X-Webhook-Secret does not match this project.');
      } else {
        // A publishable key is a credential, just not one for this: 403, as on every other endpoint it cannot call.
        if (ctx.principal?.via === 'publishable') throw new ForbiddenError(PUBLISHABLE_KEY_REFUSED);
        if (!ctx.principal || ctx.principal.via !== 'live') {
          throw new UnauthorizedError('Send the project webhook secret in X-Webhook-Secret, or a live API key.');
        }
        if (!(await findVisibleProject(ctx.sql, ctx.principal, input.projectId))) throw new NotFoundError('Project');
      }
      const jobs = await refreshProjectDemos(ctx.sql, input.projectId, 'webhook', { ...eventMetadata(ctx), actor: ctx.principal?.userId ?? 'webhook' }, { force });
      return { refreshed: jobs.length, jobs };
    }),
});
