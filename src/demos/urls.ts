import { aspectFrameSize } from './presentation.js';
import type { StoredVariant } from './representation.js';

/** Public addresses of a demo. Media and pages are public by unguessable id (unlisted, like a share link). */
export function demoUrls(publicUrl: string, demoId: string, format: string) {
  const ws = publicUrl.replace(/^http/, 'ws');
  return {
    pollUrl: `${publicUrl}/api/v1/demos/${demoId}/progress`,
    wsUrl: `${ws}/api/v1/demos/${demoId}/ws`,
    shareUrl: `${publicUrl}/share/${demoId}`,
    embedUrl: `${publicUrl}/embed/${demoId}`,
    videoUrl: `${publicUrl}/video/${demoId}.${format}`,
    thumbnailUrl: `${publicUrl}/thumb/${demoId}.png`,
    gifUrl: `${publicUrl}/gif/${demoId}.gif`,
  };
}

/**
 * Issue 59: an aspect variant as a user sees it: its frame, format, size and length, and its public addresses (the
 * demo's own, with `?aspect=9x16` or `1x1`, and `v=N` for a kept version). Never its storage keys: where a file is
 * kept is the service's business, and a key changes when the media move; the URL does not.
 */
export function variantView(
  publicUrl: string,
  demo: { id: string; format: 'mp4' | 'webm'; resolution: '720p' | '1080p' },
  variant: StoredVariant,
  durationMs: number | null,
  version?: number,
) {
  const query = `?${version === undefined ? '' : `v=${version}&`}aspect=${variant.aspect.replace(':', 'x')}`;
  const urls = demoUrls(publicUrl, demo.id, demo.format);
  return {
    aspect: variant.aspect,
    format: demo.format,
    ...aspectFrameSize(variant.aspect, demo.resolution),
    duration_ms: durationMs,
    video_url: urls.videoUrl + query,
    gif_url: variant.gifKey ? urls.gifUrl + query : null,
    thumbnail_url: variant.thumbnailKey ? urls.thumbnailUrl + query : null,
  };
}
