import type { IncomingMessage, ServerResponse } from 'node:http';
import { catalogKey, catalogStorage, EXTENSIONS, findBackgroundById, parseBackgroundPath } from '../../backgrounds/index.js';
import type { Services } from '../context.js';
import { sendError } from '../respond.js';
import { serveStoredMedia } from './serve-media.js';

/**
 * Public background images: `/background/<uuid>.<png|jpg|webp>` (uploads, public by unguessable id) and
 * `/background/catalog/<id>.jpg` (the shipped catalog). An upload never changes under its id, so it is cached for a
 * year; a catalog file may be redrawn in a release, so for a day.
 */
export async function handleBackgroundImage(services: Services, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const target = parseBackgroundPath(path);
  if (target?.source === 'catalog') {
    return serveStoredMedia(req, res, catalogStorage, catalogKey(target.id), { cacheControl: 'public, max-age=86400' });
  }
  const record = target ? await findBackgroundById(services.sql, target.id) : null;
  if (!target || !record || EXTENSIONS[record.format] !== target.ext) return sendError(res, 404, 'No such background image.');
  return serveStoredMedia(req, res, services.storage, record.storage_key, { cacheControl: 'public, max-age=31536000, immutable' });
}
