import type { IncomingMessage, ServerResponse } from 'node:http';
import { findKeptDemoVersion, findPublicDemo, variantsOf } from '../../demos/index.js';
import type { Services } from '../context.js';
import { sendError } from '../respond.js';
import { handleBackgroundImage } from './background-images.js';
import { serveStoredMedia } from './serve-media.js';
import { handleStoryTrack } from './story-tracks.js';

// Either case, as the share page takes it (a UUID's hex digits are case-insensitive); ids are stored lowercase.
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const ROUTES: Array<{ pattern: RegExp; column: 'video_key' | 'thumbnail_key' | 'gif_key' }> = [
  { pattern: new RegExp(`^/video/(${UUID})\\.(mp4|webm)$`), column: 'video_key' },
  { pattern: new RegExp(`^/thumb/(${UUID})\\.png$`), column: 'thumbnail_key' },
  { pattern: new RegExp(`^/gif/(${UUID})\\.gif$`), column: 'gif_key' },
];

/**
 * Public media by demo id: `/video/<id>.<format>`, and the spec's shortcuts `/thumb/<id>.png`, `/gif/<id>.gif`.
 * Plain, they point at the version the demo shows, so they are cached briefly. With `?v=N` they serve version N as
 * long as its media are kept (issue 35: the last SHOWREEL_VERSIONS_KEPT versions and the current one), else 404;
 * a version's video never changes, so it is cached for good. `?aspect=9x16` (or `1x1`, issue 59) serves that aspect
 * variant of the version instead, 404 when it has none; `?aspect=16x9` is the video itself. Background images live under `/background/`
 * (background-images.ts). Returns false for other paths.
 */
export async function handleMediaRequest(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const prefix = path.split('/')[1];
  if (prefix === 'background') {
    await handleBackgroundImage(services, req, res, path);
    return true;
  }
  if (prefix === 'chapters' || prefix === 'captions') {
    await handleStoryTrack(services, req, res, path);
    return true;
  }
  if (prefix !== 'video' && prefix !== 'thumb' && prefix !== 'gif') return false;
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const demoId = match[1]!.toLowerCase();
    // A `v` that is not a version number is a cache-buster of some page (as the dashboard's cards once sent): ignored.
    const v = new URL(req.url ?? '/', 'http://x').searchParams.get('v');
    const asked = v !== null && /^[1-9]\d{0,6}$/.test(v) ? v : null;
    const demo = await findPublicDemo(services.sql, demoId);
    if (!demo || (route.column === 'video_key' && demo.format !== match[2])) {
      sendError(res, 404, 'This demo has no such media (yet).');
      return true;
    }
    const version = asked === null ? null : await findKeptDemoVersion(services.sql, demoId, Number(asked));
    if (asked !== null && !version) {
      sendError(res, 404, `Version ${asked} of this demo does not exist or is no longer kept.`);
      return true;
    }
    const aspect = new URL(req.url ?? '/', 'http://x').searchParams.get('aspect');
    let key = version ? version[route.column] : demo[route.column];
    if (aspect !== null && aspect !== '16x9') {
      const variant = variantsOf(version ? version.variants : demo.variants).find((v) => v.aspect.replace(':', 'x') === aspect);
      if (!variant) {
        sendError(res, 404, `This demo has no ${aspect.replace('x', ':').slice(0, 12)} variant (ask for one with presentation.aspect).`);
        return true;
      }
      key = route.column === 'video_key' ? variant.videoKey : route.column === 'gif_key' ? variant.gifKey : variant.thumbnailKey;
    }
    if (!key) {
      sendError(res, 404, 'This demo has no such media (yet).');
      return true;
    }
    // An uploaded demo's thumbnail and GIF can be replaced under the same version: only a video is immutable.
    const immutable = version !== null && route.column === 'video_key';
    await serveStoredMedia(req, res, services.storage, key, { cacheControl: immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300' });
    return true;
  }
  sendError(res, 404, `No media at ${path}.`);
  return true;
}
