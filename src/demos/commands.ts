import { chargeNewReference, priceOf, refundCredits } from '../credits/index.js';
import { decideAndAppend, inTransaction } from '../platform/command.js';
import type { Sql, Tx } from '../platform/database.js';
import { demoPrefix, type Storage } from '../platform/storage/index.js';
import type { Precondition } from '../platform/event-store/append-to-stream.js';
import type { EventMetadata } from '../platform/event-store/types.js';
import { newId } from '../platform/ids.js';
import { enqueueJob, enqueueNewJob } from '../platform/jobs.js';
import { beforeCommit } from '../platform/transaction.js';
import { type DemoCommand, type DemoState, demoDecider } from './decide.js';
import { type DemoEvent, type DurationTarget, type JobKind, type Trigger, demoStream } from './events.js';
import type { Presentation } from './presentation.js';

type Data<T extends DemoEvent['type']> = Extract<DemoEvent, { type: T }>['data'];

/** graphile-worker task per job kind; the pipeline implements them. */
export const DEMO_TASKS: Record<JobKind, string> = { generate: 'demo_generate', refresh: 'demo_refresh', restyle: 'demo_restyle' };
export const DEMO_MEDIA_DELETE_TASK = 'demo_media_delete';
/** After each new version: removes the media of versions past the retention (SHOWREEL_VERSIONS_KEPT). */
export const DEMO_VERSIONS_EXPIRE_TASK = 'demo_versions_expire';
export const DEMO_PROGRESS_CHANNEL = 'demo_progress';
/** Transient faults (browser crash, navigation timeout) get this many tries, with graphile-worker's backoff. */
export const JOB_MAX_ATTEMPTS = 3;

export interface DemoJobPayload {
  demoId: string;
  jobId: string;
  kind: JobKind;
}

function run(tx: Tx, demoId: string, command: DemoCommand, metadata: EventMetadata, options: { newStream?: boolean; untilCommit?: boolean; precondition?: Precondition } = {}) {
  return decideAndAppend(tx, demoStream(demoId), demoDecider, command, metadata, options);
}

/** Progress listeners get the demo id only and re-read the state (ids only in NOTIFY). */
async function notifyChanged(tx: Tx, demoId: string) {
  await tx`select pg_notify(${DEMO_PROGRESS_CHANNEL}, ${demoId})`;
}

/**
 * Queue, notify, then charge: the demo's events, its job and its charge commit together or not at all. The charge
 * comes last because it takes the account's lock, held until commit: the less work after it, the more demos of one
 * account can be accepted per second. When this process remembers the account, the charge's lock and writes go out
 * with the job and COMMIT (one round trip); otherwise the job and the lock with the account's read go out together
 * and the charge's writes with COMMIT (see chargeNewReference).
 *
 * `precondition`: what the caller sent before that fails in the database (a new demo's first append, which carries
 * its project check, see visibleProjectPrecondition); its failure wins over the account's, and everything sent
 * behind it rolls back.
 */
async function enqueueNotifyAndCharge(
  tx: Tx,
  userId: string,
  payload: DemoJobPayload,
  credits: number,
  metadata: EventMetadata,
  precondition?: Promise<unknown>,
) {
  const jobOptions = { jobKey: `demo:${payload.demoId}`, maxAttempts: JOB_MAX_ATTEMPTS };
  await beforeCommit(
    tx,
    payload.kind === 'generate'
      ? // A new demo: its job key is new, and the workers' nudge goes after COMMIT, so that new demos of different
        // accounts do not commit one after another (see enqueueNewJob). No progress nudge: its id was minted in this
        // command, so no socket can be watching it and no cached embed answer names it (both learn of it after
        // COMMIT, from its response), and every listening process would only wake to find nothing to do.
        enqueueNewJob(tx, DEMO_TASKS.generate, payload, jobOptions)
      : Promise.all([enqueueJob(tx, DEMO_TASKS[payload.kind], payload, jobOptions), notifyChanged(tx, payload.demoId)]),
  );
  // A job that costs nothing (cuts from a kept capture, issue 59) is no transaction at all; its failure refunds nothing.
  if (credits === 0) return;
  const charge = { userId, amount: credits, description: `Demo ${payload.kind} (${payload.demoId})`, reference: `job:${payload.jobId}` };
  await chargeNewReference(tx, charge, metadata, { precondition });
}

/**
 * A new demo: its events, job, notification and charge in one round trip when this process remembers the account,
 * else two (BEGIN and COMMIT included, see inTransaction): nothing is read before the account, as the stream is new.
 *
 * `projectVisible`: checked in the demo's first append, the first statement after BEGIN (see
 * visibleProjectPrecondition): a missing project aborts the transaction, and every statement behind it fails for
 * that reason alone; on the charge's read path its failure wins over the account's (enqueueNotifyAndCharge).
 */
export async function requestDemo(
  tx: Tx,
  request: Omit<Data<'DemoRequested'>, 'demoId' | 'firstJob'>,
  metadata: EventMetadata,
  options: { projectVisible?: Precondition } = {},
) {
  const demoId = newId();
  const jobId = newId();
  const credits = priceOf(request.durationTarget as DurationTarget);
  const command: DemoCommand = { type: 'RequestDemo', request: { ...request, demoId }, jobId, credits };
  const precondition = options.projectVisible;
  const { written } = await run(tx, demoId, command, metadata, { newStream: true, untilCommit: true, ...(precondition ? { precondition } : {}) });
  await enqueueNotifyAndCharge(tx, request.userId, { demoId, jobId, kind: 'generate' }, credits, metadata, precondition ? written : undefined);
  return { demoId, jobId };
}

export interface QueueJobInput {
  demoId: string;
  /** null for triggers that act for the owner (schedule, webhook): ownership was checked on the project. */
  userId: string | null;
  kind: 'refresh' | 'restyle';
  triggeredBy: Trigger;
  presentation?: Presentation;
  onlyIfReady?: boolean;
  durationTarget: DurationTarget;
  /** Re-record even if the page has not changed (a refresh asked with `?force=true`). */
  force?: boolean;
  /** Issue 59: a restyle that only adds cuts, composed from the shown version's kept capture: no credit. */
  fromCapture?: boolean;
}

/**
 * Queues a refresh or restyle. Returns the job that will carry it out: the new one, or the refresh already in
 * flight (never queued or charged twice); null when `onlyIfReady` skipped a demo that is not ready.
 */
export async function queueDemoJob(tx: Tx, input: QueueJobInput, metadata: EventMetadata): Promise<{ jobId: string; queued: boolean } | null> {
  const jobId = newId();
  // A cut made from the kept capture records nothing: it costs no credit (docs/decisions.md, "Cuts added later").
  const credits = input.fromCapture ? 0 : priceOf(input.durationTarget);
  const { state, events } = await run(
    tx,
    input.demoId,
    {
      type: 'QueueJob', demoId: input.demoId, userId: input.userId, jobId, kind: input.kind, triggeredBy: input.triggeredBy,
      credits, onlyIfReady: input.onlyIfReady, ...(input.presentation ? { presentation: input.presentation } : {}),
      ...(input.force ? { force: true } : {}),
      ...(input.fromCapture ? { fromCapture: true } : {}),
    },
    metadata,
  );
  if (events.length === 0) {
    const active = state.exists ? state.activeJob : null;
    return active ? { jobId: active.jobId, queued: false } : null;
  }
  await enqueueNotifyAndCharge(tx, ownerOf(state), { demoId: input.demoId, jobId, kind: input.kind }, credits, metadata);
  return { jobId, queued: true };
}

// --- Outcomes, reported by the pipeline as it runs a job. Each is idempotent for a job that is no longer active.

export async function startDemoJob(tx: Tx, demoId: string, jobId: string, attempt: number, metadata: EventMetadata) {
  const result = await run(tx, demoId, { type: 'StartJob', demoId, jobId, attempt }, metadata);
  if (result.events.length > 0) await notifyChanged(tx, demoId);
  return result.events.length > 0;
}

export async function reportDemoProgress(tx: Tx, demoId: string, jobId: string, step: string, progress: number, metadata: EventMetadata) {
  const result = await run(tx, demoId, { type: 'ReportProgress', demoId, jobId, step, progress }, metadata);
  if (result.events.length > 0) await notifyChanged(tx, demoId);
  return result.events.length > 0;
}

export async function completeDemoJob(tx: Tx, outcome: Omit<Data<'DemoJobSucceeded'>, 'version'>, metadata: EventMetadata) {
  const result = await run(tx, outcome.demoId, { type: 'CompleteJob', outcome }, metadata);
  if (result.events.length > 0) {
    await notifyChanged(tx, outcome.demoId);
    // Old versions' files go in a job after this commits, never in the request or the recording's last step.
    await enqueueJob(tx, DEMO_VERSIONS_EXPIRE_TASK, { demoId: outcome.demoId }, { jobKey: `demo-versions-expire:${outcome.demoId}` });
  }
  const event = result.events[0];
  return event ? (event.data as Data<'DemoJobSucceeded'>).version : null;
}

/** Final failure: the demo records the error and the job's credits are refunded, exactly once. */
export async function failDemoJob(tx: Tx, demoId: string, jobId: string, error: string, metadata: EventMetadata) {
  const result = await run(tx, demoId, { type: 'FailJob', demoId, jobId, error }, metadata);
  if (result.events.length === 0) return false;
  await refundCredits(tx, { userId: ownerOf(result.state), reference: `job:${jobId}`, description: `Refund: ${error}`.slice(0, 500) }, metadata);
  await notifyChanged(tx, demoId);
  return true;
}

/**
 * A scheduled or webhook refresh found nothing the demo shows changed (issue 37): the job ends `unchanged`, the
 * version shown stays, and the job's credits go back (charged when queued, like every job, so that a refresh
 * never runs on credits the account does not have). Exactly once, like a failure's refund.
 */
export async function completeUnchangedRefresh(tx: Tx, demoId: string, jobId: string, metadata: EventMetadata) {
  const result = await run(tx, demoId, { type: 'CompleteUnchanged', demoId, jobId }, metadata);
  if (result.events.length === 0) return false;
  await refundCredits(tx, { userId: ownerOf(result.state), reference: `job:${jobId}`, description: 'Refund: nothing on the page changed, so nothing was recorded.' }, metadata);
  await notifyChanged(tx, demoId);
  return true;
}

export async function updateDemo(tx: Tx, input: { demoId: string; userId: string; prompt?: string; title?: string; context?: string | null }, metadata: EventMetadata) {
  return run(tx, input.demoId, { type: 'UpdateDemo', ...input }, metadata);
}

/** Issue 59: keeps the user's narration script (JSON array of {chapter, text}; null: back to the rules' lines). */
export async function editNarrationScript(tx: Tx, input: { demoId: string; userId: string; script: string | null }, metadata: EventMetadata) {
  const result = await run(tx, input.demoId, { type: 'EditNarrationScript', ...input }, metadata);
  await notifyChanged(tx, input.demoId);
  return result;
}

/**
 * Replaces an uploaded demo's thumbnail or GIF; returns the key it replaced (null when none), the file to remove
 * once this commits. Read under the demo row's lock: concurrent replacements queue there, and each learns the key
 * the one before it committed (read before the transaction, twenty at once all removed the same old file and left
 * nineteen behind).
 */
export async function replaceDemoAsset(
  tx: Tx,
  input: { demoId: string; userId: string; asset: 'thumbnail' | 'gif'; key: string },
  metadata: EventMetadata,
): Promise<string | null> {
  const [row] = await tx<{ thumbnail_key: string | null; gif_key: string | null }[]>`
    select thumbnail_key, gif_key from demos where id = ${input.demoId} for update`;
  await run(tx, input.demoId, { type: 'ReplaceAsset', ...input }, metadata);
  return (input.asset === 'thumbnail' ? row?.thumbnail_key : row?.gif_key) ?? null;
}

/** The worker's task that makes an uploaded video's thumbnail and GIF (src/pipeline/derive-upload.ts; issue 34). */
export const UPLOAD_DERIVE_TASK = 'demo_upload_derive';

/**
 * Publishes an uploaded video. Its thumbnail and GIF are derived by the worker after commit, not in the request:
 * ffmpeg's cost stays off the API process and under the worker's concurrency.
 */
export async function uploadDemo(tx: Tx, upload: Data<'DemoUploaded'>, metadata: EventMetadata) {
  await run(tx, upload.demoId, { type: 'UploadDemo', upload }, metadata);
  await enqueueJob(tx, UPLOAD_DERIVE_TASK, { demoId: upload.demoId }, { jobKey: `upload-derive:${upload.demoId}`, maxAttempts: 3 });
  await notifyChanged(tx, upload.demoId);
}

/** Deletes a demo: the events stay (history is never rewritten); its media go in a job after commit. */
export async function deleteDemo(tx: Tx, demoId: string, userId: string, metadata: EventMetadata) {
  const { events, state } = await run(tx, demoId, { type: 'DeleteDemo', demoId, userId }, metadata);
  const failed = events.find((e) => e.type === 'DemoJobFailed');
  if (failed) {
    const jobId = (failed.data as Data<'DemoJobFailed'>).jobId;
    await refundCredits(tx, { userId: ownerOf(state), reference: `job:${jobId}`, description: 'Refund: the demo was deleted.' }, metadata);
  }
  await enqueueJob(tx, DEMO_MEDIA_DELETE_TASK, { demoId }, { jobKey: `demo-media-delete:${demoId}` });
  await notifyChanged(tx, demoId);
}

function ownerOf(state: DemoState): string {
  if (!state.exists) throw new Error('demo state missing after a decision');
  return state.userId;
}

/**
 * Makes an earlier version current again: its media, as stored, become the demo's (an event, no recording, no
 * charge). Refused while a job runs (its result would replace the restored version a moment later).
 */
export async function restoreDemoVersion(tx: Tx, input: { demoId: string; userId: string; version: number }, metadata: EventMetadata) {
  const { events } = await run(tx, input.demoId, { type: 'RestoreVersion', ...input }, metadata);
  if (events.length > 0) await notifyChanged(tx, input.demoId);
  return events.length > 0;
}

/**
 * The retention: the `kept` most recent versions and the one shown keep their media; the files of the others are
 * deleted, then recorded as removed (an event). Deleting first: a crash in between leaves the version listed with
 * its files gone, and the retried job deletes nothing more and records it.
 */
export async function removeExpiredVersionMedia(sql: Sql, storage: Storage, demoId: string, kept: number, metadata: EventMetadata): Promise<number[]> {
  const rows = await sql<{ version: number; current: boolean }[]>`
    select v.version, v.version = d.version as current from demo_versions v join demos d on d.id = v.demo_id
    where v.demo_id = ${demoId} and v.media_removed_at is null and d.deleted_at is null
    order by v.version desc`;
  const expired = rows.slice(kept).filter((row) => !row.current).map((row) => row.version);
  if (expired.length === 0) return [];
  for (const version of expired) await storage.deletePrefix(`${demoPrefix(demoId)}v${version}/`);
  const { events } = await inTransaction(sql, (tx) => run(tx, demoId, { type: 'RemoveVersionMedia', demoId, versions: expired }, metadata));
  return events.length > 0 ? expired : [];
}
