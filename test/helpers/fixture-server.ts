import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** The fixture sites: realistic, self-contained pages (no network) that the pipeline tests record. */
export const FIXTURE_SITES_DIR = path.resolve(import.meta.dirname, '..', 'fixtures', 'sites');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.woff2': 'font/woff2',
};

export interface FixtureServer {
  /** The site's root URL, e.g. `http://127.0.0.1:PORT/saas/`. */
  url(site: string): string;
  /** The server's origin, `http://127.0.0.1:PORT`. */
  origin: string;
  close(): Promise<void>;
}

/** Serves test/fixtures/sites statically on 127.0.0.1 (a free port), with correct content types. */
export async function startFixtureServer(options: { root?: string; onRequest?(method: string, url: string): void } = {}): Promise<FixtureServer> {
  const root = options.root ?? FIXTURE_SITES_DIR;
  const server = http.createServer((request, response) => {
    options.onRequest?.(request.method ?? 'GET', request.url ?? '/');
    void serve(root, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('error');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (site: string) => `${origin}/${site.replace(/^\/+|\/+$/g, '')}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(root: string, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
    response.end('method not allowed');
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://fixture.invalid').pathname);
  } catch {
    response.writeHead(400, { 'content-type': 'text/plain' });
    response.end('bad request');
    return;
  }
  let file = path.resolve(root, `.${pathname}`);
  if (file !== root && !file.startsWith(root + path.sep)) {
    response.writeHead(403, { 'content-type': 'text/plain' });
    response.end('forbidden');
    return;
  }
  let stat = await fs.stat(file).catch(() => null);
  if (stat?.isDirectory()) {
    if (!pathname.endsWith('/')) {
      response.writeHead(301, { location: `${pathname}/` });
      response.end();
      return;
    }
    file = path.join(file, 'index.html');
    stat = await fs.stat(file).catch(() => null);
  }
  if (!stat?.isFile()) {
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    return;
  }
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  response.writeHead(200, { 'content-type': type, 'content-length': stat.size, 'cache-control': 'no-cache' });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  response.end(await fs.readFile(file));
}
