import { z } from 'zod';
import { inTransaction } from '../platform/command.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { accountProcedure, eventMetadata, router } from '../platform/trpc.js';
import { findVisibleProject } from '../projects/index.js';
import { createApiKey, revokeApiKey } from './commands.js';
import { keyTypes } from './events.js';
import { forgetKey } from './key-cache.js';
import { listKeys } from './queries.js';
import { normaliseAllowedDomain } from './allowed-domains.js';
import { singleLineName } from '../platform/validation.js';

const tags = ['API keys'];

const createdKeySchema = z.object({
  id: z.string(),
  key: z.string(),
  prefix: z.string(),
  name: z.string(),
  type: z.enum(keyTypes),
  project_id: z.string().nullable(),
  allowed_domains: z.array(z.string()).nullable(),
});

const listedKeySchema = z.object({
  id: z.string(),
  key_prefix: z.string(),
  name: z.string(),
  type: z.enum(keyTypes),
  project_id: z.string().nullable(),
  allowed_domains: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
});

const domain = z
  .string()
  .max(253)
  .transform((entry, ctx) => {
    const host = normaliseAllowedDomain(entry);
    if (host === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a host name such as www.example.com or *.example.com' });
      return z.NEVER;
    }
    return host;
  });

/** Key management: an unscoped key or a session only (a project-scoped key gets 403). */
export const keysRouter = router({
  create: accountProcedure
    .meta({
      openapi: { method: 'POST', path: '/api-keys', tags, protect: true, summary: 'Create an API key (the plaintext key is returned only here)', errorResponses: [400, 401, 403, 404] },
      successStatus: 201,
    })
    .input(
      z.object({
        name: singleLineName(100).optional(),
        type: z.enum(keyTypes).default('live'),
        project_id: z.string().min(1).optional(),
        allowed_domains: z.array(domain).max(20).optional(),
      }),
    )
    .output(createdKeySchema)
    .mutation(async ({ ctx, input }) => {
      if (input.type === 'live' && input.allowed_domains !== undefined) {
        throw new ValidationError('allowed_domains applies only to publishable keys.');
      }
      if (input.project_id !== undefined && !(await findVisibleProject(ctx.sql, ctx.principal, input.project_id))) {
        throw new NotFoundError('Project');
      }
      const created = await inTransaction(ctx.sql, (tx) =>
        createApiKey(
          tx,
          {
            userId: ctx.principal.userId,
            name: input.name ?? (input.type === 'live' ? 'Live key' : 'Publishable key'),
            type: input.type,
            projectId: input.project_id ?? null,
            // An empty list allows every page, as no list does (docs/decisions.md): stored and shown as none,
            // so the key list does not read "[]" as "nowhere".
            allowedDomains: input.allowed_domains?.length ? input.allowed_domains : null,
          },
          eventMetadata(ctx),
        ),
      );
      return {
        id: created.id,
        key: created.key,
        prefix: created.prefix,
        name: created.name,
        type: created.type,
        project_id: created.projectId,
        allowed_domains: created.allowedDomains,
      };
    }),

  list: accountProcedure
    .meta({ openapi: { method: 'GET', path: '/api-keys', tags, protect: true, summary: 'List your API keys (never their secrets)', errorResponses: [401, 403] } })
    .input(z.void())
    .output(z.object({ keys: z.array(listedKeySchema) }))
    .query(async ({ ctx }) => {
      const keys = await listKeys(ctx.sql, ctx.principal.userId);
      return {
        keys: keys.map((k) => ({
          id: k.id,
          key_prefix: k.key_prefix,
          name: k.name,
          type: k.type,
          project_id: k.project_id,
          allowed_domains: k.allowed_domains === null ? null : JSON.stringify(k.allowed_domains),
          last_used_at: k.last_used_at?.toISOString() ?? null,
          created_at: k.created_at.toISOString(),
        })),
      };
    }),

  revoke: accountProcedure
    .meta({ openapi: { method: 'DELETE', path: '/api-keys/{id}', tags, protect: true, summary: 'Revoke an API key: it stops working at once', errorResponses: [401, 403, 404] } })
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await inTransaction(ctx.sql, (tx) => revokeApiKey(tx, { keyId: input.id, userId: ctx.principal.userId }, eventMetadata(ctx)));
      forgetKey(input.id);
      return { ok: true as const };
    }),
});
