import { isWholeImage } from '../platform/image-structure.js';
import { sniffMedia } from '../platform/media-signatures.js';
import type { ImageFormat } from './events.js';

/**
 * The largest background image, uploaded or fetched: 10 MB. A 1920×1080 PNG screenshot is 1–4 MB, a good JPEG far
 * less, so this leaves room for 4K stills while keeping a compositor's memory per job bounded.
 */
export const MAX_BACKGROUND_BYTES = 10 * 1024 * 1024;

/**
 * PNG, JPEG or WebP by the file's signature, and whole (see isWholeImage); null for anything else (a GIF, an SVG,
 * text named .png, a signature without a picture, a truncated file).
 */
export function imageFormatOf(bytes: Buffer): ImageFormat | null {
  const sniffed = sniffMedia(bytes);
  return (sniffed === 'png' || sniffed === 'jpeg' || sniffed === 'webp') && isWholeImage(bytes) ? sniffed : null;
}

/** A display name from an uploaded file's name: no extension, no control characters, at most 100 characters. */
export function backgroundNameFrom(filename: string | null | undefined): string {
  const base = (filename ?? '').replace(/^.*[\\/]/, '').replace(/\.[A-Za-z0-9]{1,5}$/, '');
  // Control characters (NUL above all: PostgreSQL cannot store it) are dropped, runs of spaces folded.
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').replace(/\s+/g, ' ').trim();
  return clean.slice(0, 100).trim() || 'Uploaded background';
}
