import { html, raw } from '../pages/html.js';

/**
 * The /docs page: Redoc renders the served OpenAPI document under the dashboard's bar, in its colours. No inline
 * script: the page's own docs.js (docs-script.ts) starts Redoc with the options in the mount element's attributes,
 * so the CSP can allow scripts from this origin only. The document's URL is relative, so the page reads it from
 * whichever host it was opened on.
 */
export const OPENAPI_DOCUMENT_PATH = '/api/v1/openapi.json';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** The fixed bar above Redoc (px): Redoc's sticky sidebar and its scrolling to a section leave room for it. */
const BAR_HEIGHT = 52;

/**
 * Redoc in the dashboard's colours (issue 57: a light Redoc beside a dark dashboard): its background, panels, lines,
 * text and accent (src/http/dashboard/static/dashboard.css). System fonts: Redoc's defaults name Roboto and
 * Montserrat, which this page neither loads nor fetches.
 */
const THEME = {
  colors: {
    primary: { main: '#6c7cff' },
    success: { main: '#3ecf8e' },
    error: { main: '#ff6b7a' },
    warning: { main: '#f5b94a' },
    text: { primary: '#e8e9ed', secondary: '#a3a7b3' },
    border: { light: '#262935', dark: '#3a3e4c' },
    gray: { 50: '#13151b', 100: '#1c1f28' },
    responses: {
      success: { color: '#3ecf8e', backgroundColor: 'rgba(62, 207, 142, 0.1)', tabTextColor: '#3ecf8e' },
      error: { color: '#ff6b7a', backgroundColor: 'rgba(255, 107, 122, 0.1)', tabTextColor: '#ff6b7a' },
      redirect: { color: '#f5b94a', backgroundColor: 'rgba(245, 185, 74, 0.1)', tabTextColor: '#f5b94a' },
      info: { color: '#a9b3ff', backgroundColor: 'rgba(169, 179, 255, 0.1)', tabTextColor: '#a9b3ff' },
    },
  },
  schema: { linesColor: '#3a3e4c', typeNameColor: '#a3a7b3', typeTitleColor: '#a3a7b3', requireLabelColor: '#ff6b7a', nestedBackground: '#13151b', arrow: { color: '#a3a7b3' } },
  typography: {
    fontFamily: FONT,
    headings: { fontFamily: FONT },
    code: { fontFamily: MONO, color: '#e8e9ed', backgroundColor: '#1c1f28' },
    links: { color: '#a9b3ff', visited: '#a9b3ff', hover: '#c9d0ff' },
  },
  sidebar: {
    width: '280px',
    backgroundColor: '#0e1015',
    textColor: '#a3a7b3',
    activeTextColor: '#e8e9ed',
    groupItems: { activeBackgroundColor: '#1f2330', activeTextColor: '#e8e9ed' },
    level1Items: { activeBackgroundColor: '#1f2330', activeTextColor: '#e8e9ed' },
    arrow: { color: '#a3a7b3' },
  },
  rightPanel: { backgroundColor: '#13151b', textColor: '#e8e9ed' },
  codeBlock: { backgroundColor: '#0b0c10' },
  // The menu button on phones.
  fab: { backgroundColor: '#1f2330', color: '#a9b3ff' },
};

const OPTIONS = JSON.stringify({
  theme: THEME,
  expandResponses: '200,201,202',
  jsonSampleExpandLevel: 3,
  requiredPropsFirst: true,
  scrollYOffset: BAR_HEIGHT,
  hideDownloadButton: true,
});

/**
 * The page's own styles: the bar (the dashboard's, with the way back to it), the background under Redoc, and what
 * Redoc's theme does not reach (its search box and the content-type dropdowns are white on their own).
 */
const STYLE = `
body{margin:0;background:#0b0c10;color:#e8e9ed;font-family:${FONT}}
.docs-top{position:fixed;top:0;left:0;right:0;height:${BAR_HEIGHT}px;box-sizing:border-box;z-index:20;display:flex;align-items:center;gap:20px;padding:0 24px;background:#0e1015;border-bottom:1px solid #262935}
.docs-top a{color:#a3a7b3;text-decoration:none;padding:6px 10px;border-radius:8px;white-space:nowrap}
.docs-top a:hover{color:#e8e9ed;background:#1a1d25}
.docs-top .brand{color:#e8e9ed;font-weight:700;font-size:1.05rem;padding:0}
.docs-top .brand::before{content:"";display:inline-block;width:10px;height:10px;border-radius:50%;background:#ff4d5e;margin-right:8px;vertical-align:1px}
.docs-top .brand:hover{background:none}
.docs-top nav{display:flex;gap:4px;align-items:center;flex:1;overflow-x:auto}
.docs-top [aria-current=page]{color:#e8e9ed;background:#1f2330;padding:6px 10px;border-radius:8px;white-space:nowrap}
.docs-top .doc-link{margin-left:auto}
#redoc,.docs-failed{padding-top:${BAR_HEIGHT}px}
.docs-failed,noscript p{display:block;padding:${BAR_HEIGHT + 24}px 24px 24px;font-size:16px}
#redoc input[type=text],#redoc input:not([type]){background:#13151b;color:#e8e9ed;border-color:#262935}
#redoc .dropdown,#redoc select{background-color:#1c1f28;color:#e8e9ed}
#redoc .react-tabs__tab--selected{background:#2a2e3b}
@media (max-width:560px){.docs-top{gap:8px;padding:0 12px}.docs-top .doc-link{display:none}}
`;

export function renderDocsPage(bundleUrl: string, scriptUrl: string): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>API reference · Showreel</title>
<meta name="description" content="The Showreel REST API: a quick start, then every operation with its parameters, examples and errors.">
<link rel="alternate" type="application/json" href="${OPENAPI_DOCUMENT_PATH}" title="OpenAPI document">
<style>${raw(STYLE)}</style>
</head>
<body>
<header class="docs-top">
<a class="brand" href="/app/">Showreel</a>
<nav aria-label="Sections"><a href="/app/">← Dashboard</a><span aria-current="page">API reference</span><a class="doc-link" href="${OPENAPI_DOCUMENT_PATH}">OpenAPI document</a></nav>
</header>
<noscript><p>The API reference needs JavaScript. The OpenAPI document itself is at <a href="${OPENAPI_DOCUMENT_PATH}">${OPENAPI_DOCUMENT_PATH}</a>.</p></noscript>
<div id="redoc" data-spec-url="${OPENAPI_DOCUMENT_PATH}" data-options="${OPTIONS}"></div>
<script src="${bundleUrl}"></script>
<script src="${scriptUrl}"></script>
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
