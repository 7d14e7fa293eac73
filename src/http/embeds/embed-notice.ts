import type { IncomingMessage, ServerResponse } from 'node:http';
import { html } from '../pages/html.js';

/**
 * What a refused runtime embed URL shows when a browser opened it, typically inside an iframe on a customer's page:
 * a small, quiet notice in the frame (same status, the reason escaped), instead of raw `{"error"}` JSON. Other
 * clients (a server checking its signed URLs, curl) keep the JSON the spec gives.
 */

/** True when the client prefers HTML to JSON, as a browser's navigation does (`Accept: text/html,…`). */
export function prefersHtml(req: IncomingMessage): boolean {
  const accept = String(req.headers.accept ?? '');
  return quality(accept, 'text/html') > quality(accept, 'application/json');
}

/** The q-value a media type gets in an Accept header: its own entry, else `type/*`; `*\/*` alone counts for neither. */
function quality(accept: string, type: string): number {
  let best = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    if (range !== type && range !== `${type.split('/')[0]}/*`) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    if (Number.isFinite(value)) best = Math.max(best, value);
  }
  return best;
}

const HEADLINES: Record<number, string> = {
  400: 'This demo link is not valid',
  401: 'This demo link has expired or is not valid',
  404: 'This demo is not available',
  429: 'Too many requests right now',
};

/**
 * Fits a frame of any size (down to a 240×135 thumbnail slot): centred, small type, no fixed widths. Neutral light
 * and dark following the visitor's colour scheme, as the host page around it may be either.
 */
const STYLE = `*{box-sizing:border-box}html,body{height:100%;margin:0}
body{display:flex;align-items:center;justify-content:center;padding:12px;background:#f3f4f6;color:#4b5060;
font:13px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:center;overflow:hidden}
main{max-width:32em}h1{margin:0 0 4px;font-size:14px;font-weight:600;color:#2b2e37}p{margin:0;overflow-wrap:anywhere}
@media (prefers-color-scheme:dark){body{background:#1b1c21;color:#a9adb9}h1{color:#e3e5ea}}`;

export function renderEmbedNotice(status: number, reason: string): string {
  const headline = HEADLINES[status] ?? 'This demo cannot be shown';
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${headline}</title>
<style>${STYLE}</style>
</head>
<body>
<main role="alert" data-showreel-notice="${String(status)}"><h1>${headline}</h1><p>${reason}</p></main>
</body>
</html>
`.value}`;
}

/** The notice as an answer: no script at all, framable anywhere (it lives in customers' iframes), never cached. */
export function sendEmbedNotice(req: IncomingMessage, res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}): void {
  const body = renderEmbedNotice(status, reason);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    Vary: 'Accept',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
