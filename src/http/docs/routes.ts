import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../respond.js';
import { DOCS_CONTENT_SECURITY_POLICY, renderDocsPage } from './docs-page.js';
import { docsScript } from './docs-script.js';
import { type DocsAsset, redocBundle, redocLicence } from './redoc-bundle.js';

export const REDOC_BUNDLE_PATH = '/docs/redoc.standalone.js';
const REDOC_LICENCE_PATH = '/docs/redoc.standalone.js.LICENSE.txt';
const DOCS_SCRIPT_PATH = '/docs/docs.js';

/** The page links the bundle by content hash: a new Redoc (or a new patch) is a new URL, so it may be cached a year. */
export const redocBundleUrl = () => `${REDOC_BUNDLE_PATH}?v=${redocBundle().version}`;
const docsScriptUrl = () => `${DOCS_SCRIPT_PATH}?v=${docsScript().version}`;

/**
 * GET/HEAD `/docs` (the API reference page), `/docs/redoc.standalone.js` and its licence, and the page's own
 * `/docs/docs.js`. Returns false for any other path.
 */
export function handleDocsRequest(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (path !== '/docs' && path !== REDOC_BUNDLE_PATH && path !== REDOC_LICENCE_PATH && path !== DOCS_SCRIPT_PATH) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, `Use GET for ${path}.`, { Allow: 'GET, HEAD' }), true;
  if (path === '/docs') {
    const body = renderDocsPage(redocBundleUrl(), docsScriptUrl());
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      // Short: the page names the bundle's current hash, which changes with a deployment.
      'Cache-Control': 'public, max-age=300',
      'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
  sendAsset(req, res, path === REDOC_BUNDLE_PATH ? redocBundle() : path === DOCS_SCRIPT_PATH ? docsScript() : redocLicence());
  return true;
}

function sendAsset(req: IncomingMessage, res: ServerResponse, asset: DocsAsset): void {
  const versioned = new URL(req.url ?? '/', 'http://x').searchParams.get('v') === asset.version;
  const headers = {
    ETag: asset.etag,
    'Cache-Control': versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  const inm = String(req.headers['if-none-match'] ?? '');
  if (inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? asset.gzipped : asset.body;
  res.writeHead(200, { ...headers, 'Content-Type': asset.contentType, 'Content-Length': body.length, ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
