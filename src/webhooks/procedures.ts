import { z } from 'zod';
import { inTransaction } from '../platform/command.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { assertPublicUrl } from '../platform/network/ssrf-guard.js';
import { authedProcedure, type Context, eventMetadata, router } from '../platform/trpc.js';
import type { Principal } from '../platform/principal.js';
import { findVisibleProject } from '../projects/index.js';
import { createWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret } from './commands.js';
import { webhookEventTypes } from './events.js';
import { countProjectWebhooks, findProjectWebhook, listDeliveries, listProjectWebhooks, type WebhookDeliveryRecord, type WebhookEndpointRecord } from './queries.js';

const tags = ['Webhooks'];

/** More would be a fan-out nobody needs from one project; each endpoint is a delivery per event. */
export const MAX_WEBHOOKS_PER_PROJECT = 10;

const webhookSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  created_at: z.string(),
  secret_rotated_at: z.string().nullable(),
});

const deliverySchema = z.object({
  id: z.string(),
  event_id: z.string().describe('the `id` in the body and the Showreel-Event-Id header: the same for every attempt, for dedupe'),
  event_type: z.enum(webhookEventTypes),
  status: z.enum(['pending', 'retrying', 'delivered', 'failed', 'refused']).describe('refused: the egress guard would not send to the endpoint’s address (never retried); failed: no 2xx within a day of retries'),
  attempts: z.number(),
  response_status: z.number().nullable(),
  response_excerpt: z.string().nullable().describe('the first 500 characters of the last answer'),
  error: z.string().nullable(),
  body: z.string().describe('the JSON body sent (the same at every attempt)'),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});

const projectInput = z.object({ id: z.string().min(1).max(100) });
const webhookInput = projectInput.extend({ webhookId: z.string().min(1).max(100) });

function toWebhook(record: WebhookEndpointRecord): z.infer<typeof webhookSchema> {
  return {
    id: record.id,
    project_id: record.project_id,
    url: record.url,
    events: record.events,
    created_at: record.created_at.toISOString(),
    secret_rotated_at: record.secret_rotated_at?.toISOString() ?? null,
  };
}

function toDelivery(record: WebhookDeliveryRecord): z.infer<typeof deliverySchema> {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: record.id,
    event_id: record.event_id,
    event_type: record.event_type,
    status: record.status,
    attempts: record.attempts,
    response_status: record.response_status,
    response_excerpt: record.response_excerpt,
    error: record.error,
    body: record.body,
    created_at: record.created_at.toISOString(),
    last_attempt_at: iso(record.last_attempt_at),
    next_attempt_at: iso(record.next_attempt_at),
    delivered_at: iso(record.delivered_at),
  };
}

/** Owner scoping and a scoped key's project: another user's project, or one outside the key's scope, is a 404. */
async function visibleProjectId(ctx: Pick<Context, 'sql'> & { principal: Principal }, projectId: string): Promise<string> {
  const project = await findVisibleProject(ctx.sql, ctx.principal, projectId);
  if (!project) throw new NotFoundError('Project');
  return project.id;
}

/**
 * The endpoint's address, as it will be called: https (plain http only where private addresses are allowed, i.e.
 * local development: the body names unlisted demos), no user name or password in it (the signature is the
 * credential, and the URL is shown in lists), and a public host (the egress guard checks again at each delivery).
 */
async function endpointUrl(ctx: Context, text: string): Promise<string> {
  const url = URL.parse(text.trim());
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new ValidationError('url must be a full https address, like https://example.com/hooks/showreel.');
  const allowPrivate = ctx.config.SHOWREEL_ALLOW_PRIVATE_URLS;
  if (url.protocol === 'http:' && !allowPrivate) throw new ValidationError('url must use https: webhook bodies name your demos.');
  if (url.username || url.password) throw new ValidationError('url must not carry a user name or password; verify the Showreel-Signature header instead.');
  url.hash = '';
  await assertPublicUrl(url.href, { allowPrivate, allowUnresolved: true, log: ctx.logger });
  return url.href;
}

/** A project's outbound webhooks (issue 37): endpoints called when its demos are ready, fail, change or not. */
export const webhooksRouter = router({
  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST', path: '/projects/{id}/webhooks', tags, protect: true,
        summary: 'Register an endpoint for demo events (the signing secret is returned only here)',
        errorResponses: [400, 401, 403, 404, 409],
      },
      successStatus: 201,
    })
    .input(
      projectInput.extend({
        url: z.string().min(1).max(2048),
        events: z.array(z.enum(webhookEventTypes)).min(1).max(webhookEventTypes.length),
      }),
    )
    .output(webhookSchema.extend({ secret: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const projectId = await visibleProjectId(ctx, input.id);
      const url = await endpointUrl(ctx, input.url);
      if ((await countProjectWebhooks(ctx.sql, projectId)) >= MAX_WEBHOOKS_PER_PROJECT) {
        throw new ConflictError(`A project has at most ${MAX_WEBHOOKS_PER_PROJECT} webhook endpoints; delete one first.`);
      }
      const events = webhookEventTypes.filter((type) => input.events.includes(type));
      const { webhookId, secret } = await inTransaction(ctx.sql, (tx) =>
        createWebhookEndpoint(tx, ctx.secrets, { projectId, userId: ctx.principal.userId, url, events }, eventMetadata(ctx)),
      );
      const created = await findProjectWebhook(ctx.sql, projectId, webhookId);
      if (!created) throw new NotFoundError('Webhook endpoint');
      return { ...toWebhook(created), secret };
    }),

  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/projects/{id}/webhooks', tags, protect: true, summary: 'The project’s webhook endpoints (never their secrets)', errorResponses: [401, 403, 404] } })
    .input(projectInput)
    .output(z.object({ webhooks: z.array(webhookSchema) }))
    .query(async ({ ctx, input }) => {
      const projectId = await visibleProjectId(ctx, input.id);
      return { webhooks: (await listProjectWebhooks(ctx.sql, projectId)).map(toWebhook) };
    }),

  delete: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/projects/{id}/webhooks/{webhookId}', tags, protect: true, summary: 'Delete a webhook endpoint and its delivery log', errorResponses: [401, 403, 404] } })
    .input(webhookInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      const projectId = await visibleProjectId(ctx, input.id);
      await inTransaction(ctx.sql, (tx) => deleteWebhookEndpoint(tx, { webhookId: input.webhookId, projectId, userId: ctx.principal.userId }, eventMetadata(ctx)));
      return { ok: true as const };
    }),

  rotateSecret: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/projects/{id}/webhooks/{webhookId}/rotate-secret', tags, protect: true, summary: 'Replace an endpoint’s signing secret (returned only here)', errorResponses: [401, 403, 404] },
    })
    .input(webhookInput)
    .output(z.object({ secret: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const projectId = await visibleProjectId(ctx, input.id);
      const secret = await inTransaction(ctx.sql, (tx) => rotateWebhookSecret(tx, ctx.secrets, { webhookId: input.webhookId, projectId, userId: ctx.principal.userId }, eventMetadata(ctx)));
      return { secret };
    }),

  deliveries: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/projects/{id}/webhooks/{webhookId}/deliveries', tags, protect: true, summary: 'An endpoint’s delivery log, newest first', errorResponses: [400, 401, 403, 404] } })
    .input(webhookInput.extend({ limit: z.coerce.number().int().min(1).max(100).default(50) }))
    .output(z.object({ deliveries: z.array(deliverySchema) }))
    .query(async ({ ctx, input }) => {
      const projectId = await visibleProjectId(ctx, input.id);
      const endpoint = await findProjectWebhook(ctx.sql, projectId, input.webhookId);
      if (!endpoint) throw new NotFoundError('Webhook endpoint');
      return { deliveries: (await listDeliveries(ctx.sql, endpoint.id, input.limit)).map(toDelivery) };
    }),
});
