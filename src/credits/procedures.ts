import { z } from 'zod';
import { inTransaction } from '../platform/command.js';
import { newId } from '../platform/ids.js';
import { accountProcedure, eventMetadata, router } from '../platform/trpc.js';
import { configureAutoTopoff } from './commands.js';
import { packOf, packs, toPublicPack } from './packs.js';
import { paymentProvider } from './payment-provider.js';
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
        description:
          'Turning it on is refused with 403 when the service sells no credits (SHOWREEL_PAYMENTS=none), and with 409 under Stripe until a card was saved by a first purchase. Turning it off always works.',
        errorResponses: [400, 401, 403, 409],
      },
    })
    .input(updateAutoTopoffInput)
    .output(autoTopoffSchema)
    .mutation(async ({ ctx, input }) => {
      const userId = ctx.principal.userId;
      // Turning it on must be payable: refused under SHOWREEL_PAYMENTS=none (nothing would pay for the packs), and
      // with Stripe until a card is saved. Turning it off is always allowed.
      if (input.enabled) {
        const refusal = await paymentProvider().autoTopoffRefusal(userId);
        if (refusal) throw refusal;
      }
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
      openapi: {
        method: 'POST',
        path: '/credits/purchase',
        tags,
        protect: true,
        summary: 'Buy a credit pack: starts a checkout; the credits are added when the payment is confirmed',
        description:
          'Answers 201 with the checkout page to send the buyer to. Nothing is credited now: the payment service\'s signed webhook adds the pack once it is paid. A service without payments (SHOWREEL_PAYMENTS=none, the default) answers 403: an administrator grants credits instead.',
        errorResponses: [400, 401, 403],
      },
      successStatus: 201,
    })
    .input(purchaseInput)
    .output(purchaseOutput)
    .mutation(async ({ ctx, input }) => {
      const pack = packOf(input.packId);
      // One key per request: a network retry inside the SDK is the same checkout; a second click is a second one.
      const checkout = await paymentProvider().checkout({ userId: ctx.principal.userId, pack, idempotencyKey: `checkout:${newId()}` });
      return { checkoutUrl: checkout.checkoutUrl, checkoutId: checkout.checkoutId, packId: pack.id };
    }),
});
