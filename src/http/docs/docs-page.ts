import { html } from '../pages/html.js';

/**
 * The /docs page: Redoc renders the served OpenAPI document. No inline script: the bundle initialises itself on the
 * <redoc> element, whose attributes are its options, so the CSP can allow scripts from this origin only. The
 * document's URL is relative, so the page reads it from whichever host it was opened on.
 */
export const OPENAPI_DOCUMENT_PATH = '/api/v1/openapi.json';

/** System fonts: Redoc's defaults name Roboto and Montserrat, which this page neither loads nor fetches. */
const THEME = JSON.stringify({
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
    code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  },
  colors: { primary: { main: '#5b4bdb' } },
  sidebar: { width: '280px' },
});

export function renderDocsPage(bundleUrl: string): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Showreel</title>
<meta name="description" content="The Showreel REST API: every operation with its parameters, examples and errors.">
<link rel="alternate" type="application/json" href="${OPENAPI_DOCUMENT_PATH}" title="OpenAPI document">
</head>
<body style="margin:0">
<noscript><p style="font:16px system-ui,sans-serif;padding:24px">The API reference needs JavaScript. The OpenAPI document itself is at <a href="${OPENAPI_DOCUMENT_PATH}">${OPENAPI_DOCUMENT_PATH}</a>.</p></noscript>
<redoc spec-url="${OPENAPI_DOCUMENT_PATH}" theme="${THEME}" expand-responses="200,201,202" json-sample-expand-level="3" required-props-first="true"></redoc>
<script src="${bundleUrl}"></script>
</body>
</html>
`.value}`;
}

/**
 * Scripts from this origin only (no inline script, no eval); Redoc's styled components inject <style> elements,
 * hence inline styles; its search runs in a worker it builds from a blob: URL; images from here or data: URLs;
 * fetches (the OpenAPI document) to here only; no fonts from anywhere else; not framable.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
