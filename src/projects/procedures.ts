import { z } from 'zod';
import { inTransaction } from '../platform/command.js';
import { assertPublicUrl } from '../platform/network/ssrf-guard.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import { authedProcedure, eventMetadata, router } from '../platform/trpc.js';
import { createProject, rotateSigningSecret, setSiteAccess, updateProject } from './commands.js';
import { openSiteAccess, siteAccessFromInput } from './site-access.js';
import { assertProjectUrlAnswers } from './url-reachability.js';
import { findVisibleProject, listProjectDemoSummaries, listVisibleProjects } from './queries.js';
import { toProject } from './representation.js';
import {
  createProjectInput,
  projectDemoSummarySchema,
  projectIdInput,
  projectSchema,
  updateProjectInput,
} from './schemas.js';

const tags = ['Projects'];
const signingSecretOutput = z.object({ signing_secret: z.string() });

export const projectsRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/projects', tags, protect: true, summary: 'List your projects', errorResponses: [401, 403] } })
    .input(z.void())
    .output(z.object({ projects: z.array(projectSchema.extend({ demo_count: z.number() })) }))
    .query(async ({ ctx }) => {
      const projects = await listVisibleProjects(ctx.sql, ctx.principal);
      return { projects: projects.map((p) => ({ ...toProject(p, ctx.secrets), demo_count: p.demo_count })) };
    }),

  create: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/projects', tags, protect: true, summary: 'Create a project', errorResponses: [400, 401, 403] },
      successStatus: 201,
    })
    .input(createProjectInput)
    .output(projectSchema.extend({ signing_secret: z.string() }))
    .mutation(async ({ ctx, input }) => {
      if (ctx.principal.projectId !== null) throw new ForbiddenError('A project-scoped API key cannot create projects.');
      await assertPublicUrl(input.url, { allowPrivate: ctx.config.SHOWREEL_ALLOW_PRIVATE_URLS, allowUnresolved: true, log: ctx.logger });
      const siteAccess = input.access ? siteAccessFromInput(input.access, null) : null;
      if (siteAccess?.kind === 'sign_in') await assertPublicUrl(siteAccess.url, { allowPrivate: ctx.config.SHOWREEL_ALLOW_PRIVATE_URLS, allowUnresolved: true, log: ctx.logger });
      if (ctx.config.SHOWREEL_CHECK_PROJECT_URLS) {
        await assertProjectUrlAnswers(input.url, { allowPrivate: ctx.config.SHOWREEL_ALLOW_PRIVATE_URLS, signsIn: siteAccess !== null, log: ctx.logger });
      }
      const { project, signingSecret } = await inTransaction(ctx.sql, (tx) =>
        createProject(
          tx,
          ctx.secrets,
          {
            userId: ctx.principal.userId, name: input.name, url: input.url, viewport: input.viewport, refreshSchedule: input.refresh_schedule,
            allowSubmit: input.recording?.allow_submit, siteAccess,
          },
          eventMetadata(ctx),
        ),
      );
      return { ...toProject(project, ctx.secrets), signing_secret: signingSecret };
    }),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/projects/{id}', tags, protect: true, summary: 'A project with its demos', errorResponses: [401, 403, 404] } })
    .input(projectIdInput)
    .output(projectSchema.extend({ demos: z.array(projectDemoSummarySchema) }))
    .query(async ({ ctx, input }) => {
      const project = await findVisibleProject(ctx.sql, ctx.principal, input.id);
      if (!project) throw new NotFoundError('Project');
      const demos = await listProjectDemoSummaries(ctx.sql, project.id);
      return {
        ...toProject(project, ctx.secrets),
        demos: demos.map((d) => ({ ...d, created_at: d.created_at.toISOString(), updated_at: d.updated_at.toISOString() })),
      };
    }),

  update: authedProcedure
    .meta({ openapi: { method: 'PATCH', path: '/projects/{id}', tags, protect: true, summary: 'Update a project', errorResponses: [400, 401, 403, 404] } })
    .input(updateProjectInput)
    .output(projectSchema)
    .mutation(async ({ ctx, input }) => {
      const current = await findVisibleProject(ctx.sql, ctx.principal, input.id);
      if (!current) throw new NotFoundError('Project');
      if (input.url !== undefined) await assertPublicUrl(input.url, { allowPrivate: ctx.config.SHOWREEL_ALLOW_PRIVATE_URLS, allowUnresolved: true, log: ctx.logger });
      // A sign-in recipe sent without a password keeps the stored one (a form that shows it only as "set").
      const siteAccess = input.access ? siteAccessFromInput(input.access, openSiteAccess(ctx.secrets, current.site_access_enc)) : input.access;
      if (siteAccess?.kind === 'sign_in') await assertPublicUrl(siteAccess.url, { allowPrivate: ctx.config.SHOWREEL_ALLOW_PRIVATE_URLS, allowUnresolved: true, log: ctx.logger });
      // Only a changed URL is tried: saving a name must not fail because the site is down right now.
      if (input.url !== undefined && input.url !== current.url && ctx.config.SHOWREEL_CHECK_PROJECT_URLS) {
        const signsIn = siteAccess === undefined ? current.site_access_enc !== null : siteAccess !== null;
        await assertProjectUrlAnswers(input.url, { allowPrivate: ctx.config.SHOWREEL_ALLOW_PRIVATE_URLS, signsIn, log: ctx.logger });
      }
      await inTransaction(ctx.sql, async (tx) => {
        await updateProject(
          tx,
          input.id,
          ctx.principal.userId,
          { name: input.name, url: input.url, viewport: input.viewport, refreshSchedule: input.refresh_schedule, allowSubmit: input.recording?.allow_submit },
          eventMetadata(ctx),
        );
        if (siteAccess !== undefined) await setSiteAccess(tx, ctx.secrets, input.id, ctx.principal.userId, siteAccess, eventMetadata(ctx));
      });
      const project = await findVisibleProject(ctx.sql, ctx.principal, input.id);
      if (!project) throw new NotFoundError('Project');
      return toProject(project, ctx.secrets);
    }),

  signingSecret: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/projects/{id}/signing-secret', tags, protect: true, summary: 'Read the signing secret for runtime embeds', errorResponses: [401, 403, 404] } })
    .input(projectIdInput)
    .output(signingSecretOutput)
    .query(async ({ ctx, input }) => {
      const project = await findVisibleProject(ctx.sql, ctx.principal, input.id);
      if (!project) throw new NotFoundError('Project');
      return { signing_secret: ctx.secrets.open(project.signing_secret_enc) };
    }),

  rotateSigningSecret: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/projects/{id}/signing-secret/rotate', tags, protect: true, summary: 'Replace the signing secret; URLs signed with the old one stop working', errorResponses: [401, 403, 404] } })
    .input(projectIdInput)
    .output(signingSecretOutput)
    .mutation(async ({ ctx, input }) => {
      if (!(await findVisibleProject(ctx.sql, ctx.principal, input.id))) throw new NotFoundError('Project');
      const secret = await inTransaction(ctx.sql, (tx) => rotateSigningSecret(tx, ctx.secrets, input.id, ctx.principal.userId, eventMetadata(ctx)));
      return { signing_secret: secret };
    }),
});
