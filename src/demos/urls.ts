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

/** Issue 59: the public addresses of an aspect variant: the demo's own, with `?aspect=9x16` (or `1x1`). */
export function variantUrls(publicUrl: string, demoId: string, format: string, variant: { aspect: string; gif_key: string | null; thumbnail_key: string | null }) {
  const query = `?aspect=${variant.aspect.replace(':', 'x')}`;
  const urls = demoUrls(publicUrl, demoId, format);
  return {
    video_url: urls.videoUrl + query,
    gif_url: variant.gif_key ? urls.gifUrl + query : null,
    thumbnail_url: variant.thumbnail_key ? urls.thumbnailUrl + query : null,
  };
}
