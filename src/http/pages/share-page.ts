import { type DemoRecord, type StoredVariant, variantsOf } from '../../demos/index.js';
import { versionedAssetPath } from '../embeds/static-assets.js';
import { aspectSlug, beaconUrl, describeDemo, mediaQuery, publicUrlOf, type DemoUrls, type DemoView } from './demo-view.js';
import { html, type SafeHtml } from './html.js';
import { footer, htmlDocument, SHARE_CSS } from './layout.js';
import { chapterList, STORY_CSS, storyView, trackElements, type StoryView } from './story-view.js';

/** Seconds between reloads of a page whose demo is still being recorded. */
export const RECORDING_REFRESH_SECONDS = 10;

/**
 * The public share page (`/share/<id>`): the player, the title, the chapters, and the meta tags that make the link
 * unfurl as a playable video in Slack, X/Twitter, LinkedIn, Discord and iMessage. Every URL is absolute. The prompt is
 * not shown under the title (issue 55): it is what the owner asked the tool for, not a subtitle for the viewer; the
 * chapter list says what the video holds.
 */
/** The product a demo shows: its project's name and URL, which the share page links back to (issue 35). */
export interface ProductLink {
  name: string;
  url: string;
}

export function renderSharePage(demo: DemoRecord, latest: DemoUrls, product: ProductLink | null = null, variant: StoredVariant | null = null): string {
  // The media addresses follow the latest version and are cached for 5 minutes: with `?v=` a refreshed demo's page
  // shows the new video and thumbnail at once, as the embed player does. Page links (share, embed) stay bare. Issue 59:
  // `?aspect=9x16` on the page plays that cut of the version (its own video and poster).
  const q = mediaQuery(demo.version || null, variant);
  const urls = { ...latest, videoUrl: `${latest.videoUrl}${q}`, thumbnailUrl: `${latest.thumbnailUrl}${q}` };
  const view = describeDemo(demo, urls, variant);
  const publicUrl = publicUrlOf(urls);
  const oembedUrl = `${publicUrl}/oembed?url=${encodeURIComponent(urls.shareUrl)}&format=json`;
  const story = storyView(demo, latest);

  const head = html`<meta name="description" content="${view.description}">
<meta name="robots" content="noindex">
<link rel="canonical" href="${urls.shareUrl}">
${view.state === 'recording' ? html`<meta http-equiv="refresh" content="${RECORDING_REFRESH_SECONDS}">` : null}
${socialMeta(view, urls)}
<link rel="alternate" type="application/json+oembed" href="${oembedUrl}" title="${view.shortTitle}">
${view.state === 'playable' ? html`<script src="${publicUrl}${versionedAssetPath('player.js')}" defer></script>` : null}`;

  const body = html`<main>
${view.state === 'playable'
  ? html`<div class="player${frameClass(variant)}" data-showreel-player data-state="playable" data-demo-id="${demo.id}" data-surface="share" data-beacon-url="${beaconUrl(urls)}" data-chapters-url="${story.chaptersUrl ?? ''}" data-captions-url="${story.captionsUrl ?? ''}">${player(view, urls, story)}</div>`
  : html`<div class="player">${player(view, urls, story)}</div>`}
<h1>${view.title}</h1>
${view.state === 'playable' ? formats(demo, latest, variant) : null}
${view.state === 'playable' ? chapterList(story) : null}
${productLink(product)}
</main>
${footer(publicUrl)}`;

  return htmlDocument({ title: `${view.title} · Showreel`, css: `${SHARE_CSS}\n.player{position:relative}${FORMATS_CSS}${STORY_CSS}`, head, body });
}

/** A vertical or square cut is shown at its own shape, as tall as the window allows, centred. */
const FORMATS_CSS = `
.player.tall{aspect-ratio:9/16;width:auto;height:min(78vh,960px);margin:0 auto}
.player.square{aspect-ratio:1;width:auto;height:min(78vh,720px);margin:0 auto}
.formats{margin:10px 0 0;color:#a3a7b3;font-size:.95rem}.formats a{color:#a9b3ff;margin-right:12px}.formats a[aria-current]{color:#fff;font-weight:600;text-decoration:none}`;

function frameClass(variant: StoredVariant | null): string {
  return variant === null ? '' : variant.aspect === '1:1' ? ' square' : ' tall';
}

/**
 * Issue 59: "Watch as 16:9 · 9:16 vertical · 1:1 square", when the version has variants: each a link to this page
 * showing that cut, and a download of its video beside it.
 */
function formats(demo: DemoRecord, latest: DemoUrls, shown: StoredVariant | null): SafeHtml | null {
  const variants = variantsOf(demo.variants);
  if (variants.length === 0) return null;
  const names: Record<string, string> = { '16:9': '16:9 landscape', '9:16': '9:16 vertical', '1:1': '1:1 square' };
  const entry = (variant: StoredVariant | null) => {
    const aspect = variant?.aspect ?? '16:9';
    const page = variant ? `${latest.shareUrl}?aspect=${aspectSlug(variant)}` : latest.shareUrl;
    const current = (shown?.aspect ?? '16:9') === aspect;
    return html`<a href="${page}" data-aspect="${aspect}"${current ? html` aria-current="page"` : null}>${names[aspect] ?? aspect}</a>`;
  };
  const download = `${latest.videoUrl}${mediaQuery(demo.version || null, shown)}`;
  return html`<p class="formats">Watch as ${entry(null)}${variants.map(entry)}<a href="${download}" download>Download this cut</a></p>`;
}

/**
 * "Visit Flowboard → flowboard.example": a viewer who liked the demo can go to the product. Only an http(s) address
 * becomes a link (a project URL is checked as one when saved; this is the page's own guard); nofollow because the
 * address is the demo owner's, not ours to vouch for, and noopener as for every link leaving the page.
 */
function productLink(product: ProductLink | null): SafeHtml | null {
  if (!product) return null;
  let url: URL;
  try {
    url = new URL(product.url);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return html`<p class="product"><a href="${url.href}" rel="noopener nofollow" data-product>Visit ${product.name} →</a> <span class="muted">${url.host}</span></p>`;
}

function player(view: DemoView, urls: DemoUrls, story: StoryView): SafeHtml {
  if (view.state === 'recording') {
    return html`<div class="state" role="status">
<div class="pulse" aria-hidden="true"></div>
<p class="lead">This demo is still being recorded…</p>
<p class="hint">This page reloads by itself; the video appears here as soon as it is ready.</p>
</div>`;
  }
  if (view.state === 'failed') {
    return html`<div class="state" role="status">
<div class="mark" aria-hidden="true"></div>
<p class="lead">Sorry, this demo could not be recorded.</p>
<p class="hint">Its owner can try again from their Showreel dashboard.</p>
</div>`;
  }
  return html`<video controls playsinline preload="metadata"${view.thumbnail ? html` poster="${view.thumbnail.url}"` : null} width="${view.width}" height="${view.height}" aria-label="${view.title}">
<source src="${urls.videoUrl}" type="${view.mimeType}">
${trackElements(story)}
<p>Your browser cannot play this video here. <a href="${urls.videoUrl}">Download it</a>.</p>
</video>`;
}

/**
 * Open Graph and Twitter card tags. The player card needs an HTTPS player and an image (X/Twitter rejects the
 * card otherwise), so without them we fall back to a large-image or a plain summary card.
 */
function socialMeta(view: DemoView, urls: DemoUrls): SafeHtml {
  const meta = (property: string, content: string | number) => html`<meta property="${property}" content="${content}">\n`;
  const named = (name: string, content: string | number) => html`<meta name="${name}" content="${content}">\n`;
  const secure = urls.shareUrl.startsWith('https://');
  const playable = view.state === 'playable';
  const thumb = view.thumbnail;
  const card = playable && secure && thumb ? 'player' : thumb ? 'summary_large_image' : 'summary';

  return html`${meta('og:site_name', 'Showreel')}${meta('og:type', 'video.other')}${meta('og:title', view.shortTitle)}${meta('og:description', view.description)}${meta('og:url', urls.shareUrl)}${
    thumb
      ? [
          meta('og:image', thumb.url),
          secure ? meta('og:image:secure_url', thumb.url) : null,
          meta('og:image:type', 'image/png'),
          thumb.width !== null ? meta('og:image:width', thumb.width) : null,
          thumb.height !== null ? meta('og:image:height', thumb.height) : null,
          meta('og:image:alt', view.shortTitle),
        ]
      : null
  }${
    playable
      ? [
          meta('og:video', urls.videoUrl),
          secure ? meta('og:video:secure_url', urls.videoUrl) : null,
          meta('og:video:type', view.mimeType),
          meta('og:video:width', view.width),
          meta('og:video:height', view.height),
        ]
      : null
  }${named('twitter:card', card)}${named('twitter:title', view.shortTitle)}${named('twitter:description', view.description)}${
    thumb ? [named('twitter:image', thumb.url), named('twitter:image:alt', view.shortTitle)] : null
  }${
    card === 'player'
      ? [named('twitter:player', urls.embedUrl), named('twitter:player:width', view.width), named('twitter:player:height', view.height)]
      : null
  }`;
}
