import type { Decider } from '../platform/command.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import type { DemoEvent, JobKind, Trigger } from './events.js';
import type { Presentation } from './presentation.js';

type Data<T extends DemoEvent['type']> = Extract<DemoEvent, { type: T }>['data'];

export interface ActiveJob {
  jobId: string;
  kind: JobKind;
  credits: number;
}

/** A version's media, as published; `removed` once the retention job deleted them. */
export interface VersionMedia {
  videoKey: string;
  gifKey: string | null;
  thumbnailKey: string | null;
  durationMs: number;
  presentation: string | null;
  removed: boolean;
}

export type DemoState =
  | { exists: false }
  | {
      exists: true;
      deleted: boolean;
      userId: string;
      projectId: string;
      source: 'generated' | 'upload';
      status: string;
      /** the version the demo shows (an earlier one after a restore) */
      version: number;
      /** the highest version recorded: the next recording is this plus one */
      latestVersion: number;
      versions: Record<number, VersionMedia>;
      hasActionScript: boolean;
      activeJob: ActiveJob | null;
    };

export type DemoCommand =
  | { type: 'RequestDemo'; request: Omit<Data<'DemoRequested'>, 'firstJob'>; jobId: string; credits: number }
  | { type: 'UploadDemo'; upload: Data<'DemoUploaded'> }
  | {
      type: 'QueueJob';
      demoId: string;
      userId: string | null;
      jobId: string;
      kind: 'refresh' | 'restyle';
      triggeredBy: Trigger;
      credits: number;
      presentation?: Presentation;
      force?: boolean;
      /** Issue 59: only cuts are added, from the shown version's kept capture */
      fromCapture?: boolean;
      /** Project refresh, webhook and schedules only touch demos that are ready (spec States rule 5). */
      onlyIfReady?: boolean;
    }
  | { type: 'StartJob'; demoId: string; jobId: string; attempt: number }
  | { type: 'ReportProgress'; demoId: string; jobId: string; step: string; progress: number }
  | { type: 'CompleteJob'; outcome: Omit<Data<'DemoJobSucceeded'>, 'version'> }
  | { type: 'FailJob'; demoId: string; jobId: string; error: string }
  | { type: 'CompleteUnchanged'; demoId: string; jobId: string }
  | { type: 'UpdateDemo'; demoId: string; userId: string; prompt?: string; title?: string; context?: string | null }
  | { type: 'EditNarrationScript'; demoId: string; userId: string; script: string | null }
  | { type: 'ReplaceAsset'; demoId: string; userId: string; asset: 'thumbnail' | 'gif'; key: string }
  | { type: 'DeleteDemo'; demoId: string; userId: string }
  | { type: 'RestoreVersion'; demoId: string; userId: string; version: number }
  | { type: 'RemoveVersionMedia'; demoId: string; versions: number[] };

export const demoDecider: Decider<DemoState, DemoEvent, DemoCommand> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'DemoRequested': {
        const job = event.data.firstJob;
        return {
          exists: true, deleted: false, userId: event.data.userId, projectId: event.data.projectId,
          source: 'generated', status: 'pending', version: 0, latestVersion: 0, versions: {}, hasActionScript: false,
          activeJob: job ? { jobId: job.jobId, kind: 'generate', credits: job.credits } : null,
        };
      }
      case 'DemoUploaded':
        return {
          exists: true, deleted: false, userId: event.data.userId, projectId: event.data.projectId,
          source: 'upload', status: 'ready', version: 1, latestVersion: 1, hasActionScript: false, activeJob: null,
          versions: { 1: { videoKey: event.data.videoKey, gifKey: event.data.gifKey, thumbnailKey: event.data.thumbnailKey, durationMs: event.data.durationMs, presentation: null, removed: false } },
        };
    }
    if (!state.exists) return state;
    switch (event.type) {
      case 'DemoJobQueued':
        return {
          ...state,
          status: event.data.kind === 'generate' ? 'pending' : event.data.kind === 'refresh' ? 'refreshing' : 'recording',
          activeJob: { jobId: event.data.jobId, kind: event.data.kind, credits: event.data.credits },
        };
      case 'DemoJobSucceeded':
        return {
          ...state,
          status: 'ready',
          version: event.data.version,
          latestVersion: event.data.version,
          versions: {
            ...state.versions,
            [event.data.version]: {
              videoKey: event.data.videoKey, gifKey: event.data.gifKey, thumbnailKey: event.data.thumbnailKey, durationMs: event.data.durationMs,
              presentation: event.data.presentation ?? null, removed: false,
            },
          },
          hasActionScript: state.hasActionScript || Boolean(event.data.actionScript),
          activeJob: null,
        };
      case 'DemoRefreshUnchanged':
        return { ...state, status: 'ready', activeJob: null };
      case 'DemoJobFailed':
        // A failed refresh or restyle leaves the last good version in place; a failed first generation fails the demo.
        return { ...state, status: state.version > 0 ? 'ready' : 'failed', activeJob: null };
      case 'DemoDeleted':
        return { ...state, deleted: true, status: 'deleted', activeJob: null };
      case 'DemoVersionRestored':
        return { ...state, version: event.data.version };
      case 'DemoVersionsMediaRemoved': {
        const versions = { ...state.versions };
        for (const n of event.data.versions) if (versions[n]) versions[n] = { ...versions[n], removed: true };
        return { ...state, versions };
      }
      case 'DemoAssetReplaced': {
        const current = state.versions[state.version];
        if (!current) return state;
        const replaced = event.data.asset === 'thumbnail' ? { thumbnailKey: event.data.key } : { gifKey: event.data.key };
        return { ...state, versions: { ...state.versions, [state.version]: { ...current, ...replaced } } };
      }
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RequestDemo': {
        if (state.exists) throw new ConflictError('This demo already exists.');
        const { request, jobId, credits } = command;
        return [{ type: 'DemoRequested', data: { ...request, firstJob: { jobId, credits } } }];
      }
      case 'UploadDemo':
        if (state.exists) throw new ConflictError('This demo already exists.');
        return [{ type: 'DemoUploaded', data: command.upload }];
    }

    const demo = visible(state, 'userId' in command ? command.userId : null);
    switch (command.type) {
      case 'QueueJob': {
        if (demo.source === 'upload') {
          throw new ValidationError(`Uploaded demos cannot be ${command.kind === 'refresh' ? 'refreshed' : 'restyled'}; upload a new recording instead.`);
        }
        if (command.onlyIfReady && (demo.status !== 'ready' || demo.activeJob)) return [];
        if (command.kind === 'restyle' && !demo.hasActionScript) {
          throw new ValidationError('This demo has no recorded action script yet, so it cannot be restyled; wait until it is ready.');
        }
        if (demo.activeJob) {
          // The same refresh is never queued twice: the caller answers with the job already in flight.
          if (command.kind === 'refresh' && demo.activeJob.kind !== 'restyle') return [];
          throw new ConflictError(`A ${demo.activeJob.kind} of this demo is already in progress (job ${demo.activeJob.jobId}); try again when it finishes.`);
        }
        return [{
          type: 'DemoJobQueued',
          data: {
            demoId: command.demoId, jobId: command.jobId, kind: command.kind, triggeredBy: command.triggeredBy,
            credits: command.credits, ...(command.presentation ? { presentation: command.presentation } : {}),
            ...(command.force ? { force: true } : {}),
            ...(command.fromCapture ? { fromCapture: true } : {}),
          },
        }];
      }
      case 'StartJob':
        if (demo.activeJob?.jobId !== command.jobId) return [];
        return [{ type: 'DemoJobStarted', data: { demoId: command.demoId, jobId: command.jobId, attempt: command.attempt } }];
      case 'ReportProgress':
        if (demo.activeJob?.jobId !== command.jobId) return [];
        return [{ type: 'DemoJobProgressed', data: { demoId: command.demoId, jobId: command.jobId, step: command.step, progress: command.progress } }];
      case 'CompleteJob':
        // A job completes once: a retried or duplicated completion never makes a second version.
        if (demo.activeJob?.jobId !== command.outcome.jobId) return [];
        // Numbered after the latest recording, not the one shown: after a restore of v1, the next recording is v3.
        return [{ type: 'DemoJobSucceeded', data: { ...command.outcome, version: demo.latestVersion + 1 } }];
      case 'CompleteUnchanged':
        if (demo.activeJob?.jobId !== command.jobId || demo.activeJob.kind !== 'refresh') return [];
        return [{ type: 'DemoRefreshUnchanged', data: { demoId: command.demoId, jobId: command.jobId, refundedCredits: demo.activeJob.credits } }];
      case 'FailJob':
        if (demo.activeJob?.jobId !== command.jobId) return [];
        return [{ type: 'DemoJobFailed', data: { demoId: command.demoId, jobId: command.jobId, error: command.error, refundedCredits: demo.activeJob.credits } }];
      case 'UpdateDemo': {
        const data: Data<'DemoUpdated'> = { demoId: command.demoId };
        if (command.prompt !== undefined) data.prompt = command.prompt;
        if (command.title !== undefined) data.title = command.title;
        if (command.context !== undefined) data.context = command.context;
        if (Object.keys(data).length === 1) return [];
        return [{ type: 'DemoUpdated', data }];
      }
      case 'EditNarrationScript':
        if (demo.source === 'upload') throw new ValidationError('Uploaded demos are not narrated; only generated demos have a narration script.');
        return [{ type: 'DemoNarrationScriptEdited', data: { demoId: command.demoId, script: command.script } }];
      case 'ReplaceAsset':
        if (demo.source !== 'upload') throw new ValidationError('Only uploaded demos take local assets; generated demos make their own.');
        return [{ type: 'DemoAssetReplaced', data: { demoId: command.demoId, asset: command.asset, key: command.key } }];
      case 'RestoreVersion': {
        if (demo.activeJob) {
          throw new ConflictError(`A ${demo.activeJob.kind} of this demo is in progress (job ${demo.activeJob.jobId}); restore a version when it finishes.`);
        }
        const media = demo.versions[command.version];
        if (!media) throw new NotFoundError(`Version ${command.version} of this demo`);
        if (media.removed) throw new ConflictError(`Version ${command.version} of this demo is no longer kept (its media were removed after newer versions), so it cannot be restored.`);
        if (demo.version === command.version) return [];
        const { removed: _removed, ...kept } = media;
        return [{ type: 'DemoVersionRestored', data: { demoId: command.demoId, version: command.version, ...kept } }];
      }
      case 'RemoveVersionMedia': {
        // The version shown is never removed, whatever its age; nor is one already gone.
        const versions = command.versions.filter((n) => n !== demo.version && demo.versions[n] && !demo.versions[n]!.removed);
        return versions.length === 0 ? [] : [{ type: 'DemoVersionsMediaRemoved', data: { demoId: command.demoId, versions } }];
      }
      case 'DeleteDemo': {
        // Deleting mid-job ends that job as failed, so its credits go back like any failed job's.
        const { activeJob } = demo;
        return [
          ...(activeJob
            ? [{ type: 'DemoJobFailed' as const, data: { demoId: command.demoId, jobId: activeJob.jobId, error: 'The demo was deleted.', refundedCredits: activeJob.credits } }]
            : []),
          { type: 'DemoDeleted', data: { demoId: command.demoId } },
        ];
      }
    }
  },
};

/** Owner scoping: another user's demo, or a deleted one, is not found. Pipeline commands pass no user. */
function visible(state: DemoState, userId: string | null): Extract<DemoState, { exists: true }> {
  if (!state.exists || state.deleted || (userId !== null && state.userId !== userId)) throw new NotFoundError('Demo');
  return state;
}
