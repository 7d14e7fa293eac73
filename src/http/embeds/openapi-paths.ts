import { z } from 'zod';
import { generateEmbedInput } from '../../embeds/index.js';

type Json = Record<string, unknown>;

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

const embedAnswer = {
  type: 'object',
  properties: {
    demoId: { type: 'string' },
    status: { type: 'string', description: 'pending, refreshing, recording or ready' },
    embedUrl: { type: 'string', format: 'uri' },
    cached: { type: 'boolean' },
  },
  required: ['demoId', 'status', 'embedUrl', 'cached'],
};

/** The embed operations (served outside tRPC), described with the body schema the handler validates with. */
export function embedOpenApiPaths(): { api: Json; site: Json } {
  const script = (operationId: string, summary: string) => ({
    get: {
      operationId,
      tags: ['Embeds'],
      summary,
      parameters: [{ name: 'v', in: 'query', schema: { type: 'string' }, description: 'Content hash: with it the file is immutable for a year' }],
      responses: {
        '200': { description: 'JavaScript (gzip when accepted), with an ETag', content: { 'text/javascript': { schema: { type: 'string' } } } },
        '304': { description: 'Not modified (If-None-Match)' },
        '431': error('The request headers are too large'),
      },
    },
  });
  const { $schema: _schema, ...body } = z.toJSONSchema(generateEmbedInput, { io: 'input', unrepresentable: 'any' }) as Json;
  const site = {
    '/sdk.js': script('embeds-sdk', 'The embed SDK: placeholders, Showreel.mount, showreel:* events (docs/embedding.md)'),
    '/player.js': script('embeds-player-script', 'The script of the iframe player (Player.js protocol)'),
    '/embed/{id}/status': {
        get: {
        operationId: 'embeds-status',
        tags: ['Embeds'],
        summary: 'Public progress of a demo, for the loading player (its WebSocket is /embed/{id}/ws)',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'Progress', content: { 'application/json': { schema: { type: 'object' } } } },
          '404': error('No such demo'),
        },
      },
    },
  };
  const api = {
    '/embed/generate': {
      post: {
        operationId: 'embeds-generate',
        tags: ['Embeds'],
        summary: 'Generate a demo for the calling page, or reuse the one already made for the same context',
        description:
          'A publishable key in X-API-Key (from a page on one of its allowed_domains: Origin, else Referer), or a live key. ' +
          'CORS: answers carry Access-Control-Allow-Origin for the calling origin; OPTIONS is the preflight.',
        security: [{ apiKey: [] }, { bearer: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: {
          '200': { description: 'An existing demo is reused (cached: true); nothing is charged', content: { 'application/json': { schema: embedAnswer } } },
          '202': { description: 'Generation started (cached: false), charged like POST /demos', content: { 'application/json': { schema: embedAnswer } } },
          '400': error('Missing project_id, invalid body, or context.url not on the project’s site'),
          '401': error('API key required'),
          '403': error('The page’s host is not in the publishable key’s allowed_domains'),
          '404': error('Project not found'),
          '429': error('Quota or rate limit exceeded'),
        },
      },
      options: {
        operationId: 'embeds-generate-preflight',
        tags: ['Embeds'],
        summary: 'CORS preflight (cached for a day)',
        responses: { '204': { description: 'Allowed methods and headers for the calling origin' }, '431': error('The request headers are too large') },
      },
    },
    '/embed/runtime': {
      get: {
        operationId: 'embeds-runtime',
        tags: ['Embeds'],
        summary: 'A signed runtime embed: HTML player, loading state or recoverable error',
        description:
          'signature = base64url(HMAC-SHA256(project signing secret, `${project_id}.${expires}.${payload ?? ""}`)); ' +
          'expires in Unix seconds, at most 30 days ahead. payload = base64url(JSON): {demoId} or {url, prompt, template?, section?}, ' +
          'plus player props {autoplay, loop, muted, controls, startAt}. See docs/embedding.md.',
        security: [],
        parameters: [
          { name: 'project_id', in: 'query', required: true, schema: { type: 'string', minLength: 1 } },
          { name: 'expires', in: 'query', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
          { name: 'signature', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'payload', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': html('The player of a ready demo, or a recoverable error page when its generation failed'),
          '202': html('Generation started (or in progress): a loading embed that swaps in the player when ready'),
          '400': error('Invalid signed payload, or expires more than 30 days ahead'),
          '401': error('Missing, invalid or expired signature'),
          '404': error('Project or demo not found'),
          '429': error('Quota or rate limit exceeded'),
        },
      },
    },
  };
  return { api, site };
}
