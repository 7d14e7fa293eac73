import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sendJson } from '../respond.js';

interface Asset {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  version: string;
}

const STATIC_DIR = path.join(import.meta.dirname, 'static');
/** The scripts the embed surface serves: the SDK a host page loads, and the player inside the iframe. */
export const STATIC_ASSETS = ['sdk.js', 'player.js'] as const;
export type StaticAssetName = (typeof STATIC_ASSETS)[number];

const assets = new Map<string, Asset>();

function load(name: StaticAssetName): Asset {
  let asset = assets.get(name);
  if (!asset) {
    const body = readFileSync(path.join(STATIC_DIR, name));
    const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    asset = { body, gzipped: gzipSync(body, { level: 9 }), etag: `"${version}"`, version };
    assets.set(name, asset);
  }
  return asset;
}

/** `/player.js?v=<content hash>`: a URL that changes whenever the file does, so it can be cached for a year. */
export function versionedAssetPath(name: StaticAssetName): string {
  return `/${name}?v=${load(name).version}`;
}

export function staticAssetBytes(name: StaticAssetName): { raw: number; gzipped: number } {
  const asset = load(name);
  return { raw: asset.body.length, gzipped: asset.gzipped.length };
}

/**
 * GET/HEAD `/sdk.js` and `/player.js`. `/sdk.js` keeps one URL that every customer page embeds, so it is cached a
 * day (and served stale for a week while revalidating) with an ETag; a `?v=` URL is immutable for a year. Gzip when
 * the client accepts it. Returns false for other paths.
 */
export function handleStaticAsset(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
  const name = STATIC_ASSETS.find((n) => pathname === `/${n}`);
  if (!name) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: `Use GET for ${pathname}.` }, { Allow: 'GET, HEAD' });
    return true;
  }
  const asset = load(name);
  const versioned = new URL(req.url ?? '/', 'http://x').searchParams.get('v') === asset.version;
  const headers: Record<string, string> = {
    ETag: asset.etag,
    'Cache-Control': versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=86400, stale-while-revalidate=604800',
    Vary: 'Accept-Encoding',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Content-Type-Options': 'nosniff',
  };
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? asset.gzipped : asset.body;
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/javascript; charset=utf-8',
    'Content-Length': body.length,
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
