import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalStorage, type Storage } from '../platform/storage/index.js';

/**
 * The built-in background catalog: twelve backgrounds shipped with the project as 1920×1080 JPEGs under
 * assets/backgrounds/ (made once by scripts/make-background-catalog.ts, then committed). `image` entries are
 * mesh and radial gradients that only exist as pictures; `gradient` entries are plain two-colour linear gradients
 * that a compositor can also draw itself from `{from, to, angle}` (angle in CSS degrees: 0 runs bottom to top,
 * 90 left to right), and their JPEG is that same gradient.
 */
export type LinearGradient = { from: string; to: string; angle: number };

export type CatalogBackground =
  | { id: string; name: string; kind: 'image' }
  | { id: string; name: string; kind: 'gradient'; gradient: LinearGradient };

export const CATALOG: readonly CatalogBackground[] = [
  { id: 'aurora', name: 'Aurora', kind: 'image' },
  { id: 'dusk', name: 'Dusk', kind: 'image' },
  { id: 'lagoon', name: 'Lagoon', kind: 'image' },
  { id: 'meadow', name: 'Meadow', kind: 'image' },
  { id: 'ember', name: 'Ember', kind: 'image' },
  { id: 'lavender', name: 'Lavender', kind: 'image' },
  { id: 'midnight', name: 'Midnight', kind: 'image' },
  { id: 'sandstone', name: 'Sandstone', kind: 'image' },
  { id: 'ocean', name: 'Ocean', kind: 'gradient', gradient: { from: '#0ea5e9', to: '#6366f1', angle: 135 } },
  { id: 'peach', name: 'Peach', kind: 'gradient', gradient: { from: '#ffecd2', to: '#fcb69f', angle: 135 } },
  { id: 'mint', name: 'Mint', kind: 'gradient', gradient: { from: '#d4fc79', to: '#96e6a1', angle: 120 } },
  { id: 'graphite', name: 'Graphite', kind: 'gradient', gradient: { from: '#4b5563', to: '#111827', angle: 160 } },
];

export function findCatalogBackground(id: string): CatalogBackground | null {
  return CATALOG.find((entry) => entry.id === id) ?? null;
}

/** The project's assets/ folder, read through the one storage interface (read only: nothing ever puts here). */
export const ASSETS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets');

export const catalogStorage: Storage = createLocalStorage(ASSETS_DIR);

export function catalogKey(id: string): string {
  return `backgrounds/${id}.jpg`;
}
