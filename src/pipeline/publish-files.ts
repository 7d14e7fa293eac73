import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { AspectRatio } from '../demos/presentation.js';
import type { Logger } from '../platform/logger.js';
import { mediaKey, type Storage, variantMediaKey } from '../platform/storage/index.js';
import { type CaptureKit, captureKey, keepCapture } from './capture-kit.js';
import type { VariantResult } from './compose/compose-variant.js';
import type { InteractionTimeline } from './types.js';

/** A cut's files as a version lists them (DemoJobSucceeded.variants). */
export interface StoredCut {
  aspect: AspectRatio;
  videoKey: string;
  gifKey: string | null;
  thumbnailKey: string | null;
}

/**
 * A new version's files, under its own prefix (`demos/<id>/v<N>/`): the video, its thumbnail and GIF, each cut's
 * (issue 59), the timeline, and the capture a cut can be made from later (capture-kit.ts). A capture that cannot be
 * kept is logged, not a failed job: the version is whole without it, only a later cut will need a new recording.
 */
export async function storeVersionFiles(options: {
  storage: Storage;
  demoId: string;
  version: number;
  format: 'mp4' | 'webm';
  files: { video: string; thumbnail: string; gif: string };
  cuts: VariantResult[];
  timeline: InteractionTimeline;
  capture: CaptureKit;
  log: Logger;
}): Promise<{ keys: { videoKey: string; thumbnailKey: string; gifKey: string }; variants: StoredCut[]; captureKey: string | null }> {
  const { storage, demoId, version, format } = options;
  const keys = {
    videoKey: mediaKey(demoId, version, 'video', format),
    thumbnailKey: mediaKey(demoId, version, 'thumbnail', 'png'),
    gifKey: mediaKey(demoId, version, 'gif', 'gif'),
  };
  for (const [key, file] of [[keys.videoKey, options.files.video], [keys.thumbnailKey, options.files.thumbnail], [keys.gifKey, options.files.gif]] as const) {
    await putFile(storage, key, file);
  }
  const variants: StoredCut[] = [];
  for (const cut of options.cuts) variants.push(await storeCut(storage, demoId, version, format, cut));
  await storage.put(`demos/${demoId}/v${version}/timeline.json`, Buffer.from(JSON.stringify(options.timeline)));
  const kept = await keepCapture(storage, captureKey(demoId, version), options.capture).catch((error: unknown) => {
    options.log.warn({ err: error }, 'the capture was not kept; a cut of this version will need a new recording');
    return null;
  });
  return { keys, variants, captureKey: kept };
}

/** Issue 59: a cut's video, GIF and thumbnail, beside the video's under the version's prefix. */
export async function storeCut(storage: Storage, demoId: string, version: number, format: 'mp4' | 'webm', cut: VariantResult): Promise<StoredCut> {
  const slug = cut.aspect.replace(':', 'x');
  const stored: StoredCut = {
    aspect: cut.aspect,
    videoKey: variantMediaKey(demoId, version, 'video', slug, format),
    gifKey: cut.gif ? variantMediaKey(demoId, version, 'gif', slug, 'gif') : null,
    thumbnailKey: cut.thumbnail ? variantMediaKey(demoId, version, 'thumbnail', slug, 'png') : null,
  };
  for (const [key, file] of [[stored.videoKey, cut.outFile], [stored.gifKey, cut.gif?.file], [stored.thumbnailKey, cut.thumbnail?.file]] as const) {
    if (key && file) await putFile(storage, key, file);
  }
  return stored;
}

async function putFile(storage: Storage, key: string, file: string): Promise<void> {
  const { size } = await fs.stat(file);
  await storage.put(key, createReadStream(file), { size });
}
