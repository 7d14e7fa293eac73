import { z } from 'zod';
import { inTransaction } from '../platform/command.js';
import { newId } from '../platform/ids.js';
import { accountProcedure, eventMetadata, router } from '../platform/trpc.js';
import { configureAutoTopoff, purchaseCredits } from './commands.js';
import { packs, toPublicPack } from './packs.js';
import { autoTopoffOf, findAccount, getAutoTopoff, listTransactions, pageTransactions } from './queries.js';
import { decodeCursor, encodeCursor, toTransaction } from './representation.js';
import {
  autoTopoffSchema,
  creditsOverviewSchema,
  purchaseInput,
  purchaseOutput,
  transactionPageInput,
  transactionPageSchema,
  updateAutoTopoffInput,
} from './schemas.js';

const tags = ['Credits'];
const RECENT_TRANSACTIONS = 20;

/** The account's money: an unscoped key or a session only (a project-scoped key gets 403). */
export const creditsRouter = router({
  get: accountProcedure
    .meta({ openapi: { method: 'GET', path: '/credits', tags, protect: true, summary: 'Balance, packs, auto top-off and recent transactions', errorResponses: [401, 403] } })
    .input(z.void())
    .output(creditsOverviewSchema)
    .query(async ({ ctx }) => {
      const userId = ctx.principal.userId;
      const [account, transactions] = await Promise.all([findAccount(ctx.sql, userId), listTransactions(ctx.sql, userId, RECENT_TRANSACTIONS)]);
      return {
        balance: account?.balance ?? 0,
        packs: packs.map(toPublicPack),
        autoTopoff: autoTopoffOf(account),
        recentTransactions: transactions.map(toTransaction),
      };
    }),

  getAutoTopoff: accountProcedure
    .meta({ openapi: { method: 'GET', path: '/credits/auto-topoff', tags, protect: true, summary: 'The auto top-off setting', errorResponses: [401, 403] } })
    .input(z.void())
    .output(autoTopoffSchema)
    .query(({ ctx }) => getAutoTopoff(ctx.sql, ctx.principal.userId)),

  setAutoTopoff: accountProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/credits/auto-topoff',
        tags,
        protect: true,
        summary: 'Turn auto top-off on or off: when a charge finds the balance short, the pack is bought first',
        errorResponses: [400, 401, 403],
      },
    })
    .input(updateAutoTopoffInput)
    .output(autoTopoffSchema)
    .mutation(async ({ ctx, input }) => {
      const userId = ctx.principal.userId;
      const packId = input.packId ?? (await getAutoTopoff(ctx.sql, userId)).packId;
      return inTransaction(ctx.sql, (tx) => configureAutoTopoff(tx, { userId, enabled: input.enabled, packId, threshold: input.threshold }, eventMetadata(ctx)));
    }),

  transactions: accountProcedure
    .meta({
      openapi: { method: 'GET', path: '/credits/transactions', tags, protect: true, summary: 'The transaction history, newest first, a page at a time', errorResponses: [400, 401, 403] },
    })
    .input(transactionPageInput)
    .output(transactionPageSchema)
    .query(async ({ ctx, input }) => {
      const before = input.cursor === undefined ? null : decodeCursor(input.cursor);
      const page = await pageTransactions(ctx.sql, ctx.principal.userId, { limit: input.limit, before });
      return { transactions: page.transactions.map(toTransaction), nextCursor: page.next === null ? null : encodeCursor(page.next) };
    }),

  purchase: accountProcedure
    .meta({
      openapi: { method: 'POST', path: '/credits/purchase', tags, protect: true, summary: 'Buy a credit pack', errorResponses: [400, 401, 402, 403] },
    })
    .input(purchaseInput)
    .output(purchaseOutput)
    .mutation(async ({ ctx, input }) => {
      // One id across retries of the transaction, so the payment provider sees one idempotency key.
      const transactionId = newId();
      return inTransaction(ctx.sql, (tx) =>
        purchaseCredits(tx, { userId: ctx.principal.userId, packId: input.packId, transactionId }, eventMetadata(ctx)),
      );
    }),
});
