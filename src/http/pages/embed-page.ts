import type { DemoRecord } from '../../demos/index.js';
import { describeDemo, type DemoUrls } from './demo-view.js';
import { html } from './html.js';
import { EMBED_CSS, htmlDocument } from './layout.js';
import { RECORDING_REFRESH_SECONDS } from './share-page.js';

/**
 * The iframe player (`/embed/<id>`): only the video, filling the frame, letterboxed on black. No chrome, so it
 * looks right at any size a host page gives it. Not ready yet: a compact notice that reloads itself.
 */
export function renderEmbedPage(demo: DemoRecord, urls: DemoUrls): string {
  const view = describeDemo(demo, urls);
  const head = html`<meta name="robots" content="noindex">
<link rel="canonical" href="${urls.shareUrl}">
${view.state === 'recording' ? html`<meta http-equiv="refresh" content="${RECORDING_REFRESH_SECONDS}">` : null}`;

  const body =
    view.state === 'playable'
      ? html`<video controls playsinline preload="metadata"${view.thumbnail ? html` poster="${view.thumbnail.url}"` : null} width="${view.width}" height="${view.height}" aria-label="${view.title}">
<source src="${urls.videoUrl}" type="${view.mimeType}">
</video>`
      : view.state === 'recording'
        ? html`<div class="state" role="status">
<div class="pulse" aria-hidden="true"></div>
<p class="lead">This demo is still being recorded…</p>
</div>`
        : html`<div class="state" role="status">
<div class="mark" aria-hidden="true"></div>
<p class="lead">Sorry, this demo could not be recorded.</p>
</div>`;

  return htmlDocument({ title: `${view.title} · Showreel`, css: EMBED_CSS, head, body });
}
