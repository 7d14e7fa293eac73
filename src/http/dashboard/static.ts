import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sendError } from '../respond.js';

/**
 * The dashboard's one stylesheet and one script, at `/app/static/<name>`. Pages link them with `?v=<content hash>`
 * (cached for a year, immutable); the plain URL revalidates with the ETag. Loaded once per process.
 */
const FILES = { 'dashboard.css': 'text/css; charset=utf-8', 'dashboard.js': 'text/javascript; charset=utf-8' } as const;
type Name = keyof typeof FILES;
const DIR = path.join(import.meta.dirname, 'static');
const loaded = new Map<Name, { body: Buffer; gzipped: Buffer; version: string }>();

function load(name: Name) {
  let file = loaded.get(name);
  if (!file) {
    const body = readFileSync(path.join(DIR, name));
    file = { body, gzipped: gzipSync(body, { level: 9 }), version: createHash('sha256').update(body).digest('base64url').slice(0, 16) };
    loaded.set(name, file);
  }
  return file;
}

export function staticPath(name: Name): string {
  return `/app/static/${name}?v=${load(name).version}`;
}

export function handleDashboardStatic(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
  const name = pathname.slice('/app/static/'.length) as Name;
  // Own names only: `toString`, `constructor` and `__proto__` are `in` every object, and used to reach readFileSync (a 500).
  if (!pathname.startsWith('/app/static/') || !Object.hasOwn(FILES, name)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, `Use GET for ${pathname}.`, { Allow: 'GET, HEAD' }), true;
  const file = load(name);
  const etag = `"${file.version}"`;
  const versioned = new URL(req.url ?? '/', 'http://x').searchParams.get('v') === file.version;
  const headers = {
    ETag: etag,
    'Cache-Control': versioned ? 'public, max-age=31536000, immutable' : 'no-cache',
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  const inm = String(req.headers['if-none-match'] ?? '');
  if (inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    res.writeHead(304, headers);
    return res.end(), true;
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? file.gzipped : file.body;
  res.writeHead(200, { ...headers, 'Content-Type': FILES[name], 'Content-Length': body.length, ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
