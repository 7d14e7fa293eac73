import { z } from 'zod';
import { packIdSchema } from '../credits/packs.js';

/**
 * What Showreel puts in a Checkout Session's and a PaymentIntent's metadata, and reads back from the webhook: whose
 * credits, which pack, and what for. The amount is checked against the pack's price too (see stripe-webhook.ts).
 */
export const paymentMetadata = z.object({
  showreel_user_id: z.string().min(1),
  showreel_pack_id: packIdSchema,
  showreel_kind: z.enum(['purchase', 'auto_topoff']),
});
export type PaymentMetadata = z.infer<typeof paymentMetadata>;

export const metadataOf = (userId: string, packId: string, kind: PaymentMetadata['showreel_kind']): Record<string, string> => ({
  showreel_user_id: userId,
  showreel_pack_id: packId,
  showreel_kind: kind,
});

/** The currency of every pack (packs.ts prices are US cents). */
export const CURRENCY = 'usd';
