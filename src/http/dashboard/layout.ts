import { html, type HtmlValue, type SafeHtml } from '../pages/html.js';
import { staticPath } from './static.js';

/**
 * The dashboard's two shells: a centred card for signing in, up and approving devices, and the app frame (a top
 * bar with the sections, the account and Sign out) for everything else. No inline script or style: one stylesheet
 * and one script, both files (the CSP allows nothing else). Everything interpolated goes through `html`.
 */

export interface Viewer {
  email: string;
  csrf: string;
}

export type Section = 'demos' | 'projects' | 'keys' | 'credits' | 'usage' | 'device';

const SECTIONS: readonly [Section, string, string][] = [
  ['demos', 'Demos', '/app/'],
  ['projects', 'Projects', '/app/projects'],
  ['keys', 'API keys', '/app/keys'],
  ['credits', 'Credits', '/app/credits'],
  ['usage', 'Usage', '/app/usage'],
];

function documentOf(title: string, bodyClass: string, body: SafeHtml, head?: SafeHtml): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Showreel</title>
<link rel="stylesheet" href="${staticPath('dashboard.css')}">
<script src="${staticPath('dashboard.js')}" defer></script>
${head}
</head>
<body class="${bodyClass}">
${body}
</body>
</html>
`.value}`;
}

/** The centred card: sign-in, sign-up, the device page. */
export function cardPage(title: string, body: SafeHtml): string {
  return documentOf(title, 'card-page', html`<main class="card">${body}</main>`);
}

/** A page of the signed-in app. `head` is extra <head> markup (the no-script refresh of a demo in progress). */
export function appPage(input: { title: string; viewer: Viewer; section: Section | null; body: SafeHtml; head?: SafeHtml }): string {
  const nav = SECTIONS.map(
    ([id, label, href]) => html`<a href="${href}"${id === input.section ? html` aria-current="page"` : null}>${label}</a>`,
  );
  return documentOf(
    input.title,
    'app',
    html`<header class="top">
<a class="brand" href="/app/">Showreel</a>
<nav aria-label="Sections">${nav}<a href="/docs">API reference</a></nav>
<form class="account" method="post" action="/app/sign-out">
<span class="who" title="${input.viewer.email}">${input.viewer.email}</span>
<input type="hidden" name="csrf" value="${input.viewer.csrf}">
<button type="submit" class="link">Sign out</button>
</form>
</header>
<main class="content">${input.body}</main>`,
    input.head,
  );
}

export const errorBox = (error: string | null | undefined) => (error ? html`<p class="error" role="alert">${error}</p>` : null);
export const noticeBox = (notice: string | null | undefined) => (notice ? html`<p class="notice" role="status">${notice}</p>` : null);

export function csrfField(viewer: Viewer): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${viewer.csrf}">`;
}

export function option(value: string, label: HtmlValue, selected: boolean): SafeHtml {
  return html`<option value="${value}"${selected ? html` selected` : null}>${label}</option>`;
}

export function formatDate(iso: string | null): string {
  if (!iso) return '—';
  return iso.slice(0, 16).replace('T', ' ') + ' UTC';
}

/** A copyable value: the text in a read-only field and a Copy button (the script wires it; without it, select and copy). */
export function copyField(id: string, label: string, value: string): SafeHtml {
  return html`<div class="copy"><label for="${id}">${label}</label>
<div class="copy-row"><input id="${id}" readonly value="${value}" spellcheck="false"><button type="button" class="secondary" data-copy="${id}">Copy</button></div></div>`;
}
