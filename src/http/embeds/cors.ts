import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForbiddenError } from '../../platform/errors.js';
import { hostAllowed } from '../../embeds/index.js';

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The calling page's origin (`Origin` header), or null when the browser sent none (or `null`). */
export function requestOrigin(req: IncomingMessage): string | null {
  const origin = first(req.headers.origin)?.trim();
  return origin && origin !== 'null' ? origin : null;
}

/**
 * CORS for the embed API. The answer names the calling origin, never `*`: a restricted key's answers are readable
 * only by the page that asked (and its allowlist decided whether that page gets a demo at all). Varying on Origin
 * keeps shared caches from handing one site's answer to another.
 */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = requestOrigin(req);
  return origin ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : { Vary: 'Origin' };
}

/** The preflight: POST with X-API-Key and a JSON body, cached by the browser for a day. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, methods: string): void {
  res.writeHead(204, {
    ...corsHeaders(req),
    'Access-Control-Allow-Methods': methods,
    'Access-Control-Allow-Headers': 'X-API-Key, Content-Type',
    'Access-Control-Max-Age': '86400',
    Allow: methods,
    'Cache-Control': 'no-store',
  });
  res.end();
}

/**
 * Spec Embeds "Allowed domains": a publishable key with an allowlist works only from a page on one of its domains,
 * judged by the `Origin` header, else by `Referer`. Otherwise 403 naming the host.
 */
export function assertPageAllowed(req: IncomingMessage, allowedDomains: readonly string[]): void {
  const page = requestOrigin(req) ?? first(req.headers.referer) ?? null;
  let host: string | null = null;
  try {
    host = page ? new URL(page).hostname : null;
  } catch {
    host = null;
  }
  if (host === null || host === '') {
    throw new ForbiddenError('This publishable key works only on pages of its allowed domains, and the request named no page (no Origin or Referer header).');
  }
  if (!hostAllowed(host, allowedDomains)) {
    throw new ForbiddenError(`This publishable key is not allowed on ${host}; add ${host} to the key's allowed_domains.`);
  }
}
