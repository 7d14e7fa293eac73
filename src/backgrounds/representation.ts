import { CATALOG, type CatalogBackground, type LinearGradient } from './catalog.js';
import type { BackgroundRecord } from './queries.js';
import { catalogBackgroundUrl, uploadedBackgroundUrl } from './urls.js';

/**
 * One entry of GET /backgrounds. `imageUrl` always loads (a gradient entry has its rendered JPEG), and
 * `background` is a ready-to-use `presentation.background` value: `{imageUrl}` for pictures, `{from, to, angle}`
 * for plain linear gradients.
 */
export interface BackgroundEntry {
  id: string;
  name: string;
  source: 'catalog' | 'upload';
  kind: 'image' | 'gradient';
  imageUrl: string;
  background: { imageUrl: string } | LinearGradient;
  created_at: string | null;
}

export function catalogEntry(publicUrl: string, entry: CatalogBackground): BackgroundEntry {
  const imageUrl = catalogBackgroundUrl(publicUrl, entry.id);
  return {
    id: entry.id,
    name: entry.name,
    source: 'catalog',
    kind: entry.kind,
    imageUrl,
    background: entry.kind === 'gradient' ? { ...entry.gradient } : { imageUrl },
    created_at: null,
  };
}

export function uploadEntry(publicUrl: string, record: BackgroundRecord): BackgroundEntry {
  const imageUrl = uploadedBackgroundUrl(publicUrl, record.id, record.format);
  return {
    id: record.id,
    name: record.name,
    source: 'upload',
    kind: 'image',
    imageUrl,
    background: { imageUrl },
    created_at: record.created_at.toISOString(),
  };
}

/** The caller's uploads first (newest first: what they just added is on top), then the catalog in its order. */
export function backgroundList(publicUrl: string, uploads: BackgroundRecord[]): BackgroundEntry[] {
  return [...uploads.map((record) => uploadEntry(publicUrl, record)), ...CATALOG.map((entry) => catalogEntry(publicUrl, entry))];
}
