import { z } from 'zod';
import { createApiKey } from '../keys/index.js';
import { UnauthorizedError } from '../platform/errors.js';
import { addressBucket, hitRateLimits, returnRateLimitHits } from '../platform/rate-limit.js';
import { eventMetadata, publicProcedure, router } from '../platform/trpc.js';
import { decideDeviceGrant, DeviceGrantError, pollDeviceGrant, startDeviceGrant } from './grants.js';
import { singleLineName } from '../platform/validation.js';

const tags = ['Device login'];
export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The dashboard page where a person approves a device; the complete URI carries the code. */
export const deviceVerificationUri = (publicUrl: string) => `${publicUrl}/app/device`;

const FORM_OR_JSON = ['application/json', 'application/x-www-form-urlencoded'];

export const devicesRouter = router({
  code: publicProcedure
    .meta({
      openapi: {
        method: 'POST', path: '/device/code', tags, protect: false, summary: 'Start a device login: a device code to poll with and a user code to approve', errorResponses: [400, 429],
        // OAuth clients send the device flow's requests as forms (RFC 8628 §3.1, §3.4); ours sends JSON.
        contentTypes: FORM_OR_JSON,
      },
    })
    .input(z.object({ client_name: singleLineName(100), scope: z.enum(['write'], { message: 'scope must be "write"' }) }))
    .output(
      z.object({
        device_code: z.string(),
        user_code: z.string(),
        verification_uri: z.string(),
        verification_uri_complete: z.string(),
        expires_in: z.number(),
        interval: z.number(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // No credential here, so the limit is per client address (spec: 429 rate limited on device code).
      const limit = ctx.config.SHOWREEL_DEVICE_CODE_LIMIT_PER_ADDRESS;
      await hitRateLimits(ctx.sql, [{ bucket: `device-code:${addressBucket(ctx.clientAddress)}`, limit }], 'device code');
      const grant = await startDeviceGrant(ctx.sql, { clientName: input.client_name, scope: input.scope });
      const verificationUri = deviceVerificationUri(ctx.config.PUBLIC_URL);
      return {
        device_code: grant.deviceCode,
        user_code: grant.userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(grant.userCode)}`,
        expires_in: grant.expiresIn,
        interval: grant.interval,
      };
    }),

  token: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/device/token',
        tags,
        protect: false,
        summary:
          'Poll a device login: 400 {error: authorization_pending | slow_down | expired_token | access_denied | invalid_grant} until approved, then once a new live key',
        errorResponses: [400],
        contentTypes: FORM_OR_JSON,
      },
    })
    .input(z.object({ device_code: z.string().min(1).max(200), grant_type: z.string().min(1).max(200) }))
    .output(z.object({ access_token: z.string(), token_type: z.literal('Bearer'), key_id: z.string() }))
    .mutation(async ({ ctx, input }) => {
      if (input.grant_type !== DEVICE_GRANT_TYPE) throw new DeviceGrantError('unsupported_grant_type');
      const issued = await pollDeviceGrant(ctx.sql, input.device_code, async (tx, grant) => {
        const key = await createApiKey(
          tx,
          { userId: grant.userId, name: grant.clientName, type: 'live', projectId: null, allowedDomains: null },
          { ...eventMetadata(ctx), actor: grant.userId },
        );
        return { keyId: key.id, key: key.key };
      });
      return { access_token: issued.key, token_type: 'Bearer' as const, key_id: issued.keyId };
    }),

  authorize: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/device/authorize',
        tags,
        summary: 'Approve (or deny) a device login by its user code; dashboard session only',
        errorResponses: [400, 401, 404, 409, 429],
      },
    })
    .input(z.object({ user_code: z.string().trim().min(1).max(32), decision: z.enum(['approve', 'deny']).default('approve') }))
    .output(z.object({ ok: z.literal(true), client_name: z.string() }))
    .mutation(async ({ ctx, input }) => {
      // A key must not be able to mint another key this way: only a person in the dashboard approves a device.
      if (ctx.principal?.via !== 'session') throw new UnauthorizedError('Sign in to the dashboard to approve a device; API keys cannot.');
      // A user code is 8 letters from a 20-letter alphabet, alive 15 minutes: guessable only at speed. Every attempt
      // takes a hit first (parallel guesses cannot slip past), and a code that matched gives it back, so the limit
      // counts wrong codes and a person approving several devices is never held up.
      const limits = [
        { bucket: `device-authorize:address:${addressBucket(ctx.clientAddress)}`, limit: ctx.config.SHOWREEL_DEVICE_AUTHORIZE_LIMIT_PER_ADDRESS },
        { bucket: `device-authorize:user:${ctx.principal.userId}`, limit: ctx.config.SHOWREEL_DEVICE_AUTHORIZE_LIMIT_PER_USER },
      ];
      await hitRateLimits(ctx.sql, limits, 'device approval');
      const { clientName } = await decideDeviceGrant(ctx.sql, { userCode: input.user_code, userId: ctx.principal.userId, approve: input.decision === 'approve' });
      await returnRateLimitHits(ctx.sql, limits);
      return { ok: true as const, client_name: clientName };
    }),
});
