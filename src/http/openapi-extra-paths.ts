/**
 * The endpoints served outside tRPC (binary uploads, media, HTML pages, oEmbed), described by hand in the same
 * OpenAPI document: `api` paths are under /api/v1 (written here without the prefix, like the procedures' paths),
 * `site` paths are served from the site root. The document has one server, the site, so neither needs `servers`.
 */
import { analyticsOpenApiPaths } from './analytics/openapi-paths.js';
import { embedOpenApiPaths } from './embeds/openapi-paths.js';

type Json = Record<string, unknown>;

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const security = [{ bearer: [] }, { apiKey: [] }, { session: [] }];
const idParameter = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });
const contentLength = { name: 'Content-Length', in: 'header', required: true, schema: { type: 'integer', minimum: 1 } };

export function extraOpenApiPaths(): { api: Json; site: Json } {
  const media = (kind: string, type: string, description: string) => ({
    get: {
      operationId: `media-${kind}`,
      tags: ['Media'],
      summary: description,
      parameters: [
        idParameter('file', `<demo id>.${kind === 'video' ? '{mp4|webm}' : type.split('/')[1]}`),
        { name: 'v', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: 'A kept version’s file; default the version the demo shows' },
        {
          name: 'aspect', in: 'query', required: false, schema: { type: 'string', enum: ['16x9', '9x16', '1x1'] },
          description: 'Issue 59: an aspect variant of the version (made when `presentation.aspect` lists it; see the demo’s `variants`); `16x9` or none: the video itself',
        },
        { name: 'Range', in: 'header', schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'The file', content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
        '206': { description: 'A byte range of the file (Range: bytes=a-b)' },
        '304': { description: 'Not modified (If-None-Match)' },
        '404': error('No such demo or media, no such kept version, or no such aspect variant'),
        '416': { description: 'Range not satisfiable' },
      },
    },
  });

  // Issue 36: chapters and captions, public by demo id like the video (same visibility and ?v=N rules).
  const storyTrack = (kind: 'chapters' | 'captions', description: string) => ({
    get: {
      operationId: `media-${kind}`,
      tags: ['Media'],
      summary: description,
      parameters: [
        idParameter('file', '<demo id>.vtt'),
        { name: 'v', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: 'A kept version’s track (as for /video/{file}?v=N); default the version the demo shows' },
      ],
      responses: {
        '200': {
          description: 'WebVTT (cue text escaped)',
          content: {
            'text/vtt': {
              schema: { type: 'string' },
              example:
                kind === 'chapters'
                  ? 'WEBVTT\n\nchapter-1\n00:00:00.000 --> 00:00:02.100\nAcme\n\nchapter-2\n00:00:02.100 --> 00:00:10.240\nPricing\n'
                  : 'WEBVTT\n\ncaption-1\n00:00:02.500 --> 00:00:07.400\nPricing: $0 to $29\n',
            },
          },
        },
        '404': error(kind === 'captions' ? 'No such demo or version, no captions recorded, or captions are off (the error says why)' : 'No such demo or version, or no chapters recorded'),
      },
    },
  });

  const backgroundImage = (operationId: string, file: string, summary: string) => ({
    get: {
      operationId,
      tags: ['Backgrounds'],
      summary,
      parameters: [idParameter('file', file)],
      responses: {
        '200': {
          description: 'The image (nosniff)',
          content: Object.fromEntries(['image/png', 'image/jpeg', 'image/webp'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
        },
        '304': { description: 'Not modified (If-None-Match)' },
        '404': error('No such background'),
      },
    },
  });

  const embeds = embedOpenApiPaths();
  const api = {
    ...embeds.api,
    ...analyticsOpenApiPaths(),
    '/payments/stripe/webhook': {
      post: {
        operationId: 'payments-stripeWebhook',
        tags: ['Credits'],
        summary: 'Stripe’s events (SHOWREEL_PAYMENTS=stripe): the only way a payment becomes credits',
        description:
          'Called by Stripe, not by clients: no API credential, the Stripe-Signature header over the raw body instead (checked with STRIPE_WEBHOOK_SECRET). Each event id is acted on once; a replay answers 200 and adds nothing. Acted on: checkout.session.completed, checkout.session.async_payment_succeeded, payment_intent.succeeded, payment_intent.payment_failed, and charge.refunded, charge.dispute.created, charge.dispute.closed (a refunded or disputed payment’s credits are taken back, even below a zero balance, and given back when a dispute closes with the payment standing); others are acknowledged.',
        parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Stripe Event' } } } },
        responses: {
          '200': {
            description: 'Received (acted on, ignored, or already handled)',
            content: { 'application/json': { schema: { type: 'object', properties: { received: { type: 'boolean' }, outcome: { type: 'string' } }, required: ['received', 'outcome'] } } },
          },
          '400': error('Missing or bad signature: nothing was done'),
          '404': error('This service takes no Stripe payments'),
          '413': error('Body larger than 1 MB'),
        },
      },
    },
    '/demos/local-upload': {
      post: {
        operationId: 'demos-localUpload',
        tags: ['Demos'],
        summary: 'Publish a locally recorded MP4 or WebM as a ready demo (thumbnail and GIF derived)',
        security,
        parameters: [
          { name: 'project_id', in: 'query', required: true, schema: { type: 'string', minLength: 1 } },
          { name: 'prompt', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 500 } },
          { name: 'title', in: 'query', schema: { type: 'string', minLength: 1, maxLength: 200 } },
          { name: 'duration_ms', in: 'query', schema: { type: ['integer', 'null'], minimum: 0, maximum: 3600000 } },
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['mp4', 'webm'] } },
          contentLength,
        ],
        requestBody: {
          required: true,
          content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } }, 'video/webm': { schema: { type: 'string', format: 'binary' } } },
        },
        responses: {
          '201': {
            description: 'Published',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' }, status: { type: 'string', const: 'ready' }, jobId: { type: 'string' },
                    shareUrl: { type: 'string' }, embedUrl: { type: 'string' }, videoUrl: { type: 'string' },
                  },
                  required: ['id', 'status', 'jobId', 'shareUrl', 'embedUrl', 'videoUrl'],
                },
              },
            },
          },
          '400': error('Invalid query parameter, the upload was cut short, or the video is beyond the resolution, frame rate or duration taken (the error names the limit)'),
          '401': error('No credential'),
          '403': error('Publishable key, or the plan does not allow this format'),
          '404': error('Project not found'),
          '411': error('Content-Length missing'),
          '413': error('Larger than SHOWREEL_MAX_UPLOAD_BYTES'),
          '415': error('Not video/mp4 or video/webm, or the bytes are not a valid video'),
          '429': error('Rate limit exceeded: requests a minute, uploads an hour, or uploads in flight (Retry-After says when to try again)'),
        },
      },
    },
    '/demos/{id}/local-assets': {
      post: {
        operationId: 'demos-localAssets',
        tags: ['Demos'],
        summary: 'Replace the thumbnail (PNG, ≤ 5 MB) or GIF (animated, ≤ 25 MB) of an uploaded demo',
        security,
        parameters: [
          idParameter('id', 'Demo id'),
          { name: 'type', in: 'query', required: true, schema: { type: 'string', enum: ['thumbnail', 'gif'] } },
          contentLength,
        ],
        requestBody: {
          required: true,
          content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/gif': { schema: { type: 'string', format: 'binary' } } },
        },
        responses: {
          '201': {
            description: 'Replaced',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { id: { type: 'string' }, type: { type: 'string', enum: ['thumbnail', 'gif'] }, url: { type: 'string' } },
                  required: ['id', 'type', 'url'],
                },
              },
            },
          },
          '400': error('Invalid type, or a generated demo'),
          '401': error('No credential'),
          '403': error('Publishable key'),
          '404': error('Demo not found'),
          '411': error('Content-Length missing'),
          '413': error('Over 5 MB (thumbnail) or 25 MB (GIF)'),
          '415': error('Not a PNG, or not an animated GIF'),
          '429': error('Rate limit exceeded'),
        },
      },
    },
    '/backgrounds/upload': {
      post: {
        operationId: 'backgrounds-upload',
        tags: ['Backgrounds'],
        summary: 'Upload a presentation background (PNG, JPEG or WebP by content, at most 10 MB)',
        security,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', format: 'binary', maxLength: 10485760 } }, required: ['file'] },
            },
          },
        },
        responses: {
          '201': {
            description: 'Stored; imageUrl can be used as presentation.background.imageUrl',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { id: { type: 'string' }, key: { type: 'string', description: 'Storage key' }, imageUrl: { type: 'string', format: 'uri' } },
                  required: ['id', 'key', 'imageUrl'],
                },
              },
            },
          },
          '400': error('Not multipart/form-data, no file field, an empty file, or not a PNG, JPEG or WebP image'),
          '401': error('No credential'),
          '403': error('Publishable key'),
          '413': error('The file is over 10 MB'),
          '429': error('Rate limit exceeded'),
        },
      },
    },
  };
  const site = {
    ...embeds.site,
    '/background/{file}': backgroundImage('background-upload', '<background id>.{png|jpg|webp}', 'An uploaded background image (cached for a year: it never changes)'),
    '/background/catalog/{file}': backgroundImage('background-catalog', '<catalog id>.jpg', 'A built-in catalog background, 1920×1080 JPEG'),
    '/video/{file}': media('video', 'video/mp4', 'The latest video of a demo'),
    '/thumb/{file}': media('thumbnail', 'image/png', 'The thumbnail of a demo'),
    '/gif/{file}': media('gif', 'image/gif', 'The GIF preview of a demo'),
    '/chapters/{file}': storyTrack('chapters', 'The chapters of a demo as WebVTT (`<track kind="chapters">`): one cue per story beat, titled in the page’s words, timed by the recording'),
    '/captions/{file}': storyTrack('captions', 'The captions of a demo as WebVTT (`<track kind="captions">`): one short line per beat, at most 2 lines of 42 characters, 1–7 s each'),
    '/share/{id}': {
        get: {
        operationId: 'pages-share', tags: ['Pages'], summary: 'Share page: player, title, OpenGraph and Twitter tags',
        parameters: [idParameter('id', 'Demo id')],
        responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, '404': { description: 'HTML not-found page' } },
      },
    },
    '/embed/{id}': {
        get: {
        operationId: 'pages-embed', tags: ['Pages'], summary: 'Minimal player page for iframes',
        parameters: [idParameter('id', 'Demo id')],
        responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, '404': { description: 'HTML not-found page' } },
      },
    },
    '/oembed': {
        get: {
        operationId: 'pages-oembed', tags: ['Pages'], summary: 'oEmbed (type video) for share URLs',
        parameters: [
          { name: 'url', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['json'] } },
          { name: 'maxwidth', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'maxheight', in: 'query', schema: { type: 'integer', minimum: 1 } },
        ],
        responses: {
          '200': { description: 'oEmbed JSON', content: { 'application/json': { schema: { type: 'object' } } } },
          '400': error('Missing or malformed url'),
          '404': error('Not a share URL of this service, or no such demo'),
          '501': error('Only format=json is served'),
        },
      },
    },
  };
  return { api, site };
}
