import type { DemoRecord } from '../../demos/index.js';
import { describeDemo, publicUrlOf, type DemoUrls } from './demo-view.js';
import { html } from './html.js';

/** The size we suggest for the iframe when the consumer sets no limit: 16:9, fits most content columns. */
export const DEFAULT_EMBED_SIZE = { width: 960, height: 540 } as const;

export interface OembedOptions {
  maxwidth?: number;
  maxheight?: number;
}

/** oEmbed 1.0 (https://oembed.com) response of type "video". */
export interface OembedVideo {
  version: '1.0';
  type: 'video';
  provider_name: 'Showreel';
  provider_url: string;
  title: string;
  html: string;
  width: number;
  height: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

/**
 * The largest 16:9 box no bigger than the default and within maxwidth/maxheight (whole pixels, at least 1x1).
 * The height is rounded down so it never exceeds maxheight.
 */
export function fitEmbedSize(options: OembedOptions = {}): { width: number; height: number } {
  let width: number = DEFAULT_EMBED_SIZE.width;
  if (options.maxwidth !== undefined) width = Math.min(width, Math.floor(options.maxwidth));
  if (options.maxheight !== undefined) width = Math.min(width, Math.floor((options.maxheight * 16) / 9));
  width = Math.max(1, width);
  const height = Math.max(1, Math.floor((width * 9) / 16));
  return { width, height };
}

/**
 * The oEmbed answer for a demo: an iframe of the embed page. Not-ready demos get the same answer (the iframe
 * shows the recording notice, then the video). The thumbnail is included only when its size is known and it
 * fits maxwidth/maxheight: the spec requires thumbnail_width/height with thumbnail_url and a thumbnail that
 * respects the limits, and we have no resized variants.
 */
export function buildOembed(demo: DemoRecord, urls: DemoUrls, options: OembedOptions = {}): OembedVideo {
  const view = describeDemo(demo, urls);
  const { width, height } = fitEmbedSize(options);
  const iframe = html`<iframe src="${urls.embedUrl}" width="${width}" height="${height}" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${view.title}"></iframe>`;
  const response: OembedVideo = {
    version: '1.0',
    type: 'video',
    provider_name: 'Showreel',
    provider_url: `${publicUrlOf(urls)}/`,
    title: view.title,
    html: iframe.value,
    width,
    height,
  };
  const thumb = view.thumbnail;
  if (
    thumb &&
    thumb.width !== null &&
    thumb.height !== null &&
    thumb.width <= (options.maxwidth ?? Infinity) &&
    thumb.height <= (options.maxheight ?? Infinity)
  ) {
    response.thumbnail_url = thumb.url;
    response.thumbnail_width = thumb.width;
    response.thumbnail_height = thumb.height;
  }
  return response;
}
