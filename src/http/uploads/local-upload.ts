import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { demoUrls, uploadDemo } from '../../demos/index.js';
import { formats } from '../../demos/events.js';
import { demoPrompt } from '../../demos/schemas.js';
import { newId } from '../../platform/ids.js';
import { inTransaction } from '../../platform/command.js';
import { ForbiddenError, NotFoundError, UnsupportedMediaError, ValidationError } from '../../platform/errors.js';
import { SNIFF_BYTES, sniffMedia } from '../../platform/media-signatures.js';
import { hitRateLimits } from '../../platform/rate-limit.js';
import { mediaKey } from '../../platform/storage/index.js';
import { describeIssues, singleLineName } from '../../platform/validation.js';
import { probeVideo } from '../../pipeline/encode/probe.js';
import { findVisibleProject } from '../../projects/index.js';
import { findUserById, planOf } from '../../users/index.js';
import type { Services } from '../context.js';
import { requestInfo } from '../context.js';
import { sendJson } from '../respond.js';
import { authorizeUpload } from './authorize-upload.js';
import { declaredLength, receiveBodyToFile, mediaTypeOf } from './receive-body.js';
import { checkVideoBounds, holdUploadSlot, hourlyUploadLimit } from './upload-limits.js';

const query = z.object({
  project_id: z.string().min(1),
  prompt: demoPrompt,
  title: singleLineName(200).optional(),
  duration_ms: z
    .union([z.literal('null').transform(() => null), z.string().regex(/^\d+$/, 'must be an integer').transform(Number)])
    .pipe(z.number().int().min(0).max(3_600_000).nullable())
    .optional(),
  format: z.enum(formats).optional(),
});

const CONTENT_TYPES: Record<string, 'mp4' | 'webm'> = { 'video/mp4': 'mp4', 'video/webm': 'webm' };
// Which plan may publish which format (spec: "a plan may forbid a video format").

/**
 * POST /api/v1/demos/local-upload: publishes a locally recorded MP4 or WebM as a ready demo. Checks cost nothing
 * before the body is read (auth, query, Content-Length, type, project, plan, the user's uploads in flight and in the
 * hour); the body is streamed to a temp file, checked by its bytes and by ffprobe's reading of its header
 * (container, resolution, frame rate, duration: upload-limits.ts), stored, and the one event that makes the demo
 * exist is written with the worker's job that derives its thumbnail and GIF (derive-upload.ts): no ffmpeg runs in
 * the request. A rejected upload leaves no file and no event.
 */
export async function handleLocalUpload(services: Services, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const principal = await authorizeUpload(services, req, 'upload');
  const parsed = query.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new ValidationError(describeIssues(parsed.error.issues));
  const input = parsed.data;
  const config = services.config;

  const length = declaredLength(req, config.SHOWREEL_MAX_UPLOAD_BYTES, 'video');
  const mediaType = mediaTypeOf(req);
  const declared = CONTENT_TYPES[mediaType];
  if (!declared) throw new UnsupportedMediaError('Send the video with Content-Type video/mp4 or video/webm.');
  if (input.format && input.format !== declared) {
    throw new ValidationError(`format is ${input.format} but the Content-Type is ${mediaType}.`);
  }
  if (!(await findVisibleProject(services.sql, principal, input.project_id))) throw new NotFoundError('Project');
  const user = await findUserById(services.sql, principal.userId);
  const plan = user?.plan ?? 'free';
  if (!planOf(plan).formats.includes(declared)) {
    throw new ForbiddenError(`Your ${plan} plan does not allow ${declared} videos; upload an MP4 or upgrade to pro.`);
  }

  const releaseSlot = holdUploadSlot(principal.userId, config.SHOWREEL_UPLOADS_IN_FLIGHT);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-upload-')).catch((error: unknown) => {
    releaseSlot();
    throw error;
  });
  const demoId = newId();
  const keys: string[] = [];
  try {
    // Counted once the upload is about to cost something (its bytes), refused or not: probing bad files is work too.
    await hitRateLimits(services.sql, [hourlyUploadLimit(config, principal.userId)], 'video upload');
    const videoFile = path.join(work, `video.${declared}`);
    await receiveBodyToFile(req, videoFile, length);
    await checkSignature(videoFile, declared);
    const info = await probeVideo(videoFile);
    if (info.container !== declared) throw new UnsupportedMediaError(`The file is not a valid ${declared.toUpperCase()} video.`);
    checkVideoBounds(info, config);
    const durationMs = input.duration_ms ?? info.durationMs ?? 0;

    const videoKey = mediaKey(demoId, 1, 'video', declared);
    const { size } = await fs.stat(videoFile);
    await services.storage.put(videoKey, createReadStream(videoFile), { size });
    keys.push(videoKey);

    const jobId = newId();
    await inTransaction(services.sql, (tx) =>
      uploadDemo(
        tx,
        {
          demoId, projectId: input.project_id, userId: principal.userId, jobId, prompt: input.prompt, title: input.title ?? null,
          format: declared, resolution: (info.height ?? 0) >= 1080 ? '1080p' : '720p', videoKey,
          // Named now, filled by the worker: /thumb/<id>.png and /gif/<id>.gif answer 404 until it has.
          thumbnailKey: mediaKey(demoId, 1, 'thumbnail', 'png'), gifKey: mediaKey(demoId, 1, 'gif', 'gif'), durationMs,
        },
        { actor: principal.userId, requestId: requestInfo(req).requestId },
      ),
    );
    const urls = demoUrls(config.PUBLIC_URL, demoId, declared);
    sendJson(res, 201, { id: demoId, status: 'ready', jobId, shareUrl: urls.shareUrl, embedUrl: urls.embedUrl, videoUrl: urls.videoUrl });
  } catch (error) {
    // Nothing half-written survives a rejected upload.
    await Promise.all(keys.map((key) => services.storage.delete(key).catch(() => undefined)));
    throw error;
  } finally {
    releaseSlot();
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function checkSignature(file: string, expected: 'mp4' | 'webm'): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    if (sniffMedia(buffer.subarray(0, bytesRead)) !== expected) {
      // In plain words (issue 57): the user named a file, not a container format.
      throw new UnsupportedMediaError(`This file is not ${expected === 'mp4' ? 'an MP4' : 'a WebM'} video: its contents are something else, whatever its name says.`);
    }
  } finally {
    await handle.close();
  }
}
