import { z } from 'zod';
import { creditsSpentSince, getAutoTopoff, getBalance, packIds } from '../credits/index.js';
import { demoActivitySince } from '../demos/index.js';
import { embedGenerationsToday } from '../embeds/index.js';
import { NotFoundError } from '../platform/errors.js';
import { accountProcedure, router } from '../platform/trpc.js';
import { findUserById, planOf } from '../users/index.js';

const usageSchema = z.object({
  account: z.object({ id: z.string(), email: z.string(), via: z.enum(['session', 'live', 'publishable']), key_id: z.string().nullable() }),
  plan: z.object({
    id: z.string(),
    name: z.string(),
    formats: z.array(z.enum(['mp4', 'webm'])).describe('The video formats this plan may upload (local-upload); generated demos may use either'),
    resolutions: z.array(z.enum(['720p', '1080p'])),
    limits: z.object({
      requests_per_minute_per_key: z.number().describe('Each of demo create, refresh, restyle, embed generate and upload; 0 is no limit'),
      requests_per_minute_per_user: z.number().describe('Same actions, all keys together; 0 is no limit'),
      max_upload_bytes: z.number(),
    }),
  }),
  period: z.object({ start: z.string(), end: z.string() }).describe('This calendar month, UTC'),
  usage: z.object({
    demos_generated: z.number(),
    refreshes: z.number(),
    restyles: z.number(),
    uploads: z.number(),
    credits_spent: z.number().describe('Charges less refunds'),
  }),
  balance: z.number(),
  autoTopoff: z.object({ enabled: z.boolean(), packId: z.enum(packIds), threshold: z.number() }),
  embeds: z
    .object({
      limits: z.object({
        daily_generations_per_key: z.number().describe('New demos a publishable key may start a UTC day; 0 is no limit'),
        daily_generations_per_project: z.number().describe('New demos all publishable keys of one project may start a UTC day; 0 is no limit'),
      }),
      today: z.object({
        day: z.string().describe('The UTC day counted, YYYY-MM-DD; the counts restart at 00:00 UTC'),
        by_key: z.array(z.object({ key_id: z.string(), generations: z.number() })),
        by_project: z.array(z.object({ project_id: z.string(), generations: z.number() })),
      }),
    })
    .describe('New demos started through publishable keys today (reuses are free and not counted)'),
});

/**
 * GET /usage (issue 13): who is asking, the plan, this month's usage and the credits. It reads the users, demos and
 * credits modules through their public entries and owns no state of its own.
 */
export const usageRouter = router({
  get: accountProcedure
    .meta({ openapi: { method: 'GET', path: '/usage', tags: ['Usage'], protect: true, summary: 'Your plan, this month\'s usage, balance and auto top-off', errorResponses: [401, 403] } })
    .input(z.void())
    .output(usageSchema)
    .query(async ({ ctx }) => {
      const { userId } = ctx.principal;
      const now = new Date();
      const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      const [user, activity, spent, balance, autoTopoff, embedsToday] = await Promise.all([
        findUserById(ctx.sql, userId),
        demoActivitySince(ctx.sql, userId, start),
        creditsSpentSince(ctx.sql, userId, start),
        getBalance(ctx.sql, userId),
        getAutoTopoff(ctx.sql, userId),
        embedGenerationsToday(ctx.sql, userId),
      ]);
      if (!user) throw new NotFoundError('User');
      const plan = planOf(user.plan);
      return {
        account: { id: user.id, email: user.email, via: ctx.principal.via, key_id: ctx.principal.keyId },
        plan: {
          id: plan.id,
          name: plan.name,
          formats: [...plan.formats],
          resolutions: [...plan.resolutions],
          limits: {
            requests_per_minute_per_key: ctx.config.SHOWREEL_RATE_LIMIT_PER_KEY,
            requests_per_minute_per_user: ctx.config.SHOWREEL_RATE_LIMIT_PER_USER,
            max_upload_bytes: ctx.config.SHOWREEL_MAX_UPLOAD_BYTES,
          },
        },
        period: { start: start.toISOString(), end: end.toISOString() },
        usage: {
          demos_generated: activity.generated,
          refreshes: activity.refreshes,
          restyles: activity.restyles,
          uploads: activity.uploads,
          credits_spent: spent,
        },
        balance,
        autoTopoff,
        embeds: {
          limits: {
            daily_generations_per_key: ctx.config.SHOWREEL_EMBED_DAILY_GENERATIONS_PER_KEY,
            daily_generations_per_project: ctx.config.SHOWREEL_EMBED_DAILY_GENERATIONS_PER_PROJECT,
          },
          today: { day: embedsToday.day, by_key: embedsToday.byKey, by_project: embedsToday.byProject },
        },
      };
    }),
});
