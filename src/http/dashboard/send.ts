import type { ServerResponse } from 'node:http';

/**
 * The dashboard's Content-Security-Policy: scripts and styles only from this origin's files (no inline script or
 * style), media and images from here, fetches and the progress WebSocket back to here. `publicOrigin` is added
 * beside 'self' because media URLs and snippets are built from PUBLIC_URL, which may differ from the host typed.
 */
export function dashboardCsp(publicOrigin: string, formTargets: string[] = []): string {
  const ws = publicOrigin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    `script-src 'self' ${publicOrigin}`,
    `style-src 'self' ${publicOrigin}`,
    `img-src 'self' ${publicOrigin} data: blob:`,
    `media-src 'self' ${publicOrigin} blob:`,
    `connect-src 'self' ${publicOrigin} ${ws}`,
    // A form may lead on only to here, or to the payment service's checkout (the buy form redirects there).
    ["form-action 'self'", ...formTargets].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Dashboard pages: never cached, never framed (an Approve button in a frame is a clickjacking target). */
export function sendPage(res: ServerResponse, status: number, body: string, csp: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': csp,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    ...headers,
  });
  res.end(body);
}

/** 303: after a form post the browser GETs the next page, so a reload never posts twice. */
export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}
