import { z } from 'zod';
import { transactionTypes } from './events.js';
import { MAX_TOPOFF_THRESHOLD, packIdSchema } from './packs.js';

export const packSchema = z.object({
  id: packIdSchema,
  credits: z.number(),
  price: z.number().describe('US dollars'),
  perCredit: z.number().describe('US dollars per credit, rounded to cents'),
  savings: z.number().describe('Percent saved per credit against the smallest pack'),
  label: z.string(),
  popular: z.boolean().optional(),
});

export const autoTopoffSchema = z.object({
  enabled: z.boolean(),
  packId: packIdSchema,
  threshold: z.number().int().min(1).max(MAX_TOPOFF_THRESHOLD).describe('A charge that finds the balance below this (or short of its cost) buys the pack first; default 1, at most the pack\'s credits'),
  disabledReason: z.string().optional().describe('Present when a failed auto top-off payment turned auto top-off off: why'),
});

export const transactionSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  type: z.enum(transactionTypes),
  amount: z.number().describe('Signed: a deduct is negative; a refund that takes back the credits of a refunded or disputed payment is negative or 0; every other type positive'),
  balance_after: z.number(),
  pack_id: z.string().nullable(),
  description: z.string().nullable(),
  created_at: z.string(),
});

export const creditsOverviewSchema = z.object({
  balance: z.number().describe('Below zero only when the credits of a refunded or disputed payment were taken back after they were spent; new demos are then refused (429) until a purchase brings it back'),
  packs: z.array(packSchema),
  autoTopoff: autoTopoffSchema,
  recentTransactions: z.array(transactionSchema).describe('Newest first, at most 20'),
});

// PUT replaces the setting; packId and threshold may be left out to keep what was chosen before.
export const updateAutoTopoffInput = z.object({
  enabled: z.boolean(),
  packId: packIdSchema.optional(),
  threshold: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOPOFF_THRESHOLD)
    .optional()
    .describe('1 to the pack\'s credits (5, 20, 50 or 100); more than the pack is a 400. Left out, the threshold stays, lowered to the pack\'s credits if it was above'),
});

export const transactionPageInput = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(100).optional().describe('nextCursor of the page before'),
});

export const transactionPageSchema = z.object({
  transactions: z.array(transactionSchema).describe('Newest first'),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next (older) page; null on the last page'),
});

export const purchaseInput = z.object({ packId: packIdSchema });

/**
 * A purchase starts a hosted checkout (Stripe Checkout): the buyer pays there, and the provider's signed webhook adds
 * the credits. Under SHOWREEL_PAYMENTS=none there is no checkout: 403.
 */
export const purchaseOutput = z.object({
  checkoutUrl: z.string().describe('Send the buyer here to pay; the credits are added when the payment service confirms the payment'),
  checkoutId: z.string().describe('The payment service’s id of this checkout (Stripe: cs_…)'),
  packId: packIdSchema,
});
