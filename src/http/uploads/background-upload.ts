import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  backgroundNameFrom,
  imageFormatOf,
  MAX_BACKGROUND_BYTES,
  recordBackgroundUpload,
  uploadedBackgroundKey,
  uploadedBackgroundUrl,
} from '../../backgrounds/index.js';
import { inTransaction } from '../../platform/command.js';
import { ValidationError } from '../../platform/errors.js';
import type { Services } from '../context.js';
import { requestInfo } from '../context.js';
import { sendJson } from '../respond.js';
import { authorizeUpload } from './authorize-upload.js';
import { receiveMultipartFile } from './receive-multipart-file.js';

/**
 * POST /api/v1/backgrounds/upload: a PNG, JPEG or WebP image (at most 10 MB) as the multipart field `file`, for
 * `presentation.background.imageUrl`. The bytes decide the type, never the declared one; the spec lists only 400
 * for a bad file here, so a wrong type is a 400 (not the 415 of the video uploads). The image is stored first and
 * the event that makes it exist is appended after, so a rejected upload leaves neither.
 */
export async function handleBackgroundUpload(services: Services, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const principal = await authorizeUpload(services, req, 'upload', 'account');
  const { bytes, filename } = await receiveMultipartFile(req, 'file', MAX_BACKGROUND_BYTES);
  if (bytes.length === 0) throw new ValidationError('The file is empty; choose a PNG, JPEG or WebP image.');
  const format = imageFormatOf(bytes);
  if (!format) throw new ValidationError('The file is not a PNG, JPEG or WebP image, or it is cut short (checked by its content, not its name or type).');

  // A random UUID: the image is public to whoever holds the URL, so the id must not be guessable.
  const id = randomUUID();
  const key = uploadedBackgroundKey(id, format);
  await services.storage.put(key, bytes, { size: bytes.length });
  try {
    await inTransaction(services.sql, (tx) =>
      recordBackgroundUpload(
        tx,
        { backgroundId: id, userId: principal.userId, name: backgroundNameFrom(filename), key, format, sizeBytes: bytes.length },
        { actor: principal.userId, requestId: requestInfo(req).requestId },
      ),
    );
  } catch (error) {
    await services.storage.delete(key).catch(() => undefined);
    throw error;
  }
  sendJson(res, 201, { id, key, imageUrl: uploadedBackgroundUrl(services.config.PUBLIC_URL, id, format) });
}
