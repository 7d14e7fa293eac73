import type { IncomingMessage, ServerResponse } from 'node:http';
import { findPublicDemo } from '../../demos/index.js';
import type { Services } from '../context.js';
import { sendError } from '../respond.js';
import { handleBackgroundImage } from './background-images.js';
import { serveStoredMedia } from './serve-media.js';

// Either case, as the share page takes it (a UUID's hex digits are case-insensitive); ids are stored lowercase.
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const ROUTES: Array<{ pattern: RegExp; column: 'video_key' | 'thumbnail_key' | 'gif_key' }> = [
  { pattern: new RegExp(`^/video/(${UUID})\\.(mp4|webm)$`), column: 'video_key' },
  { pattern: new RegExp(`^/thumb/(${UUID})\\.png$`), column: 'thumbnail_key' },
  { pattern: new RegExp(`^/gif/(${UUID})\\.gif$`), column: 'gif_key' },
];

/**
 * Public media by demo id: `/video/<id>.<format>`, and the spec's shortcuts `/thumb/<id>.png`, `/gif/<id>.gif`.
 * They always point at the latest version, so they are cached briefly. Background images live under
 * `/background/` (background-images.ts). Returns false for other paths.
 */
export async function handleMediaRequest(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const prefix = path.split('/')[1];
  if (prefix === 'background') {
    await handleBackgroundImage(services, req, res, path);
    return true;
  }
  if (prefix !== 'video' && prefix !== 'thumb' && prefix !== 'gif') return false;
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const demo = await findPublicDemo(services.sql, match[1]!.toLowerCase());
    const key = demo?.[route.column];
    if (!demo || !key || (route.column === 'video_key' && demo.format !== match[2])) {
      sendError(res, 404, 'This demo has no such media (yet).');
      return true;
    }
    await serveStoredMedia(req, res, services.storage, key, { cacheControl: 'public, max-age=300' });
    return true;
  }
  sendError(res, 404, `No media at ${path}.`);
  return true;
}
