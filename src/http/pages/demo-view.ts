import { type DemoRecord, type StoredVariant, variantsOf } from '../../demos/index.js';
import type { demoUrls } from '../../demos/urls.js';
import { truncateText } from './html.js';

export type DemoUrls = ReturnType<typeof demoUrls>;

/**
 * What the public pages show of a demo. `playable`: a finished version exists, so it plays even while a refresh
 * or restyle re-records it (the last good version keeps being served); `recording`: nothing finished yet;
 * `failed`: the first generation failed, nothing to play.
 */
export type DemoState = 'playable' | 'recording' | 'failed';

export interface DemoView {
  state: DemoState;
  /** title ?? prompt, shortened for headings and <title> */
  title: string;
  /** shortened for og:title and twitter:title (platforms cut at about 70) */
  shortTitle: string;
  /** the prompt, shortened for meta descriptions */
  description: string;
  mimeType: 'video/mp4' | 'video/webm';
  /** frame size of the encoded video */
  width: number;
  height: number;
  /** null when the demo has no thumbnail (yet) */
  thumbnail: { url: string; width: number | null; height: number | null } | null;
}

export function demoState(demo: DemoRecord): DemoState {
  // A failed refresh leaves the demo 'ready' with its old video; 'failed' only ever means "never made".
  if (demo.video_key !== null) return 'playable';
  return demo.status === 'failed' ? 'failed' : 'recording';
}

export function videoSize(demo: DemoRecord): { width: number; height: number } {
  return demo.resolution === '720p' ? { width: 1280, height: 720 } : { width: 1920, height: 1080 };
}

/**
 * Thumbnails of generated demos are a frame of the 16:9 video scaled to at most 1280 wide (pipeline
 * deriveThumbnail), so 1280x720 for both resolutions. An uploaded demo's thumbnail can be any PNG: size unknown.
 */
export function thumbnailSize(demo: DemoRecord): { width: number; height: number } | null {
  return demo.source === 'generated' ? { width: 1280, height: 720 } : null;
}

/**
 * Issue 59: the aspect variant a page was asked to show (`?aspect=9x16`, `1x1`), when the demo's version has it; null
 * for the 16:9 video (none asked, `16x9`, or one the demo does not have: a page never breaks on a stale link).
 */
export function variantShown(demo: DemoRecord, asked: string | null | undefined): StoredVariant | null {
  if (!asked) return null;
  const slug = asked.trim().toLowerCase().replace(':', 'x');
  return variantsOf(demo.variants).find((variant) => aspectSlug(variant) === slug) ?? null;
}

export function aspectSlug(variant: Pick<StoredVariant, 'aspect'>): string {
  return variant.aspect.replace(':', 'x');
}

/** A variant's frame: as wide as the 16:9 video is tall (pipeline compose/aspect.ts); its thumbnail is the same size. */
export function variantSize(demo: DemoRecord, variant: Pick<StoredVariant, 'aspect'>): { width: number; height: number } {
  const short = videoSize(demo).height;
  return variant.aspect === '1:1' ? { width: short, height: short } : { width: short, height: Math.round((short * 16) / 9 / 2) * 2 };
}

/** The media query of a version (`?v=N`) and variant (`aspect=9x16`), or '' for neither. */
export function mediaQuery(version: number | null, variant: StoredVariant | null): string {
  const parts = [version ? `v=${version}` : null, variant ? `aspect=${aspectSlug(variant)}` : null].filter(Boolean);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

export function describeDemo(demo: DemoRecord, urls: DemoUrls, variant: StoredVariant | null = null): DemoView {
  const titleSource = demo.title?.trim() ? demo.title : demo.prompt;
  const size = variant ? variantSize(demo, variant) : thumbnailSize(demo);
  const thumbnailKey = variant ? variant.thumbnailKey : demo.thumbnail_key;
  return {
    state: demoState(demo),
    title: truncateText(titleSource, 120),
    shortTitle: truncateText(titleSource, 70),
    description: truncateText(demo.prompt, 200),
    mimeType: demo.format === 'webm' ? 'video/webm' : 'video/mp4',
    ...(variant ? variantSize(demo, variant) : videoSize(demo)),
    thumbnail: thumbnailKey === null ? null : { url: urls.thumbnailUrl, width: size?.width ?? null, height: size?.height ?? null },
  };
}

/** The service's public base URL, recovered from the share URL (`<publicUrl>/share/<id>`). */
export function publicUrlOf(urls: DemoUrls): string {
  return urls.shareUrl.slice(0, urls.shareUrl.lastIndexOf('/share/'));
}

/** Where the players send their view beacons (issue 38): the service's own origin, so no CORS is involved. */
export function beaconUrl(urls: DemoUrls): string {
  return `${publicUrlOf(urls)}/api/v1/beacon`;
}
