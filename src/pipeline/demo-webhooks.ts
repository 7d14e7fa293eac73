import { demoUrls, type DemoJobPayload, type DemoRecord } from '../demos/index.js';
import type { DemoWebhookEvent } from '../webhooks/index.js';

/**
 * The outbound webhook events of a demo job's end (issue 37), sent by run-job.ts in the transaction that records
 * the outcome: `demo.ready` when a generate, refresh or restyle published a version, `demo.failed` when a job
 * failed for good (its credit refunded). Media URLs name the version (`?v=N`), so they keep showing what the event
 * announced after later versions.
 */
export function demoReadyEvent(
  publicUrl: string,
  demo: Pick<DemoRecord, 'id' | 'project_id' | 'format' | 'title'>,
  job: Pick<DemoJobPayload, 'jobId' | 'kind'>,
  outcome: { version: number; title: string | null; durationMs: number },
): DemoWebhookEvent {
  const urls = demoUrls(publicUrl, demo.id, demo.format);
  return {
    projectId: demo.project_id,
    demoId: demo.id,
    type: 'demo.ready',
    data: {
      status: 'ready',
      job_id: job.jobId,
      kind: job.kind,
      version: outcome.version,
      title: outcome.title ?? demo.title,
      duration_ms: outcome.durationMs,
      share_url: urls.shareUrl,
      embed_url: urls.embedUrl,
      video_url: `${urls.videoUrl}?v=${outcome.version}`,
      thumbnail_url: `${urls.thumbnailUrl}?v=${outcome.version}`,
      gif_url: `${urls.gifUrl}?v=${outcome.version}`,
    },
  };
}

export function demoFailedEvent(demo: Pick<DemoRecord, 'id' | 'project_id'>, job: Pick<DemoJobPayload, 'jobId' | 'kind'>, error: string): DemoWebhookEvent {
  return {
    projectId: demo.project_id,
    demoId: demo.id,
    type: 'demo.failed',
    data: { status: 'failed', job_id: job.jobId, kind: job.kind, error },
  };
}
