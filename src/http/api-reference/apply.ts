import { API_OPERATIONS, type OperationReference } from './api-operations.js';
import { RAW_OPERATIONS, SAMPLE_PUBLISHABLE_KEY } from './raw-operations.js';
import { WEBHOOK_OPERATIONS } from './webhook-operations.js';

type Json = Record<string, any>;

const OPERATIONS: Record<string, OperationReference> = { ...API_OPERATIONS, ...WEBHOOK_OPERATIONS, ...RAW_OPERATIONS };

/**
 * The resources the reference is grouped by, in this order, each with a line of what it is. What a script uses first
 * comes first; Auth (the dashboard's cookie sessions, which scripts never call) last: /docs opened on sign-up (issue 57).
 */
export const TAGS = [
  { name: 'Projects', description: 'A project is one product site: the page demos are recorded from, its viewport, its refresh schedule and its signing secret.' },
  { name: 'Demos', description: 'Demo videos of a project’s page: generated from a prompt, refreshed, restyled, or uploaded. Generation runs in the background; follow it by polling or WebSocket.' },
  { name: 'Webhooks', description: 'Calls from your deployment pipeline, authenticated by a project’s webhook secret; and the endpoints Showreel calls, signed, when a project’s demos are ready, fail or change.' },
  { name: 'API keys', description: 'Live keys (sr_live_…) for servers and the CLI; publishable keys (sr_pub_…) for embeds on your pages.' },
  { name: 'Credits', description: 'Each generation, refresh or restyle costs one credit, refunded when it fails. Packs, auto top-off and the transaction history.' },
  { name: 'Usage', description: 'Your plan, its limits and this month’s usage.' },
  { name: 'Backgrounds', description: 'Images and gradients for a demo’s presentation background: the catalog and your uploads.' },
  { name: 'Device login', description: 'How the CLI logs in (RFC 8628): a code approved in the dashboard becomes a live key.' },
  { name: 'Embeds', description: 'Demos on your own pages: the sdk.js placeholders with a publishable key, or runtime iframe URLs signed by your server (docs/embedding.md).' },
  { name: 'Media', description: 'A demo’s video, thumbnail and GIF: public by unguessable id, with Range and ETag support.' },
  { name: 'Pages', description: 'The share page, the iframe player and oEmbed.' },
  { name: 'Auth', description: 'Accounts and dashboard sessions. Scripts and servers use API keys instead.' },
];

const ERROR_EXAMPLES: Record<string, string> = {
  '400': 'The page URL must be a full http(s) address, like https://example.com.',
  '401': 'Authentication required: send a live API key or sign in.',
  '403': 'A publishable key can only call POST /api/v1/embed/generate.',
  '404': 'Not found.',
  '405': 'This method is not allowed here.',
  '409': 'A job is already running for this demo; wait until it is done.',
  '411': 'Content-Length is required.',
  '413': 'The request body is too large.',
  '415': 'Send the request body as application/json.',
  '416': 'The requested range is outside the file.',
  '429': 'Too many requests; try again later.',
  '431': 'The request headers are too large.',
  '501': 'Only format=json is served.',
};

const isJson = (type: string) => type === 'application/json' || type === 'application/x-www-form-urlencoded';
const isText = (type: string) => type.startsWith('text/');

/**
 * Gives every operation of the document what /docs shows beyond the schema: its description, examples of its
 * parameters, body and answers (errors included), a curl sample, and the resource tags with their descriptions.
 * Operations without an entry are left as they are (test/http/openapi.test.ts fails on them).
 */
export function addReference(document: Json): void {
  const server = String(document.servers?.[0]?.url ?? '');
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      const reference = OPERATIONS[String(operation.operationId)];
      if (!reference) continue;
      operation.description = reference.description;
      for (const parameter of operation.parameters ?? []) {
        if (reference.parameters && parameter.name in reference.parameters) parameter.example = reference.parameters[parameter.name];
      }
      for (const [type, media] of Object.entries<Json>(operation.requestBody?.content ?? {})) {
        if (isJson(type) && reference.request !== undefined) media.example = reference.request;
      }
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        if (Number(status) >= 400) {
          if (operation.operationId === 'embeds-runtime') response.content['text/html'] = { schema: { type: 'string' }, example: notice(ERROR_EXAMPLES[status]) };
          const media = response.content?.['application/json'];
          if (media && ERROR_EXAMPLES[status]) media.example = { error: ERROR_EXAMPLES[status] };
          continue;
        }
        for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
          if ((isJson(type) || isText(type)) && reference.response !== undefined) media.example = successExample(operation.operationId, status, reference.response);
        }
      }
      operation['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: curl(server, path, method, operation, reference) }];
    }
  }
  document.tags = TAGS;
  document.info.description = introduction(server);
}

/**
 * The top of /docs, before any operation: a quick start from a key to a video, then how every call authenticates and
 * fails. Redoc lists each `#` heading in its sidebar, so the page opens on the quick start (issue 57).
 */
function introduction(server: string): string {
  const sample = (lines: string[]) => ['```sh', ...lines, '```'];
  return [
    'Turns a product web page into a polished demo video.',
    '',
    '# Quick start',
    '',
    '1. **Get a live API key**: in the dashboard under *API keys*, or with `showreel login` (the CLI keeps it). Send it as `Authorization: Bearer sr_live_…`.',
    '2. **Create a project**: the page to record. The answer has its `id`.',
    '',
    ...sample([
      `curl -X POST '${server}/api/v1/projects' \\`,
      '  -H "Authorization: Bearer $SHOWREEL_API_KEY" -H \'Content-Type: application/json\' \\',
      `  -d '{"name": "Acme store", "url": "https://acme.example/"}'`,
    ]),
    '',
    '3. **Ask for a demo** of it with a prompt (one credit, refunded if it fails). The answer, 202, has the demo\'s `id`, `pollUrl` and `wsUrl`.',
    '',
    ...sample([
      `curl -X POST '${server}/api/v1/demos' \\`,
      '  -H "Authorization: Bearer $SHOWREEL_API_KEY" -H \'Content-Type: application/json\' \\',
      `  -d '{"project_id": "<project id>", "prompt": "Show the pricing plans"}'`,
    ]),
    '',
    '4. **Follow it** until `status` is `ready` (a minute or two): poll `pollUrl` every 2 s, or open `wsUrl` for pushed progress.',
    '',
    ...sample([`curl '${server}/api/v1/demos/<demo id>/progress' -H "Authorization: Bearer $SHOWREEL_API_KEY"`]),
    '',
    `5. **Use it**: the video at \`${server}/video/<demo id>.mp4\`, the share page at \`${server}/share/<demo id>\`, or on your own pages with the snippets under *Embeds*.`,
    '',
    'The same from a terminal: `showreel demos create --project <project id> --prompt "Show the pricing plans" --wait`.',
    '',
    '# Authentication and errors',
    '',
    'Authenticate with a live API key (`Authorization: Bearer sr_live_…`, or `X-API-Key`). Publishable keys (`sr_pub_…`) belong in web pages and only start or show embeds. Pages and media are public by unguessable id.',
    '',
    'Every error answers its status with `{"error": "<a sentence a person can act on>"}`. Generating, refreshing and restyling a demo each cost one credit, refunded when the job fails.',
  ].join('\n');
}

/** POST /embed/generate answers 200 with a demo it already had, 202 with one it starts. */
function successExample(operationId: string, status: string, example: unknown): unknown {
  if (operationId === 'embeds-generate' && status === '202') return { ...(example as Json), status: 'pending', cached: false };
  return example;
}

const notice = (message = 'This embed link is not valid.') =>
  `<!doctype html><html lang="en"><head><title>This demo cannot be shown</title>…</head><body><main role="alert"><h1>This demo cannot be shown</h1><p>${message}</p></main></body></html>`;

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command a developer can paste: the example's path and query, the credential from the environment, the body. */
function curl(server: string, path: string, method: string, operation: Json, reference: OperationReference): string {
  const examples = reference.parameters ?? {};
  const parameters: Json[] = operation.parameters ?? [];
  let url = server + path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(examples[name] ?? `<${name}>`)));
  const query = parameters.filter((p) => p.in === 'query' && p.name in examples).map((p) => `${p.name}=${encodeURIComponent(String(examples[p.name]))}`);
  if (query.length > 0) url += `?${query.join('&')}`;
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${quote(url)}`];
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  if (scheme === 'bearer') lines.push(`-H "Authorization: Bearer $SHOWREEL_API_KEY"`);
  if (scheme === 'apiKey') lines.push(`-H ${quote(`X-API-Key: ${SAMPLE_PUBLISHABLE_KEY}`)}`, `-H 'Origin: https://acme.example'`);
  for (const p of parameters) {
    if (p.in === 'header' && p.name in examples && p.name !== 'Content-Length') lines.push(`-H ${quote(`${p.name}: ${examples[p.name]}`)}`);
  }
  if (method === 'options') lines.push(`-H 'Origin: https://acme.example'`, `-H 'Access-Control-Request-Method: POST'`, `-H 'Access-Control-Request-Headers: content-type, x-api-key'`);
  const types = Object.keys(operation.requestBody?.content ?? {});
  if (types.includes('application/json') && reference.request !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`, `-d ${quote(JSON.stringify(reference.request))}`);
  } else if (types.includes('multipart/form-data')) {
    lines.push(`-F 'file=@background.png'`);
  } else if (types.length > 0) {
    const type = types[0]!;
    lines.push(`-H ${quote(`Content-Type: ${type}`)}`, `--data-binary @${type.startsWith('video/') ? `demo.${type.split('/')[1]}` : `asset.${type.split('/')[1]}`}`);
  }
  const binary = Object.entries<Json>(operation.responses?.['200']?.content ?? {}).find(([, media]) => media.schema?.format === 'binary');
  if (binary) lines.push(`-o ${String(examples.file ?? 'file')}`);
  return lines.join(' \\\n  ');
}
