import { z } from 'zod';
import { findVisibleDemo } from '../demos/index.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { authedProcedure, router } from '../platform/trpc.js';
import { demoAnalytics } from './queries.js';
import { startOfHour } from './rollup.js';

const tags = ['Demos'];
const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 400;

const rate = z.number().describe('a share of the views that played, from 0 to 1');
export const analyticsSchema = z.object({
  demo_id: z.string(),
  from: z.string().describe('start of the range (inclusive), rounded down to the hour, UTC'),
  to: z.string().describe('end of the range (exclusive), rounded up to the hour, UTC'),
  views: z.number().describe('page loads of the share page or a player (embed, runtime embed, sdk.js)'),
  unique_viewers: z.number().describe('viewers counted once per UTC day (a salted daily hash; see docs/security.md)'),
  plays: z.number().describe('views in which the video was started'),
  average_seconds_watched: z.number().describe('seconds of video played per play'),
  completion_rate: rate,
  dropoff: z.object({
    by_tenth: z.array(z.object({ percent: z.number(), views: z.number(), rate })).describe('views that reached 10 %, 20 % … 100 % of the length'),
    by_chapter: z.array(z.object({ index: z.number(), title: z.string().nullable(), views: z.number(), rate })).describe('views that reached each chapter (empty for a demo without chapters)'),
  }),
  top_hosts: z.array(z.object({ host: z.string(), views: z.number() })).describe('the embedding pages’ host names, most views first (at most 10)'),
  bucket: z.enum(['hour', 'day']).describe('the series’ step: hours for a range of up to two days, else days'),
  series: z.array(z.object({ start: z.string(), views: z.number(), plays: z.number() })),
});

const analyticsInput = z.object({
  id: z.string().min(1),
  from: z.string().max(40).optional().describe('ISO 8601 date or date-time; default: 30 days before `to`'),
  to: z.string().max(40).optional().describe('ISO 8601 date or date-time; default: now'),
});

/** An ISO date (`2026-05-01`, midnight UTC) or date-time, or a 400 that says which. */
function parseInstant(name: string, value: string): Date {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
  const at = iso.test(value) ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw new ValidationError(`${name} must be an ISO 8601 date or date-time, like 2026-05-01 or 2026-05-01T09:00:00Z.`);
  return at;
}

/** The range asked for, on whole UTC hours: from rounded down, to rounded up. */
export function rangeOf(input: { from?: string | undefined; to?: string | undefined }, now: Date = new Date()): { from: Date; to: Date } {
  const to = input.to === undefined ? now : parseInstant('to', input.to);
  const from = input.from === undefined ? new Date(to.getTime() - 30 * DAY_MS) : parseInstant('from', input.from);
  if (from >= to) throw new ValidationError('from must be before to.');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw new ValidationError(`The range may span at most ${MAX_RANGE_DAYS} days.`);
  const end = startOfHour(to);
  return { from: startOfHour(from), to: end.getTime() === to.getTime() ? end : new Date(end.getTime() + 3_600_000) };
}

export const analyticsRouter = router({
  demo: authedProcedure
    .meta({
      openapi: {
        method: 'GET', path: '/demos/{id}/analytics', tags, protect: true, summary: 'Who watched a demo: views, plays, completion and drop-off',
        description: 'Views, unique viewers, plays, seconds watched, completion, drop-off per tenth of the length and per chapter, and the top embedding hosts, over a range.',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(analyticsInput)
    .output(analyticsSchema)
    .query(async ({ ctx, input }) => {
      const range = rangeOf(input);
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      return demoAnalytics(ctx.sql, demo.id, range.from, range.to);
    }),
});
