import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { findVisibleDemo, replaceDemoAsset } from '../../demos/index.js';
import { inTransaction } from '../../platform/command.js';
import { NotFoundError, UnsupportedMediaError, ValidationError } from '../../platform/errors.js';
import { isWholeImage } from '../../platform/image-structure.js';
import { isAnimatedGif, sniffMedia } from '../../platform/media-signatures.js';
import { describeIssues } from '../../platform/validation.js';
import type { Services } from '../context.js';
import { requestInfo } from '../context.js';
import { sendJson } from '../respond.js';
import { authorizeUpload } from './authorize-upload.js';
import { declaredLength, receiveBodyToBuffer, mediaTypeOf } from './receive-body.js';

const ASSETS = {
  thumbnail: { maxBytes: 5 * 1024 * 1024, mediaType: 'image/png', ext: 'png', shortcut: 'thumb' },
  gif: { maxBytes: 25 * 1024 * 1024, mediaType: 'image/gif', ext: 'gif', shortcut: 'gif' },
} as const;

const query = z.object({ type: z.enum(['thumbnail', 'gif']) });

/**
 * POST /api/v1/demos/{id}/local-assets?type=thumbnail|gif: replaces the thumbnail (PNG, ≤ 5 MB) or GIF (animated,
 * ≤ 25 MB) of an uploaded demo. Bytes are checked by signature, whatever the Content-Type says.
 */
export async function handleLocalAssets(services: Services, req: IncomingMessage, res: ServerResponse, demoId: string, url: URL): Promise<void> {
  const principal = await authorizeUpload(services, req, 'upload');
  const parsed = query.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new ValidationError(describeIssues(parsed.error.issues));
  const type = parsed.data.type;
  const asset = ASSETS[type];

  const length = declaredLength(req, asset.maxBytes, type === 'thumbnail' ? 'thumbnail' : 'GIF');
  const mediaType = mediaTypeOf(req);
  if (mediaType && mediaType !== asset.mediaType && mediaType !== 'application/octet-stream') {
    throw new UnsupportedMediaError(`Send the ${type} as ${asset.mediaType}.`);
  }
  const demo = await findVisibleDemo(services.sql, principal, demoId);
  if (!demo) throw new NotFoundError('Demo');
  if (demo.source !== 'upload') throw new ValidationError('Only uploaded demos take local assets; generated demos make their own.');

  const bytes = await receiveBodyToBuffer(req, length);
  const sniffed = sniffMedia(bytes);
  if (type === 'thumbnail' && sniffed !== 'png') throw new UnsupportedMediaError('The thumbnail must be a PNG image.');
  if (type === 'thumbnail' && !isWholeImage(bytes)) throw new UnsupportedMediaError('The thumbnail is not a whole PNG image: it is cut short or damaged.');
  if (type === 'gif' && sniffed !== 'gif') throw new UnsupportedMediaError('The file is not a GIF image.');
  if (type === 'gif' && !isAnimatedGif(bytes)) throw new UnsupportedMediaError('The GIF must be animated (more than one frame).');

  // A fresh key per replacement: the old file stays valid until the event that swaps it commits.
  const key = `demos/${demo.id}/assets/${type}-${randomUUID()}.${asset.ext}`;
  await services.storage.put(key, bytes, { size: bytes.length });
  let replaced: string | null;
  try {
    replaced = await inTransaction(services.sql, (tx) =>
      replaceDemoAsset(tx, { demoId: demo.id, userId: principal.userId, asset: type, key }, { actor: principal.userId, requestId: requestInfo(req).requestId }),
    );
  } catch (error) {
    await services.storage.delete(key).catch(() => undefined);
    throw error;
  }
  // The file it replaced is referenced by nothing now (its key was this demo's until our commit, and a key is never
  // reused); without this, every replacement left one behind until the demo was deleted. A failure only leaves it.
  if (replaced && replaced !== key) {
    await services.storage.delete(replaced).catch((error: unknown) => requestInfo(req).logger.warn({ err: error, key: replaced }, 'could not remove a replaced asset'));
  }
  sendJson(res, 201, { id: demo.id, type, url: `${services.config.PUBLIC_URL}/${asset.shortcut}/${demo.id}.${asset.ext}` });
}
