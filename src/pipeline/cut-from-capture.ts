import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { completeDemoJob, type DemoJobPayload, type DemoRecord, variantsOf } from '../demos/index.js';
import { aspectVariants, type Presentation } from '../demos/presentation.js';
import { findVersionFingerprint } from '../demos/queries.js';
import { inTransaction } from '../platform/command.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import type { Logger } from '../platform/logger.js';
import { mediaKey, type Storage, variantMediaKey } from '../platform/storage/index.js';
import { notifyDemoWebhooks } from '../webhooks/index.js';
import { captureKey, keepCapture, loadCapture } from './capture-kit.js';
import { storeCut, type StoredCut } from './publish-files.js';
import { aspectSlug, variantFiles } from './compose/aspect.js';
import { composeVariants } from './compose/compose-variant.js';
import { mainShotMs } from './compose/main-shot.js';
import { demoReadyEvent } from './demo-webhooks.js';
import { probeVideo } from './encode/probe.js';
import { copySoundTrack } from './narration/audio.js';
import { PermanentJobError } from './job-errors.js';
import type { PipelineServices } from './run-job.js';
import type { DemoPlan, Resolution } from './types.js';
import { parseJsonOrNull } from '../platform/json-or-null.js';

/** The GIF preview's width, as jobs publish it. */
const GIF_WIDTH = 640;

/**
 * Issue 59: a restyle that only changes the cuts (`presentation.aspect`), made from the kept capture of the version
 * shown (capture-kit.ts): no browser, no recording, no credit (the restyle procedure queued it at 0). The new
 * version is the shown one with the cuts asked for: the 16:9 video, its GIF and thumbnail and the cuts it had are
 * copied as they are, each new cut is composed from the capture and the 16:9 layers (composeVariants), and the
 * capture is kept again under the new version, so that another cut can be added to it.
 */
export async function cutFromCapture(options: {
  services: PipelineServices;
  demo: DemoRecord;
  payload: DemoJobPayload;
  presentation: Presentation;
  work: string;
  progress: (step: string, fraction: number) => Promise<unknown>;
  metadata: EventMetadata;
  log: Logger;
}): Promise<void> {
  const { services, demo, payload, presentation, work } = options;
  const { storage, sql } = services;
  if (!demo.capture_key || !demo.video_key) {
    throw new PermanentJobError('This version’s capture is not kept, so a cut cannot be made from it; restyle with ?force=true to record it again.');
  }
  await options.progress('rendering', 0.2);
  const kit = await loadCapture(storage, demo.capture_key, path.join(work, 'capture'));
  if (!kit) throw new PermanentJobError('This version’s capture is no longer kept, so a cut cannot be made from it; restyle with ?force=true to record it again.');

  const had = new Map(variantsOf(demo.variants).map((variant) => [variant.aspect, variant]));
  const wanted = aspectVariants(presentation);
  const outFile = path.join(work, `video.${demo.format}`);
  const plan = parseJsonOrNull<DemoPlan>(demo.ai_plan);
  const made = await composeVariants({
    cleanFile: kit.cleanFile, smallFrames: kit.smallFrames, timeline: kit.timeline, presentation,
    resolution: demo.resolution as Resolution, format: demo.format, layers: kit.layers, workDir: work,
    // The end card drawn for each frame when the video was made (its words were the page's then).
    ...(kit.endCards && presentation.endCard?.enabled ? { endCards: kit.endCards } : {}),
    variants: wanted.filter((aspect) => !had.has(aspect)).map((aspect) => {
      const files = variantFiles(outFile, aspect, GIF_WIDTH);
      return { aspect, ...files, thumbnail: { ...files.thumbnail, atMs: mainShotMs(kit.timeline, plan?.mainShot) } };
    }),
  });

  // A narrated video's cuts speak too: the 16:9 video's track, copied into each new cut.
  if (made.length > 0 && parseJsonOrNull<{ narration?: unknown }>(demo.story ?? null)?.narration) {
    const wide = path.join(work, `wide.${demo.format}`);
    await download(storage, demo.video_key, wide);
    if ((await probeVideo(wide)).hasAudio) {
      for (const cut of made) await copySoundTrack({ fromVideo: wide, videoFile: cut.outFile, format: demo.format });
    }
  }

  await options.progress('publishing', 0.9);
  const version = (demo.latest_version ?? demo.version) + 1;
  const keys = {
    videoKey: await copyObject(storage, demo.video_key, mediaKey(demo.id, version, 'video', demo.format)),
    gifKey: demo.gif_key ? await copyObject(storage, demo.gif_key, mediaKey(demo.id, version, 'gif', 'gif')) : null,
    thumbnailKey: demo.thumbnail_key ? await copyObject(storage, demo.thumbnail_key, mediaKey(demo.id, version, 'thumbnail', 'png')) : null,
  };
  const variants: StoredCut[] = [];
  for (const aspect of wanted) {
    const slug = aspectSlug(aspect);
    const key = (kind: 'video' | 'gif' | 'thumbnail', ext: string) => variantMediaKey(demo.id, version, kind, slug, ext);
    const old = had.get(aspect);
    if (old) {
      variants.push({
        aspect,
        videoKey: await copyObject(storage, old.videoKey, key('video', demo.format)),
        gifKey: old.gifKey ? await copyObject(storage, old.gifKey, key('gif', 'gif')) : null,
        thumbnailKey: old.thumbnailKey ? await copyObject(storage, old.thumbnailKey, key('thumbnail', 'png')) : null,
      });
      continue;
    }
    variants.push(await storeCut(storage, demo.id, version, demo.format, made.find((variant) => variant.aspect === aspect)!));
  }
  const kept = await keepCapture(storage, captureKey(demo.id, version), kit);
  await storage.put(`demos/${demo.id}/v${version}/timeline.json`, Buffer.from(JSON.stringify(kit.timeline)));

  // The shown version's look, plan, story and warnings carry over: only the cuts are new.
  const before = parseJsonOrNull<Presentation>(demo.presentation) ?? {};
  const finalPresentation: Presentation = { ...presentation, ...(before.recordingTemplate ? { recordingTemplate: before.recordingTemplate } : {}) };
  const durationMs = demo.duration_ms ?? kit.timeline.durationMs;
  const fingerprint = demo.version > 0 ? await findVersionFingerprint(sql, demo.id, demo.version) : null;
  const completed = await inTransaction(sql, async (tx) => {
    const published = await completeDemoJob(
      tx,
      {
        demoId: demo.id, jobId: payload.jobId, ...keys, durationMs, title: null,
        actionScript: demo.action_script, aiPlan: demo.ai_plan, snapshots: demo.snapshots, recordingLog: demo.recording_log,
        presentation: JSON.stringify(finalPresentation), fingerprint, story: demo.story ?? null,
        warnings: parseJsonOrNull<string[]>(demo.warnings ?? null) ?? [],
        ...(variants.length > 0 ? { variants } : {}),
        captureKey: kept,
      },
      options.metadata,
    );
    if (published !== null) await notifyDemoWebhooks(tx, demoReadyEvent(services.config.PUBLIC_URL, demo, payload, { version: published, title: null, durationMs }));
    return published;
  });
  options.log.info({ version: completed, cuts: made.map((variant) => variant.aspect) }, 'cuts made from the kept capture; nothing recorded');
}

async function copyObject(storage: Storage, from: string, to: string): Promise<string> {
  const info = await storage.stat(from);
  const stream = await storage.read(from);
  if (!info || !stream) throw new PermanentJobError(FILE_GONE);
  await storage.put(to, stream, { size: info.size });
  return to;
}

const FILE_GONE = 'A file of the version shown is no longer stored; restyle with ?force=true to record it again.';

async function download(storage: Storage, key: string, file: string): Promise<void> {
  const stream = await storage.read(key);
  if (!stream) throw new PermanentJobError(FILE_GONE);
  await pipeline(stream, createWriteStream(file));
}
