import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AspectRatio } from '../demos/presentation.js';
import type { Storage } from '../platform/storage/index.js';
import type { LayerFiles } from './compose/layers.js';
import type { InteractionTimeline } from './types.js';

/**
 * Issue 59: what a cut (a 9:16 or 1:1 variant) is composed from, kept with the version so that a cut can be added
 * later without a browser or a recording (compose-variant.ts's composeVariants): the clean capture, its small
 * frames (cut detection), the 16:9 video's still layers and the timeline. Stored under the version's own prefix
 * (`demos/<id>/v<N>/capture/`), so it goes when the version's media go (version expiry deletes the prefix).
 */
export interface CaptureKit {
  cleanFile: string;
  smallFrames: string | null;
  timeline: InteractionTimeline;
  layers: LayerFiles;
  /** the end card drawn for each frame when the video was made (presentation.endCard), if it has one */
  endCards?: Partial<Record<AspectRatio, string>>;
}

type LayerRole = 'plate' | 'background' | 'window' | 'mask';

/** What is written beside the files: the layers' roles and measures, and the timeline. */
interface Manifest {
  smallFrames: boolean;
  /** the frames an end card is kept for (absent: none) */
  endCards?: AspectRatio[];
  timeline: InteractionTimeline;
  layers: Record<LayerRole, boolean> & { cursor: { width: number; height: number; hotspotX: number; hotspotY: number } | null; colors: LayerFiles['colors'] };
}

export function captureKey(demoId: string, version: number): string {
  return `demos/${demoId}/v${version}/capture/`;
}

/** Stores the kit under `prefix`; returns the prefix (the version's `captureKey`). */
export async function keepCapture(storage: Storage, prefix: string, kit: CaptureKit): Promise<string> {
  const put = async (name: string, file: string) => {
    const { size } = await fs.stat(file);
    await storage.put(`${prefix}${name}`, createReadStream(file), { size });
  };
  const { layers } = kit;
  const files: Record<LayerRole | 'cursor', string | null> = {
    plate: layers.plate, background: layers.background, window: layers.window, mask: layers.mask, cursor: layers.cursor?.file ?? null,
  };
  await put('clean.mkv', kit.cleanFile);
  const small = kit.smallFrames ? await fs.stat(kit.smallFrames).then(() => true, () => false) : false;
  if (small) await put('small.gray', kit.smallFrames!);
  for (const [role, file] of Object.entries(files)) if (file) await put(`layers/${role}.png`, file);
  const cards = Object.entries(kit.endCards ?? {}).filter((entry): entry is [AspectRatio, string] => typeof entry[1] === 'string');
  for (const [aspect, file] of cards) await put(`end-cards/${aspect.replace(':', 'x')}.png`, file);
  const has = (role: LayerRole) => files[role] !== null;
  const cursor = layers.cursor ? { width: layers.cursor.width, height: layers.cursor.height, hotspotX: layers.cursor.hotspotX, hotspotY: layers.cursor.hotspotY } : null;
  const manifest: Manifest = {
    smallFrames: small,
    ...(cards.length > 0 ? { endCards: cards.map(([aspect]) => aspect) } : {}),
    timeline: kit.timeline,
    layers: { plate: true, background: has('background'), window: has('window'), mask: has('mask'), cursor, colors: layers.colors },
  };
  // The manifest last: a kit without one was not finished and is never read.
  await storage.put(`${prefix}manifest.json`, Buffer.from(JSON.stringify(manifest)));
  return prefix;
}

/** Reads the kit under `prefix` into `dir`; null when it is not (or no longer) there. */
export async function loadCapture(storage: Storage, prefix: string, dir: string): Promise<CaptureKit | null> {
  const get = async (name: string): Promise<string | null> => {
    const stream = await storage.read(`${prefix}${name}`);
    if (!stream) return null;
    const file = path.join(dir, ...name.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await pipeline(stream, createWriteStream(file));
    return file;
  };
  const manifestFile = await get('manifest.json');
  if (!manifestFile) return null;
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as Manifest;
  const cleanFile = await get('clean.mkv');
  const plate = await get('layers/plate.png');
  if (!cleanFile || !plate) return null;
  const layer = async (role: LayerRole) => (manifest.layers[role] ? get(`layers/${role}.png`) : null);
  const cursorFile = manifest.layers.cursor ? await get('layers/cursor.png') : null;
  const endCards: Partial<Record<AspectRatio, string>> = {};
  for (const aspect of manifest.endCards ?? []) {
    const file = await get(`end-cards/${aspect.replace(':', 'x')}.png`);
    if (file) endCards[aspect] = file;
  }
  return {
    ...(Object.keys(endCards).length > 0 ? { endCards } : {}),
    cleanFile,
    smallFrames: manifest.smallFrames ? await get('small.gray') : null,
    timeline: manifest.timeline,
    layers: {
      plate,
      background: await layer('background'),
      window: await layer('window'),
      mask: await layer('mask'),
      cursor: manifest.layers.cursor && cursorFile ? { ...manifest.layers.cursor, file: cursorFile } : null,
      colors: manifest.layers.colors,
    },
  };
}

/** Copies every file of a kit from one version's prefix to another's (a cut-only restyle makes a new version). */
export async function copyCapture(storage: Storage, from: string, to: string, dir: string): Promise<string | null> {
  const kit = await loadCapture(storage, from, dir);
  return kit ? keepCapture(storage, to, kit) : null;
}
