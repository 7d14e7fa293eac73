import type { IncomingMessage, ServerResponse } from 'node:http';
import { demoUrls, findPublicDemo, type DemoRecord } from '../../demos/index.js';
import type { Config } from '../../platform/config.js';
import type { Queryable } from '../../platform/database.js';
import { sendJson } from '../respond.js';
import { demoState, variantShown } from './demo-view.js';
import type { PlayerProps } from '../../embeds/index.js';
import { renderEmbedPage } from './embed-page.js';
import { playerContentSecurityPolicy } from './player-page.js';
import { renderNotFoundPage } from './layout.js';
import { buildOembed, type OembedOptions } from './oembed.js';
import { renderSharePage } from './share-page.js';
import { findProjectById } from '../../projects/index.js';

export interface PageDependencies {
  sql: Queryable;
  config: Pick<Config, 'PUBLIC_URL'>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_METHODS = 'GET, HEAD';
const OEMBED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * The public pages: GET/HEAD `/share/<id>`, `/embed/<id>` (HTML) and `/oembed?url=<share URL>&format=json`
 * (JSON, CORS open). Answers and returns true for those paths, whatever the outcome; false for any other path,
 * untouched. Database errors are thrown to the caller (the server maps them to a 500).
 *
 * - Unknown, deleted, or not UUID-shaped id: 404, an HTML page for share/embed (no database query for a
 *   malformed id), `{error}` for oEmbed.
 * - oEmbed `url` missing or not an absolute URL: 400. A well-formed URL that is not a share URL of this service
 *   (other origin, other path): 404, the oEmbed convention for "this provider has no response for that url".
 *   `format` other than json (xml included): 501, as oEmbed 1.0 prescribes. maxwidth/maxheight that are not
 *   positive integers: 400.
 * - Other methods: 405 with Allow (oEmbed also answers a CORS preflight OPTIONS with 204).
 * - Caching: a playable page for 60 s; a page still recording or failed, and every error, `no-store` (the
 *   recording page reloads itself every 10 s and must see the new state).
 * - Share page: cannot be framed (`frame-ancestors 'none'` plus X-Frame-Options for old browsers). Embed page:
 *   frameable anywhere (`frame-ancestors *`, no X-Frame-Options), its 404 included so an iframe shows the notice.
 */
export async function handlePageRequest(req: IncomingMessage, res: ServerResponse, deps: PageDependencies): Promise<boolean> {
  const raw = req.url ?? '/';
  const queryAt = raw.indexOf('?');
  const rawPath = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const publicUrl = deps.config.PUBLIC_URL.replace(/\/+$/, '');

  if (path === '/oembed') {
    await oembed(req, res, deps.sql, publicUrl, new URLSearchParams(queryAt === -1 ? '' : raw.slice(queryAt + 1)));
    return true;
  }
  const page = /^\/(share|embed)\/([^/]+)$/.exec(path);
  if (!page) return false;
  const kind = page[1] as 'share' | 'embed';
  const id = (page[2] ?? '').toLowerCase();

  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: `Use GET or HEAD for /${kind}/<id>, not ${req.method}.` }, { Allow: PAGE_METHODS });
    return true;
  }
  const headers = pageHeaders(kind, publicUrl);
  const demo = UUID.test(id) ? await findPublicDemo(deps.sql, id) : null;
  if (!demo) {
    sendHtml(req, res, 404, renderNotFoundPage(kind, publicUrl), { ...headers, 'Cache-Control': 'no-store' });
    return true;
  }
  const urls = demoUrls(publicUrl, demo.id, demo.format);
  const query = new URLSearchParams(queryAt === -1 ? '' : raw.slice(queryAt + 1));
  const project = kind === 'share' ? await findProjectById(deps.sql, demo.project_id) : null;
  const body = kind === 'share'
    ? renderSharePage(demo, urls, project ? { name: project.name, url: project.url } : null, variantShown(demo, query.get('aspect')))
    : renderEmbedPage(demo, urls, playerPropsOf(query));
  // The share page's policy (sharePageSecurityPolicy) already lets the player's script run from our origin: its view
  // beacons (issue 38), and the chapter list and CC button (issue 36).
  sendHtml(req, res, 200, body, { ...headers, 'Cache-Control': cacheControl(demo) });
  return true;
}

/**
 * Player props of `/embed/<id>?autoplay=1&muted=1&loop=1&controls=0&start=5` (what the SDK's options become).
 * Anything else is ignored: a malformed prop must not break an embed on a customer's page.
 */
function playerPropsOf(query: URLSearchParams): PlayerProps {
  const props: PlayerProps = {};
  for (const name of ['autoplay', 'muted', 'loop', 'controls'] as const) {
    const value = query.get(name);
    if (value === '1' || value === 'true') props[name] = true;
    else if (value === '0' || value === 'false') props[name] = false;
  }
  // Issue 59: `aspect=9x16` (or `1x1`) plays that cut when the demo has it (renderPlayerPage), else the 16:9 video.
  const aspect = query.get('aspect')?.replace(/x/i, ':');
  if (aspect === '16:9' || aspect === '9:16' || aspect === '1:1') props.aspect = aspect;
  const start = Number(query.get('start'));
  if (query.get('start') !== null && Number.isFinite(start) && start > 0 && start <= 86_400) props.startAt = start;
  return props;
}

function cacheControl(demo: DemoRecord): string {
  return demoState(demo) === 'playable' ? 'public, max-age=60' : 'no-store';
}

/** Only same-origin media and images (the service's own /video, /thumb), inline styles; no script. */
export function contentSecurityPolicy(publicUrl: string, frameAncestors: "'none'" | '*'): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    `img-src 'self' ${origin}`,
    `media-src 'self' ${origin}`,
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/**
 * The share page's: as above, unframeable, plus the player script from the service's origin and its view beacons
 * (connect-src governs navigator.sendBeacon) to the same origin (issue 38). Still no inline script.
 */
function sharePageSecurityPolicy(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return contentSecurityPolicy(publicUrl, "'none'").replace("default-src 'none'", `default-src 'none'; script-src ${origin}; connect-src ${origin}`);
}

function pageHeaders(kind: 'share' | 'embed', publicUrl: string): Record<string, string> {
  const common = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
  if (kind === 'embed') return { ...common, 'Content-Security-Policy': playerContentSecurityPolicy(publicUrl) };
  return { ...common, 'Content-Security-Policy': sharePageSecurityPolicy(publicUrl), 'X-Frame-Options': 'DENY' };
}

function sendHtml(req: IncomingMessage, res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function oembed(req: IncomingMessage, res: ServerResponse, sql: Queryable, publicUrl: string, params: URLSearchParams): Promise<void> {
  const cors = { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' };
  // JSON bodies of HEAD answers are dropped by node's http (it never sends a body for HEAD).
  const fail = (status: number, error: string, extra: Record<string, string> = {}) => sendJson(res, status, { error }, { ...cors, ...extra });

  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, Allow: OEMBED_METHODS, 'Access-Control-Allow-Methods': OEMBED_METHODS, 'Access-Control-Max-Age': '86400' });
    res.end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, `Use GET for /oembed, not ${req.method}.`, { Allow: OEMBED_METHODS });

  const format = params.get('format') ?? 'json';
  if (format !== 'json') return fail(501, `format=${format} is not supported; use format=json.`);

  const target = params.get('url');
  if (!target) return fail(400, 'The url parameter is required: the share URL of a demo.');
  let parsed: URL;
  try {
    parsed = new URL(target);
  } catch {
    return fail(400, 'The url parameter must be an absolute URL.');
  }
  const sizes: OembedOptions = {};
  for (const name of ['maxwidth', 'maxheight'] as const) {
    const value = params.get(name);
    if (value === null || value === '') continue;
    if (!/^\d{1,6}$/.test(value) || Number(value) === 0) return fail(400, `${name} must be a positive integer.`);
    sizes[name] = Number(value);
  }

  const id = shareIdOf(parsed, publicUrl);
  if (id === null) return fail(404, `No oEmbed response for ${target}: it is not a Showreel share URL of ${publicUrl}.`);
  const demo = UUID.test(id) ? await findPublicDemo(sql, id) : null;
  if (!demo) return fail(404, 'This demo could not be found.');

  const body = buildOembed(demo, demoUrls(publicUrl, demo.id, demo.format), sizes);
  sendJson(res, 200, body, { ...cors, 'Cache-Control': cacheControl(demo) });
}

/** The demo id of `<PUBLIC_URL>/share/<id>` (any query or fragment ignored; origin compared normalised), else null. */
function shareIdOf(url: URL, publicUrl: string): string | null {
  const base = new URL(publicUrl);
  const prefix = `${base.pathname.replace(/\/+$/, '')}/share/`;
  if (url.origin !== base.origin || !url.pathname.startsWith(prefix)) return null;
  const id = url.pathname.slice(prefix.length).replace(/\/+$/, '');
  return id === '' || id.includes('/') ? null : id.toLowerCase();
}
