import type { DemoRecord } from '../../demos/index.js';
import type { PlayerProps } from '../../embeds/index.js';
import { versionedAssetPath } from '../embeds/static-assets.js';
import { publicUrlOf, type DemoUrls } from './demo-view.js';
import { renderPlayerPage, type PlayerPageOptions } from './player-page.js';

/**
 * The iframe player (`/embed/<id>`): the scriptable player, filling the frame, letterboxed on black. No chrome, so
 * it looks right at any size a host page gives it. Not ready yet: a loading state that follows progress (and, without
 * script, reloads itself).
 */
export function renderEmbedPage(demo: DemoRecord, urls: DemoUrls, props: PlayerProps = {}, options: Partial<PlayerPageOptions> = {}): string {
  const publicUrl = publicUrlOf(urls);
  return renderPlayerPage(demo, urls, props, {
    scriptUrl: `${publicUrl}${versionedAssetPath('player.js')}`,
    statusUrl: `${publicUrl}/embed/${demo.id}/status`,
    wsUrl: `${publicUrl.replace(/^http/, 'ws')}/embed/${demo.id}/ws`,
    retryable: false,
    ...options,
  });
}
