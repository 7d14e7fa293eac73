import { assertValidKey } from '../platform/storage/index.js';
import { findCatalogBackground } from './catalog.js';
import type { ImageFormat } from './events.js';

/**
 * Where backgrounds live. Images are public by unguessable id (a random UUID), like demo media, so a compositor,
 * a browser or another service can load `imageUrl` without a credential:
 * - an upload:            `<PUBLIC_URL>/background/<uuid>.<png|jpg|webp>`, stored under `backgrounds/<uuid>.<ext>`
 * - a catalog background: `<PUBLIC_URL>/background/catalog/<id>.jpg`, a file under assets/backgrounds/
 */
export const BACKGROUND_PATH_PREFIX = '/background/';

export const EXTENSIONS: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UPLOAD_PATH = new RegExp(`^/background/(${UUID})\\.(png|jpg|webp)$`);
const CATALOG_PATH = /^\/background\/catalog\/([a-z0-9-]{1,40})\.jpg$/;

export function uploadedBackgroundKey(id: string, format: ImageFormat): string {
  return assertValidKey(`backgrounds/${id}.${EXTENSIONS[format]}`);
}

export function uploadedBackgroundUrl(publicUrl: string, id: string, format: ImageFormat): string {
  return `${publicUrl}/background/${id}.${EXTENSIONS[format]}`;
}

export function catalogBackgroundUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/background/catalog/${id}.jpg`;
}

export type BackgroundPath = { source: 'upload'; id: string; ext: string } | { source: 'catalog'; id: string };

/** A site-root path (`/background/…`) named as one of ours; null when it matches no upload or catalog entry shape. */
export function parseBackgroundPath(path: string): BackgroundPath | null {
  const upload = UPLOAD_PATH.exec(path);
  if (upload) return { source: 'upload', id: upload[1]!, ext: upload[2]! };
  const catalog = CATALOG_PATH.exec(path);
  if (catalog && findCatalogBackground(catalog[1]!)) return { source: 'catalog', id: catalog[1]! };
  return null;
}

/**
 * The site-root path of `url` when it points below `<PUBLIC_URL>/background/` (query and fragment ignored), else
 * null. Compared as parsed URLs, so `HTTP://Host:80/…` and `http://host/…` are the same address.
 */
export function ownBackgroundPath(url: URL, publicUrl: string): string | null {
  const base = new URL(publicUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}${BACKGROUND_PATH_PREFIX}`)) return null;
  return url.pathname.slice(basePath.length);
}
