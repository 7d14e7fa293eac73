import type { Readable } from 'node:stream';
import type { Config } from '../platform/config.js';
import type { Queryable } from '../platform/database.js';
import { AppError } from '../platform/errors.js';
import { fetchPublicUrl, PublicFetchError } from '../platform/network/fetch-public-url.js';
import type { Storage } from '../platform/storage/index.js';
import { catalogKey, catalogStorage } from './catalog.js';
import type { ImageFormat } from './events.js';
import { imageFormatOf, MAX_BACKGROUND_BYTES } from './image-format.js';
import { findBackgroundById } from './queries.js';
import { EXTENSIONS, ownBackgroundPath, parseBackgroundPath } from './urls.js';

/** A presentation background image that cannot be used; the message says what to change. */
export class BackgroundImageError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export interface BackgroundImage {
  bytes: Buffer;
  type: ImageFormat;
}

export interface LoadBackgroundImageDeps {
  config: Pick<Config, 'PUBLIC_URL' | 'SHOWREEL_ALLOW_PRIVATE_URLS'>;
  storage: Storage;
  sql: Queryable;
}

// A remote image gets 10 s and 3 redirects in all: a compositor job should not wait on a slow host for long.
const FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

/**
 * The bytes of a `presentation.background.imageUrl`, for the compositor. Our own URLs (uploads and the catalog,
 * under PUBLIC_URL/background/) are read from storage and the shipped assets directly, never over the network;
 * any other http(s) URL is fetched through the SSRF guard (fetchPublicUrl). Either way at most 10 MB, and only PNG,
 * JPEG or WebP bytes are accepted, whatever the URL or Content-Type claim. Throws BackgroundImageError.
 */
export async function loadBackgroundImage(imageUrl: string, deps: LoadBackgroundImageDeps): Promise<BackgroundImage> {
  let url: URL;
  try {
    url = new URL(imageUrl);
  } catch {
    throw new BackgroundImageError('The background imageUrl is not a valid absolute URL.');
  }
  const ownPath = ownBackgroundPath(url, deps.config.PUBLIC_URL);
  const bytes = ownPath === null ? await fetchRemote(url.href, deps) : await readOwn(ownPath, imageUrl, deps);
  const type = imageFormatOf(bytes);
  if (!type) throw new BackgroundImageError(`The background image at ${imageUrl} is not a PNG, JPEG or WebP image, or it is cut short.`);
  return { bytes, type };
}

async function readOwn(sitePath: string, imageUrl: string, deps: LoadBackgroundImageDeps): Promise<Buffer> {
  const missing = () =>
    new BackgroundImageError(`The background ${imageUrl} does not exist; pick one from GET /api/v1/backgrounds or upload a new one.`);
  const target = parseBackgroundPath(sitePath);
  if (!target) throw missing();
  let bytes: Buffer | null = null;
  if (target.source === 'catalog') {
    bytes = await readStored(catalogStorage, catalogKey(target.id));
  } else {
    const record = await findBackgroundById(deps.sql, target.id);
    if (record && EXTENSIONS[record.format] === target.ext) bytes = await readStored(deps.storage, record.storage_key);
  }
  if (!bytes) throw missing();
  return bytes;
}

/** null when the object is gone. Stored images were checked at upload; the cap still bounds memory. */
async function readStored(storage: Storage, key: string): Promise<Buffer | null> {
  const stream: Readable | null = await storage.read(key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_BACKGROUND_BYTES) {
      stream.destroy();
      throw new BackgroundImageError('The background image is larger than 10 MB; upload a smaller one.');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function fetchRemote(url: string, deps: LoadBackgroundImageDeps): Promise<Buffer> {
  try {
    const fetched = await fetchPublicUrl(url, {
      allowPrivate: deps.config.SHOWREEL_ALLOW_PRIVATE_URLS,
      maxBytes: MAX_BACKGROUND_BYTES,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
    });
    return fetched.bytes;
  } catch (error) {
    if (!(error instanceof PublicFetchError)) throw error;
    const hint = error.failure === 'too-large' ? ' Use an image of at most 10 MB.' : error.failure === 'refused' ? ' Use a public image URL.' : '';
    // A refusal from the SSRF guard ends with advice about recording pages ("; Showreel only records public pages."):
    // the hint above fits a background better.
    const reason = (error.failure === 'refused' ? error.message.replace(/;.*$/, '') : error.message).replace(/\.$/, '');
    throw new BackgroundImageError(`The background image could not be fetched: ${reason}.${hint}`);
  }
}
