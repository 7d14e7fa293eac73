import { z } from 'zod';
import { auditCredits } from '../credits/index.js';
import { readAll } from '../platform/event-store/read-all.js';
import { readStream } from '../platform/event-store/read-stream.js';
import { rebuildReadModels } from '../platform/projections.js';
import { adminProcedure, router } from '../platform/trpc.js';
import { redactEvent } from './redact-secrets.js';

/**
 * Internal admin procedures: tRPC only (/trpc), never on the public REST surface; an admin's session or unscoped
 * key. Events come back with their secrets redacted (redact-secrets.ts).
 */
const checkpoint = z.object({ transactionId: z.string().regex(/^\d+$/), globalPosition: z.string().regex(/^\d+$/) });

export const adminRouter = router({
  readStream: adminProcedure
    .input(z.object({ streamId: z.string().min(1) }))
    .query(async ({ ctx, input }) => ({ events: (await readStream(ctx.sql, input.streamId)).map(redactEvent) })),

  readAll: adminProcedure
    .input(z.object({ after: checkpoint.nullable().default(null), limit: z.number().int().min(1).max(10_000).default(1000) }))
    .query(async ({ ctx, input }) => {
      const page = await readAll(ctx.sql, { after: input.after, limit: input.limit });
      return { ...page, events: page.events.map(redactEvent) };
    }),

  rebuildReadModels: adminProcedure.mutation(async ({ ctx }) => {
    const result = await ctx.sql.begin((tx) => rebuildReadModels(tx));
    ctx.logger.info(result, 'read models rebuilt');
    return result;
  }),

  /** Folds every credit account from its events and compares with the read models; see src/credits/audit.ts. */
  auditCredits: adminProcedure
    .input(z.object({ userId: z.string().min(1).optional(), includeClean: z.boolean().default(false) }).default({ includeClean: false }))
    .query(async ({ ctx, input }) => {
      const report = await auditCredits(ctx.sql, input.userId === undefined ? {} : { userId: input.userId });
      if (!report.summary.ok) ctx.logger.warn(report.summary, 'credits audit found mismatches');
      return { summary: report.summary, accounts: input.includeClean ? report.accounts : report.accounts.filter((a) => !a.ok) };
    }),
});
