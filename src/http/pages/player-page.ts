import type { DemoRecord, } from '../../demos/index.js';
import { aspectsOf, type Presentation } from '../../demos/index.js';
import type { PlayerProps } from '../../embeds/index.js';
import { aspectSlug, beaconUrl, describeDemo, type DemoUrls, variantShown } from './demo-view.js';
import { html, raw } from './html.js';
import { RECORDING_REFRESH_SECONDS } from './share-page.js';
import { EMBED_CSS, htmlDocument } from './layout.js';
import { STORY_CSS, storyView, trackElements } from './story-view.js';

/** The scriptable player's own styles: a progress bar for the loading state and a retry button. */
const PLAYER_CSS = `${EMBED_CSS}
[data-showreel-player]{width:100%;height:100%}
.bar{width:min(240px,60%);height:4px;border-radius:2px;background:rgba(255,255,255,.12);overflow:hidden}
.bar span{display:block;height:100%;width:5%;background:#ff4d5e;transition:width .4s ease}
.retry{font:inherit;color:#fff;background:#2a2d38;border:1px solid #444857;border-radius:6px;padding:6px 14px;cursor:pointer}
.retry:hover,.retry:focus-visible{background:#3a3e4c;outline:2px solid #8ab4ff;outline-offset:2px}
video:focus-visible{outline:2px solid #8ab4ff;outline-offset:-2px}
[data-showreel-player]{position:relative}${STORY_CSS}`;

export interface PlayerPageOptions {
  /** where the player script is served, with its version (`/player.js?v=<etag>`) */
  scriptUrl: string;
  /** the demo's public progress endpoints */
  statusUrl: string;
  wsUrl: string;
  /** a failed generation that the same URL would start again (runtime generation payloads) */
  retryable: boolean;
}

/** Autoplay only muted (what browsers allow, and what a visitor expects of a video they did not start). */
export function effectiveProps(props: PlayerProps) {
  const autoplay = props.autoplay === true && props.muted !== false;
  return {
    autoplay,
    muted: props.muted ?? autoplay,
    loop: props.loop ?? false,
    controls: props.controls ?? true,
    startAt: props.startAt ?? 0,
  };
}

/**
 * The scriptable player page (runtime embeds, and the iframe the SDK mounts): the video with its poster, or a
 * loading state that follows progress and swaps the video in, or a recoverable error. Everything the script needs
 * is in data attributes, escaped like all text here; the script is a static file (`/player.js`), so the page's
 * CSP allows no inline script at all.
 */
export function renderPlayerPage(demo: DemoRecord, urls: DemoUrls, props: PlayerProps, options: PlayerPageOptions): string {
  // Issue 59: the cut asked for (props.aspect), when the version has it.
  const variant = variantShown(demo, props.aspect ?? null);
  const view = describeDemo(demo, urls, variant);
  const p = effectiveProps(props);
  const version = `v=${demo.version}${variant ? `&aspect=${aspectSlug(variant)}` : ''}`;
  // Not playable yet: the cut asked for, when the demo's presentation asks for it, is what the player swaps in.
  const awaited = view.state !== 'playable' && props.aspect && props.aspect !== '16:9' && aspectsOf(parsedPresentation(demo.presentation)).includes(props.aspect)
    ? aspectSlug({ aspect: props.aspect })
    : null;
  const videoUrl = `${urls.videoUrl}?${version}`;
  const poster = view.thumbnail ? `${view.thumbnail.url}?${version}` : '';
  const flag = (on: boolean) => (on ? 'true' : 'false');
  const story = storyView(demo, urls);

  const body =
    view.state === 'playable'
      ? html`<video${p.controls ? raw(' controls') : null} playsinline preload="metadata"${p.loop ? raw(' loop') : null}${p.muted ? raw(' muted') : null}${p.autoplay ? raw(' autoplay') : null}${poster ? html` poster="${poster}"` : null} width="${view.width}" height="${view.height}" aria-label="${view.title}" tabindex="0">
<source src="${p.startAt > 0 ? `${videoUrl}#t=${p.startAt}` : videoUrl}" type="${view.mimeType}">
${trackElements(story)}
</video>`
      : view.state === 'recording'
        ? html`<div class="state" role="status" aria-live="polite">
<div class="pulse" aria-hidden="true"></div>
<p class="lead">This demo is still being recorded…</p>
<div class="bar" aria-hidden="true"><span></span></div>
<p class="hint">It appears here as soon as it is ready.</p>
</div>`
        : html`<div class="state" role="alert">
<div class="mark" aria-hidden="true"></div>
<p class="lead">Sorry, this demo could not be recorded.</p>
${options.retryable ? html`<a class="retry" href="" target="_self">Try again</a>` : html`<p class="hint">Its owner can try again from their Showreel dashboard.</p>`}
</div>`;

  return htmlDocument({
    title: `${view.title} · Showreel`,
    css: PLAYER_CSS,
    head: html`<meta name="robots" content="noindex">
<link rel="canonical" href="${urls.shareUrl}">
${view.state === 'recording' ? html`<noscript><meta http-equiv="refresh" content="${RECORDING_REFRESH_SECONDS}"></noscript>` : null}
<script src="${options.scriptUrl}" defer></script>`,
    body: html`<div data-showreel-player data-demo-id="${demo.id}" data-state="${view.state}" data-title="${view.title}" data-video-url="${urls.videoUrl}" data-aspect="${variant ? aspectSlug(variant) : awaited ?? ''}" data-mime-type="${view.mimeType}" data-poster-url="${view.thumbnail ? view.thumbnail.url : ''}" data-status-url="${options.statusUrl}" data-ws-url="${options.wsUrl}" data-autoplay="${flag(p.autoplay)}" data-muted="${flag(p.muted)}" data-loop="${flag(p.loop)}" data-controls="${flag(p.controls)}" data-start-at="${p.startAt}" data-retryable="${flag(options.retryable)}" data-surface="embed" data-beacon-url="${beaconUrl(urls)}" data-chapters-url="${story.chaptersUrl ?? ''}" data-captions-url="${story.captionsUrl ?? ''}">
${body}
</div>`,
  });
}

/**
 * The player page's CSP: its one script and its media from the service's origin, progress over the same origin's
 * WebSocket, no inline script, frameable anywhere (it exists to be embedded).
 */
export function playerContentSecurityPolicy(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    `script-src ${origin}`,
    `connect-src 'self' ${origin} ${ws}`,
    `img-src 'self' ${origin}`,
    `media-src 'self' ${origin}`,
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

function parsedPresentation(text: string | null): Presentation | null {
  try {
    return text ? (JSON.parse(text) as Presentation) : null;
  } catch {
    return null;
  }
}
