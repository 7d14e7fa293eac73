import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { AppRouter } from './app-router.js';
import { addReference } from './api-reference/apply.js';
import { API_PREFIX, listRoutes } from './rest-handler.js';

type Json = Record<string, unknown>;

const ERROR_SCHEMA = {
  type: 'object',
  properties: { error: { type: 'string', description: 'A sentence a person can act on.' } },
  required: ['error'],
  additionalProperties: false,
};

/** The document describes a private service (package.json `private`, no open-source licence): say so, not nothing. */
const LICENSE = { name: 'Proprietary (all rights reserved)', identifier: 'LicenseRef-Proprietary' };

const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'Invalid input; the message names the field.',
  '401': 'No credential, or an invalid one.',
  '403': 'Not allowed: the credential may not do this (publishable or project-scoped key), or a browser sent it from another site.',
  '404': 'Not found, or not yours.',
  '405': 'Method not allowed on this path.',
  '409': 'Conflict with the current state.',
  '411': 'Content-Length is required.',
  '413': 'The body is too large.',
  '415': 'Wrong media type.',
  '429': 'Rate limit or quota exceeded.',
  '500': 'A fault of ours, logged with the request id.',
};

/**
 * The OpenAPI 3.1.0 document of /api/v1, generated from the procedures (the source of truth) and then patched
 * where the generator cannot know: 201/202 success statuses, and our `{"error"}` body for every error response.
 * Endpoints served outside tRPC are added by `extraPaths` (`api`: under /api/v1, `site`: from the site root).
 *
 * One server, the site (PUBLIC_URL), declared once; every path is written from it (`/api/v1/projects`, `/share/{id}`),
 * as a client types it, so no path needs a `servers` of its own. The document must stay clean for clients:
 * test/http/openapi-lint.test.ts runs `redocly lint` (recommended-strict rules) on the served document.
 */
export function buildOpenApiDocument(router: AppRouter, publicUrl: string, extraPaths: { api?: Json; site?: Json } = {}): Json {
  const document = generateOpenApiDocument(router, {
    title: 'Showreel API',
    description: 'Turns a product web page into a polished demo video.',
    version: '1.0.0',
    openApiVersion: '3.1.0',
    baseUrl: publicUrl,
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'A live key: sr_live_…' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A live key, or a publishable key (sr_pub_…) for POST /embed/generate only.' },
      session: { type: 'apiKey', in: 'cookie', name: 'showreel.session_token', description: 'The dashboard session set by POST /auth/sign-in.' },
    },
  }) as unknown as Json;

  const apiPaths = { ...(document.paths as Json), ...extraPaths.api };
  const paths = {
    ...Object.fromEntries(Object.entries(apiPaths).map(([path, item]) => [`${API_PREFIX}${path}`, item])),
    ...extraPaths.site,
  } as Record<string, Record<string, Json>>;
  const statusByOperation = new Map(listRoutes(router).map((r) => [r.procedurePath, r.successStatus]));

  for (const pathItem of Object.values(paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      if (method === 'servers' || method === 'parameters') continue;
      // An operation that needs no credential says so (`security: []`), so clients and linters need not guess.
      operation.security ??= [];
      const responses = operation.responses as Record<string, Json> | undefined;
      if (!responses) continue;
      const success = statusByOperation.get(String(operation.operationId ?? '').replace(/-/g, '.'));
      if (success && success !== 200 && responses['200']) {
        responses[String(success)] = responses['200'];
        delete responses['200'];
      }
      for (const status of Object.keys(responses)) {
        if (Number(status) < 400 && status !== 'default') continue;
        if (status === 'default') {
          delete responses[status];
          continue;
        }
        responses[status] = {
          description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        };
      }
    }
  }
  // Every error response now points at Error; the generator's own error components (error.NOT_FOUND …) are unused.
  const components = (document.components ?? {}) as Json;
  const schemas = Object.fromEntries(Object.entries((components.schemas as Json) ?? {}).filter(([name]) => !name.startsWith('error.')));
  components.schemas = { ...schemas, Error: ERROR_SCHEMA };
  const info = { ...(document.info as Json), license: LICENSE };
  const result = { ...document, openapi: '3.1.0', info, servers: [{ url: publicUrl, description: 'This service (PUBLIC_URL)' }], paths, components };
  // What /docs shows beyond the schemas: descriptions, examples, curl samples, tags (api-reference/).
  addReference(result);
  return result;
}
