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
