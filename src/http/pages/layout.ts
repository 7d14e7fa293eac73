import { html, raw, type SafeHtml } from './html.js';

/**
 * The shell and styles shared by the public pages. No script, no external asset (fonts, CDN): the pages work
 * under `default-src 'none'` with only inline styles and same-origin media allowed.
 */

const FONT = `system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif`;

const STATE_CSS = `
.state{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:12px;width:100%;height:100%;padding:24px;text-align:center;background:radial-gradient(ellipse at center,#1b1d26 0%,#0c0d11 75%)}
.state p{margin:0;max-width:40ch}
.state .lead{font-weight:600}
.state .hint{color:#8d919e;font-size:.9em}
.pulse{width:14px;height:14px;border-radius:50%;background:#ff4d5e;box-shadow:0 0 0 6px rgba(255,77,94,.15);animation:pulse 1.6s ease-in-out infinite}
.mark{width:14px;height:14px;border-radius:50%;background:#6b6f7b}
@keyframes pulse{0%,100%{opacity:1;transform:scale(1)}50%{opacity:.4;transform:scale(.8)}}
@media (prefers-reduced-motion:reduce){.pulse{animation:none}}`;

export const SHARE_CSS = `
:root{color-scheme:dark}
*{box-sizing:border-box}
html,body{margin:0}
body{min-height:100vh;display:flex;flex-direction:column;background:#0b0c10;color:#e8e9ed;font:16px/1.5 ${FONT};-webkit-font-smoothing:antialiased}
main{flex:1;width:100%;max-width:1120px;margin:0 auto;padding:clamp(16px,4vw,48px) clamp(12px,3vw,32px) 16px}
.player{aspect-ratio:16/9;width:100%;background:#000;border-radius:14px;overflow:hidden;box-shadow:0 24px 64px rgba(0,0,0,.5),0 0 0 1px rgba(255,255,255,.06)}
.player video{display:block;width:100%;height:100%;object-fit:contain;background:#000}
h1{margin:24px 0 6px;font-size:clamp(1.2rem,2.4vw,1.7rem);font-weight:650;letter-spacing:-.01em;line-height:1.25;overflow-wrap:anywhere}
.desc{margin:0;color:#a3a7b3;max-width:72ch;overflow-wrap:anywhere}
.product{margin:14px 0 0}.product a{color:#a9b3ff;font-weight:600}.product .muted{color:#6b6f7b;font-size:.9rem}
footer{padding:20px 16px 28px;text-align:center;color:#6b6f7b;font-size:.85rem}
footer a{color:#a3a7b3;text-decoration:none}
footer a:hover,footer a:focus{color:#fff;text-decoration:underline}
${STATE_CSS}`;

export const EMBED_CSS = `
:root{color-scheme:dark}
*{box-sizing:border-box}
html,body{margin:0;width:100%;height:100%;overflow:hidden;background:#000}
body{color:#e8e9ed;font:14px/1.4 ${FONT};-webkit-font-smoothing:antialiased}
video{display:block;width:100%;height:100%;object-fit:contain;background:#000}
${STATE_CSS}`;

export interface DocumentParts {
  title: string;
  css: string;
  /** extra <head> markup: meta tags, links */
  head?: SafeHtml;
  body: SafeHtml;
}

export function htmlDocument(parts: DocumentParts): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
${parts.head}
<style>${raw(parts.css)}</style>
</head>
<body>
${parts.body}
</body>
</html>
`.value}`;
}

export function footer(publicUrl: string): SafeHtml {
  return html`<footer>Made with <a href="${publicUrl}" rel="noopener">Showreel</a></footer>`;
}

/** 404 for an unknown or deleted demo. `embed`: compact, meant for an iframe. */
export function renderNotFoundPage(kind: 'share' | 'embed', publicUrl: string): string {
  const message = html`<div class="state" role="status">
<div class="mark" aria-hidden="true"></div>
<p class="lead">This demo could not be found.</p>
<p class="hint">It may have been deleted, or the link is incomplete.</p>
</div>`;
  const robots = html`<meta name="robots" content="noindex">`;
  if (kind === 'embed') return htmlDocument({ title: 'Demo not found · Showreel', css: EMBED_CSS, head: robots, body: message });
  return htmlDocument({
    title: 'Demo not found · Showreel',
    css: SHARE_CSS,
    head: robots,
    body: html`<main><div class="player">${message}</div></main>
${footer(publicUrl)}`,
  });
}
