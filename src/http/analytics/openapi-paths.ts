import { z } from 'zod';
import { beaconSchema } from '../../analytics/index.js';

type Json = Record<string, unknown>;

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** POST /beacon (served outside tRPC: a text/plain body from navigator.sendBeacon), with the schema it validates. */
export function analyticsOpenApiPaths(): Json {
  const { $schema: _schema, ...body } = z.toJSONSchema(beaconSchema, { io: 'input', unrepresentable: 'any' }) as Json;
  return {
    '/beacon': {
      post: {
        operationId: 'analytics-beacon',
        tags: ['Embeds'],
        summary: 'A view beacon from a Showreel player (no credential; at most 2 KB)',
        requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string', description: 'The JSON object below, as text' } }, 'application/json': { schema: body } } },
        responses: {
          '202': { description: 'Counted (written within a second)' },
          '204': { description: 'Not counted: a bot, Do Not Track or Global Privacy Control, or a fault of ours (never a 5xx)' },
          '400': error('Not a beacon: bad JSON, an unknown event, a malformed id'),
          '405': error('Use POST'),
          '413': error('Body larger than 2 KB'),
          '415': error('Content-Type other than text/plain or application/json'),
          '429': error('Too many beacons from this address this minute'),
        },
      },
    },
  };
}
