import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Sql } from '../platform/database.js';
import type { Logger } from '../platform/logger.js';
import { mediaKey, type Storage } from '../platform/storage/index.js';
import { deriveGif, deriveThumbnail } from './encode/derive.js';
import { probeVideo } from './encode/probe.js';

export interface DeriveUploadServices {
  sql: Sql;
  storage: Storage;
  logger: Logger;
}

interface UploadedDemoRow {
  status: string;
  source: string;
  video_key: string | null;
  thumbnail_key: string | null;
  gif_key: string | null;
  duration_ms: number | null;
}

const readRow = async (sql: Sql, demoId: string) =>
  (await sql<UploadedDemoRow[]>`
    select status, source, video_key, thumbnail_key, gif_key, duration_ms from demos where id = ${demoId}`)[0];

/**
 * The worker's half of an upload (issue 34): the API stored and checked the video and answered; here its thumbnail
 * and GIF are made from it (deriveThumbnail, deriveGif: the first 10 s) and stored under the keys the demo names.
 * Until then `/thumb/<id>.png` and `/gif/<id>.gif` answer 404. A key the owner replaced meanwhile (local-assets) is
 * left as they made it; a demo deleted meanwhile gets nothing (and what was written while it went is removed).
 */
export async function deriveUploadPreviews(services: DeriveUploadServices, demoId: string): Promise<void> {
  const { sql, storage, logger } = services;
  const demo = await readRow(sql, demoId);
  if (!demo || demo.status === 'deleted' || demo.source !== 'upload' || !demo.video_key) return;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-derive-'));
  const written: string[] = [];
  try {
    const source = await storage.read(demo.video_key);
    if (!source) throw new Error(`The uploaded video of demo ${demoId} is missing from storage.`);
    const videoFile = path.join(work, `video${path.extname(demo.video_key)}`);
    await pipeline(source, createWriteStream(videoFile, { mode: 0o600 }));
    const durationMs = (await probeVideo(videoFile)).durationMs;
    // Only the keys the upload named are derived; one local-assets put in their place is the owner's own picture.
    const outputs: Array<[key: string, file: string, make: (file: string) => Promise<unknown>]> = [
      [mediaKey(demoId, 1, 'thumbnail', 'png'), path.join(work, 'thumbnail.png'), (file) => deriveThumbnail(videoFile, file, { durationMs })],
      [mediaKey(demoId, 1, 'gif', 'gif'), path.join(work, 'preview.gif'), (file) => deriveGif(videoFile, file, { maxSeconds: 10 })],
    ];
    for (const [key, file, make] of outputs) {
      if (demo.thumbnail_key !== key && demo.gif_key !== key) continue;
      await make(file);
      const current = await readRow(sql, demoId);
      if (!current || current.status === 'deleted') break;
      if (current.thumbnail_key !== key && current.gif_key !== key) continue;
      const { size } = await fs.stat(file);
      await storage.put(key, createReadStream(file), { size });
      written.push(key);
    }
    const after = await readRow(sql, demoId);
    if (!after || after.status === 'deleted') {
      await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
      return;
    }
    logger.info({ demoId, derived: written }, 'uploaded video previews derived');
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
