import { z } from 'zod';

/**
 * The credit packs and the price of a video. Prices are US dollars; inside the service they are whole cents so
 * that no sum is ever a float.
 */
export const packIds = ['5', '20', '50', '100'] as const;
export type PackId = (typeof packIds)[number];
export const packIdSchema = z.enum(packIds);

interface PackDefinition {
  id: PackId;
  credits: number;
  priceCents: number;
  label: string;
  popular: boolean;
}

const definitions: readonly PackDefinition[] = [
  { id: '5', credits: 5, priceCents: 500, label: 'Starter', popular: false },
  { id: '20', credits: 20, priceCents: 1800, label: 'Creator', popular: true },
  { id: '50', credits: 50, priceCents: 4000, label: 'Studio', popular: false },
  { id: '100', credits: 100, priceCents: 7000, label: 'Agency', popular: false },
];

/** The spec's Pack: `price` and `perCredit` in dollars, `savings` in whole percent against the smallest pack. */
export interface Pack {
  id: PackId;
  credits: number;
  price: number;
  perCredit: number;
  savings: number;
  label: string;
  popular: boolean;
  priceCents: number;
}

const baseCentsPerCredit = definitions[0]!.priceCents / definitions[0]!.credits;

export const packs: readonly Pack[] = definitions.map((d) => {
  const centsPerCredit = d.priceCents / d.credits;
  return {
    ...d,
    price: d.priceCents / 100,
    perCredit: Math.round(centsPerCredit) / 100,
    savings: Math.round((1 - centsPerCredit / baseCentsPerCredit) * 100),
  };
});

export function findPack(id: string): Pack | null {
  return packs.find((p) => p.id === id) ?? null;
}

/** For ids that already passed `packIdSchema` or came out of an event. */
export function packOf(id: PackId): Pack {
  const pack = findPack(id);
  if (!pack) throw new Error(`No credit pack ${id}.`);
  return pack;
}

/** The public form of a pack (cents stay inside). */
export function toPublicPack({ priceCents: _cents, ...pack }: Pack) {
  return pack;
}

/**
 * The auto top-off threshold is at most its pack's credits (issue 58): a balance below it then always ends at or
 * above it after one pack, so one payment answers a turn. This is the largest any pack allows.
 */
export const MAX_TOPOFF_THRESHOLD = Math.max(...definitions.map((d) => d.credits));

/** Off, pack 20, and a threshold of 1: top off only when a charge finds the balance short (issue 13). */
export const DEFAULT_AUTO_TOPOFF = { enabled: false, packId: '20', threshold: 1 } as const satisfies { enabled: boolean; packId: PackId; threshold: number };

export type DurationTarget = '5s' | '10s' | '30s';
const SECONDS: Record<DurationTarget, number> = { '5s': 5, '10s': 10, '30s': 30 };

/**
 * What a generation, refresh or restyle costs: 1 credit per started 10 seconds of the target duration
 * ('5s' → 1, '10s' → 1, '30s' → 3).
 */
export function priceOf(durationTarget: DurationTarget): number {
  const seconds = SECONDS[durationTarget];
  if (seconds === undefined) throw new Error(`Unknown duration target ${String(durationTarget)}.`);
  return Math.ceil(seconds / 10);
}
