import { z } from 'zod';
import { readAll } from '../platform/event-store/read-all.js';
import { readStream } from '../platform/event-store/read-stream.js';
import { rebuildReadModels } from '../platform/projections.js';
import { adminProcedure, router } from '../platform/trpc.js';

/** Internal admin procedures: tRPC only (/trpc), never on the public REST surface. */
const checkpoint = z.object({ transactionId: z.string().regex(/^\d+$/), globalPosition: z.string().regex(/^\d+$/) });

export const adminRouter = router({
  readStream: adminProcedure
    .input(z.object({ streamId: z.string().min(1) }))
    .query(async ({ ctx, input }) => ({ events: await readStream(ctx.sql, input.streamId) })),

  readAll: adminProcedure
    .input(z.object({ after: checkpoint.nullable().default(null), limit: z.number().int().min(1).max(10_000).default(1000) }))
    .query(({ ctx, input }) => readAll(ctx.sql, { after: input.after, limit: input.limit })),

  rebuildReadModels: adminProcedure.mutation(async ({ ctx }) => {
    const result = await ctx.sql.begin((tx) => rebuildReadModels(tx));
    ctx.logger.info(result, 'read models rebuilt');
    return result;
  }),
});
