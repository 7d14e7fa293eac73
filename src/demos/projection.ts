import type { Tx } from '../platform/database.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { DemoEvent } from './events.js';

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export const demosProjection: Projection = {
  name: 'demos',
  tables: ['demos', 'demo_jobs', 'demo_versions'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as DemoEvent & RecordedEvent;
    const at = stored.createdAt;
    switch (event.type) {
      case 'DemoRequested': {
        const d = event.data;
        const job = d.firstJob;
        // A new demo with its first job (every POST /demos since issue 14): the demo's row as it ends up, and the
        // job's, in one statement.
        if (job) {
          await tx`
            with demo as (
              insert into demos (id, project_id, user_id, prompt, status, format, resolution, duration_target, mode, presentation, context, context_hash,
                                 version, source, latest_job_id, created_at, updated_at)
              values (${d.demoId}, ${d.projectId}, ${d.userId}, ${d.prompt}, 'pending', ${d.format}, ${d.resolution}, ${d.durationTarget},
                      ${d.mode}, ${json(d.presentation)}, ${d.context ?? null}, ${d.contextHash ?? null}, 0, 'generated', ${job.jobId}, ${at}, ${at})
              returning id
            )
            insert into demo_jobs (id, demo_id, kind, triggered_by, status, step, credits, presentation, old_version, created_at, updated_at)
            select ${job.jobId}, demo.id, 'generate', 'create', 'queued', 'queued', ${job.credits}, null, null, ${at}, ${at}
            from demo`;
          return;
        }
        // Streams written before: the job follows in a DemoJobQueued.
        await tx`
          insert into demos (id, project_id, user_id, prompt, status, format, resolution, duration_target, mode, presentation, context, context_hash,
                             version, source, created_at, updated_at)
          values (${d.demoId}, ${d.projectId}, ${d.userId}, ${d.prompt}, 'pending', ${d.format}, ${d.resolution}, ${d.durationTarget},
                  ${d.mode}, ${json(d.presentation)}, ${d.context ?? null}, ${d.contextHash ?? null}, 0, 'generated', ${at}, ${at})`;
        return;
      }
      case 'DemoUploaded': {
        const d = event.data;
        await Promise.all([
          tx`
          insert into demos (id, project_id, user_id, prompt, status, title, format, resolution, video_key, gif_key, thumbnail_key,
                             duration_ms, version, latest_version, source, latest_job_id, created_at, updated_at)
          values (${d.demoId}, ${d.projectId}, ${d.userId}, ${d.prompt}, 'ready', ${d.title}, ${d.format}, ${d.resolution},
                  ${d.videoKey}, ${d.gifKey}, ${d.thumbnailKey}, ${d.durationMs}, 1, 1, 'upload', ${d.jobId}, ${at}, ${at})`,
          tx`
          insert into demo_jobs (id, demo_id, kind, triggered_by, status, step, progress, new_version, created_at, started_at, completed_at, updated_at)
          values (${d.jobId}, ${d.demoId}, 'upload', 'create', 'succeeded', 'ready', 1, 1, ${at}, ${at}, ${at}, ${at})`,
          tx`
          insert into demo_versions (demo_id, version, video_key, gif_key, thumbnail_key, duration_ms, presentation, job_kind, created_at)
          values (${d.demoId}, 1, ${d.videoKey}, ${d.gifKey}, ${d.thumbnailKey}, ${d.durationMs}, null, 'upload', ${at})`,
        ]);
        return;
      }
      case 'DemoJobQueued': {
        const d = event.data;
        const status = d.kind === 'generate' ? 'pending' : d.kind === 'refresh' ? 'refreshing' : 'recording';
        // One statement (each costs the API process CPU); the job's old_version is the demo's, which the update keeps.
        await tx`
          with demo as (
            update demos set status = ${status}, latest_job_id = ${d.jobId}, error = null, updated_at = ${at}
            where id = ${d.demoId}
            returning version
          )
          insert into demo_jobs (id, demo_id, kind, triggered_by, status, step, credits, presentation, old_version, force, from_capture, created_at, updated_at)
          values (${d.jobId}, ${d.demoId}, ${d.kind}, ${d.triggeredBy}, 'queued', 'queued', ${d.credits}, ${json(d.presentation)},
                  ${d.kind === 'generate' ? null : tx`(select version from demo)`}, ${d.force ?? false}, ${d.fromCapture ?? false}, ${at}, ${at})`;
        return;
      }
      case 'DemoJobStarted':
        await tx`
          update demo_jobs set status = 'running', attempts = ${event.data.attempt}, started_at = coalesce(started_at, ${at}), updated_at = ${at}
          where id = ${event.data.jobId}`;
        return;
      case 'DemoJobProgressed':
        await Promise.all([
          tx`
          update demo_jobs set status = 'running', step = ${event.data.step}, progress = ${event.data.progress}, updated_at = ${at}
          where id = ${event.data.jobId}`,
          tx`update demos set updated_at = ${at} where id = ${event.data.demoId}`,
        ]);
        return;
      case 'DemoJobSucceeded': {
        const d = event.data;
        await Promise.all([
          tx`
          update demo_jobs set status = 'succeeded', step = 'ready', progress = 1, new_version = ${d.version}, completed_at = ${at}, updated_at = ${at},
            changes = ${json(d.changes)}
          where id = ${d.jobId}`,
          tx`
          update demos set
            status = 'ready', version = ${d.version}, latest_version = ${d.version}, error = null,
            video_key = ${d.videoKey}, gif_key = ${d.gifKey}, thumbnail_key = ${d.thumbnailKey}, duration_ms = ${d.durationMs},
            title = coalesce(${d.title ?? null}, title),
            action_script = coalesce(${d.actionScript ?? null}, action_script),
            ai_plan = coalesce(${d.aiPlan ?? null}, ai_plan),
            snapshots = coalesce(${d.snapshots ?? null}, snapshots),
            recording_log = coalesce(${d.recordingLog ?? null}, recording_log),
            presentation = coalesce(${d.presentation ?? null}, presentation),
            story = ${d.story ?? null},
            warnings = ${json(d.warnings)},
            variants = ${json(d.variants?.length ? d.variants : null)},
            capture_key = ${d.captureKey ?? null},
            refreshed_at = case when version > 0 then ${at}::timestamptz else refreshed_at end,
            updated_at = ${at}
          where id = ${d.demoId}`,
          // The version's own presentation: the job's (a restyle's), else the demo's as it stands.
          tx`
          insert into demo_versions (demo_id, version, video_key, gif_key, thumbnail_key, duration_ms, presentation, job_kind, fingerprint, created_at, story, warnings, variants, capture_key)
          select ${d.demoId}, ${d.version}, ${d.videoKey}, ${d.gifKey}, ${d.thumbnailKey}, ${d.durationMs},
                 coalesce(${d.presentation ?? null}, j.presentation, demo.presentation), coalesce(j.kind, 'generate'), ${d.fingerprint ?? null}, ${at}, ${d.story ?? null},
                 ${json(d.warnings)}, ${json(d.variants?.length ? d.variants : null)}, ${d.captureKey ?? null}
          from demos demo left join demo_jobs j on j.id = ${d.jobId}
          where demo.id = ${d.demoId}
          on conflict (demo_id, version) do nothing`,
        ]);
        return;
      }
      case 'DemoVersionRestored': {
        const d = event.data;
        await tx`
          update demos set
            version = ${d.version}, video_key = ${d.videoKey}, gif_key = ${d.gifKey}, thumbnail_key = ${d.thumbnailKey},
            duration_ms = ${d.durationMs}, presentation = coalesce(${d.presentation}, presentation), updated_at = ${at},
            -- the version's own chapters and captions (issue 36), from its row written when it was recorded
            story = (select v.story from demo_versions v where v.demo_id = ${d.demoId} and v.version = ${d.version}),
            -- and its warnings (issue 55)
            warnings = (select v.warnings from demo_versions v where v.demo_id = ${d.demoId} and v.version = ${d.version}),
            -- and its aspect variants (issue 59)
            variants = (select v.variants from demo_versions v where v.demo_id = ${d.demoId} and v.version = ${d.version}),
            -- and its kept capture, which later cuts are made from
            capture_key = (select v.capture_key from demo_versions v where v.demo_id = ${d.demoId} and v.version = ${d.version})
          where id = ${d.demoId}`;
        return;
      }
      case 'DemoVersionsMediaRemoved':
        await tx`
          update demo_versions set media_removed_at = ${at}
          where demo_id = ${event.data.demoId} and version = any(${event.data.versions}::int[])`;
        return;
      case 'DemoRefreshUnchanged': {
        // The version shown stays; completed_at is when the page was checked.
        const d = event.data;
        await Promise.all([
          tx`
          update demo_jobs set status = 'unchanged', step = 'ready', progress = 1, changes = '[]', completed_at = ${at}, updated_at = ${at}
          where id = ${d.jobId}`,
          tx`update demos set status = 'ready', error = null, updated_at = ${at} where id = ${d.demoId}`,
        ]);
        return;
      }
      case 'DemoJobFailed': {
        const d = event.data;
        await Promise.all([
          tx`
          update demo_jobs set status = 'failed', step = 'failed', error = ${d.error}, completed_at = ${at}, updated_at = ${at}
          where id = ${d.jobId}`,
          tx`
          update demos set status = case when version > 0 then 'ready' else 'failed' end, error = ${d.error}, updated_at = ${at}
          where id = ${d.demoId}`,
        ]);
        return;
      }
      case 'DemoUpdated': {
        const d = event.data;
        await tx`
          update demos set
            prompt = coalesce(${d.prompt ?? null}, prompt),
            title = coalesce(${d.title ?? null}, title),
            context = case when ${d.context !== undefined} then ${d.context ?? null} else context end,
            updated_at = ${at}
          where id = ${d.demoId}`;
        return;
      }
      case 'DemoNarrationScriptEdited':
        await tx`update demos set narration_script = ${event.data.script}, updated_at = ${at} where id = ${event.data.demoId}`;
        return;
      case 'DemoAssetReplaced':
        // Uploaded demos only, which have one version.
        if (event.data.asset === 'thumbnail') {
          await Promise.all([
            tx`update demos set thumbnail_key = ${event.data.key}, updated_at = ${at} where id = ${event.data.demoId}`,
            tx`update demo_versions set thumbnail_key = ${event.data.key} where demo_id = ${event.data.demoId} and version = 1`,
          ]);
        } else {
          await Promise.all([
            tx`update demos set gif_key = ${event.data.key}, updated_at = ${at} where id = ${event.data.demoId}`,
            tx`update demo_versions set gif_key = ${event.data.key} where demo_id = ${event.data.demoId} and version = 1`,
          ]);
        }
        return;
      case 'DemoDeleted':
        await tx`update demos set status = 'deleted', deleted_at = ${at}, updated_at = ${at} where id = ${event.data.demoId}`;
        return;
    }
  },
};
