import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HTTPResponse } from 'puppeteer-core';
import { completeDemoJob, completeUnchangedRefresh, failDemoJob, findPublicDemo, reportDemoProgress, startDemoJob, type DemoJobPayload } from '../demos/index.js';
import { aspectVariants, type Presentation } from '../demos/presentation.js';
import { findJob, findVersionFingerprint } from '../demos/queries.js';
import { announceRefreshOutcome, type RefreshOutcome } from '../demos/refresh-outcome-hooks.js';
import { inTransaction } from '../platform/command.js';
import type { Config } from '../platform/config.js';
import type { Sql } from '../platform/database.js';
import { AppError, NotFoundError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { checkUrl, logRefusal } from '../platform/network/ssrf-guard.js';
import type { Storage } from '../platform/storage/index.js';
import { findProjectById, openSiteAccess } from '../projects/index.js';
import type { SecretBox } from '../platform/secrets.js';
import { notifyDemoWebhooks } from '../webhooks/index.js';
import { demoFailedEvent, demoReadyEvent } from './demo-webhooks.js';
import type { BrowserPool } from './browser/pool.js';
import { assertSignedIn, enterSite } from './browser/site-access.js';
import { EgressFailureError } from './browser/request-guard.js';
import { loadBackgroundImage } from '../backgrounds/load-image.js';
import { renderOutputs } from './encode/render-outputs.js';
import { storeVersionFiles } from './publish-files.js';
import { cutFromCapture } from './cut-from-capture.js';
import { editedLines } from './narration/script.js';
import { createSpeechEngine } from './narration/speech.js';
import { demoTitle, shownSections } from './plan/demo-title.js';
import type { Planner } from './plan/planner.js';
import { PermanentJobError, TransientJobError, describeFailure } from './job-errors.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize } from './produce-recording.js';
import { checkLaterPages, checkPage, checksForChanges, fingerprintToStore, parseFingerprint, plannerForChangedPage, type PageCheck } from './change-check.js';
import type { ActionScript, DemoPlan, DurationTarget, PageContext, Resolution, ViewportName } from './types.js';
import { parseJsonOrNull } from '../platform/json-or-null.js';

export interface PipelineServices {
  sql: Sql;
  config: Config;
  storage: Storage;
  logger: Logger;
  browsers: BrowserPool;
  planner: Planner;
  /** opens the project's sealed way into its app (issue 56) */
  secrets: SecretBox;
}

export interface JobAttempt {
  attempt: number;
  maxAttempts: number;
}

export const NAVIGATION_TIMEOUT_MS = 30_000;

/**
 * Runs one demo job through the stages, in order: loading → analyzing → planning → recording → rendering →
 * publishing → ready. Each stage is reported as a progress event. A transient fault (browser crash, navigation
 * timeout) is rethrown for graphile-worker to retry with backoff, until the last attempt: then, like any permanent
 * fault, the job fails with a sentence a person can act on and its credits are refunded.
 */
export async function runDemoJob(services: PipelineServices, payload: DemoJobPayload, attempt: JobAttempt): Promise<void> {
  const { sql, logger } = services;
  const log = logger.child({ demoId: payload.demoId, jobId: payload.jobId, kind: payload.kind, attempt: attempt.attempt });
  const metadata = { actor: 'pipeline', correlationId: payload.jobId, causationId: payload.jobId };

  const demo = await findPublicDemo(sql, payload.demoId);
  const job = await findJob(sql, payload.jobId);
  // Deleted, or this job already ended (a duplicate delivery after a crash): nothing to do, never a second version.
  if (!demo || !job || demo.latest_job_id !== payload.jobId || job.status === 'succeeded' || job.status === 'failed' || job.status === 'unchanged') {
    log.info('job no longer active; skipping');
    return;
  }

  // One write at a time, in the order reported: the recorder and the compositor report without waiting, and two
  // concurrent writes could commit out of order (the last recording tick after the first rendering one), which
  // clients saw as the bar going back a step.
  let lastWrite: Promise<unknown> = Promise.resolve();
  const progress = (step: string, fraction: number) => {
    const write = lastWrite.catch(() => undefined).then(() =>
      inTransaction(sql, (tx) => reportDemoProgress(tx, payload.demoId, payload.jobId, step, Math.min(1, Math.max(0, fraction)), metadata)),
    );
    lastWrite = write;
    return write;
  };

  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-job-'));
  try {
    const started = await inTransaction(sql, (tx) => startDemoJob(tx, payload.demoId, payload.jobId, attempt.attempt, metadata));
    if (!started) return;
    // Issue 59: a restyle that only changes the cuts is composed from the kept capture: no page, no browser.
    if (job.from_capture) {
      await cutFromCapture({ services, demo, payload, presentation: parsePresentation(job.presentation), work, progress, metadata, log });
      return;
    }
    const project = await findProjectById(sql, demo.project_id);
    if (!project) throw new PermanentJobError('The project of this demo no longer exists.');

    await progress('loading', 0.05);
    const allowPrivate = services.config.SHOWREEL_ALLOW_PRIVATE_URLS;
    // A dynamic embed records the page it sits on (checked to be on the project's site when it was asked for).
    const embedding = embeddingPageOf(demo.context);
    const pageUrl = embedding?.url ?? project.url;
    const target = await checkUrl(pageUrl, { allowPrivate });
    // What the failure messages call the address: an embed's page is the customer's page, not the project URL.
    const urlName = embedding?.url ? 'embedding page' : 'project URL';
    if (!target.ok) {
      logRefusal(log, pageUrl, target);
      throw new PermanentJobError(`The ${urlName} cannot be recorded: ${target.reason}`);
    }

    const presentation: Presentation = parsePresentation(job.presentation ?? demo.presentation);
    const format = demo.format;
    const resolution = demo.resolution as Resolution;
    const viewport = project.viewport as ViewportName;
    const videoFile = path.join(work, `video.${format}`);
    if (payload.kind === 'restyle' && !demo.action_script) throw new PermanentJobError('This demo has no recorded action script to restyle.');
    const template = presentation.recordingTemplate ?? { id: 'auto' as const };

    const captureSize = recordingCaptureSize(presentation, resolution, viewport);
    const durationTarget = (demo.duration_target ?? '10s') as DurationTarget;
    const timeoutMs = pageWorkBudgetMs(durationTarget, aspectVariants(presentation).length);
    // Issue 37: the fingerprint of the version shown, which the page is compared with before anything is recorded.
    const previousPrint = demo.version > 0 ? await findVersionFingerprint(sql, demo.id, demo.version) : null;
    const previous = parseFingerprint(previousPrint);
    const changeAware = checksForChanges(job) && previous !== null;
    let check: PageCheck | null = null;
    let planner = services.planner;
    // Issue 56: the project's cookies or sign-in recipe, opened only here, for the browser.
    const access = siteAccessOf(services, project.site_access_enc);
    const produced = await services.browsers.withPage({ viewport, resolution, allowPrivate, captureSize, timeoutMs }, async (page, ctx) => {
      const open = (url: string, name: string) => navigate(() => ctx.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS }), name);
      // Signed in first, off camera: the recording starts on the project's page.
      await enterSite(page, access, pageUrl, open);
      await open(pageUrl, urlName);
      await assertSignedIn(page, access, pageUrl);
      if (payload.kind !== 'restyle') {
        await progress('analyzing', 0.15);
        // Issue 56: a flow's later pages first, each by its address; then the demo's own page, left ready to record.
        const flowPages = changeAware ? (previous!.pages?.length ?? 0) : 0;
        const laterChanges = flowPages > 0 ? await checkLaterPages(page, previous!, (url) => open(url, urlName)) : [];
        if (flowPages > 0) await open(pageUrl, urlName);
        check = await checkPage(page, previous);
        if (check.changes) check.changes.push(...laterChanges);
        // Nothing the demo shows changed: no recording, and (below) no charge.
        if (changeAware && check.changes?.length === 0) return null;
        // Something changed: the stored plan is kept where the page still has what it shows, not made again. A flow
        // is planned again: its links and fields are found anew by what they say, as a renamed section is.
        if (changeAware && flowPages === 0) planner = plannerForChangedPage(planner, parseJsonOrNull<DemoPlan>(demo.ai_plan), previous!, check.analysis.outline, template.id);
      }
      const stepStart = { analyzing: 0.15, planning: 0.3, recording: 0.4, rendering: 0.72 } as const;
      const stepShare = { analyzing: 0, planning: 0, recording: 0.3, rendering: 0.15 } as const;
      return produceRecording(
        page,
        {
          url: pageUrl,
          prompt: demo.prompt,
          pageContext: embedding?.page ?? null,
          viewport,
          format,
          resolution,
          durationTarget,
          mode: demo.mode === 'agent' ? 'agent' : 'script',
          template: { id: template.id, ...(template.sectionHint ? { sectionHint: template.sectionHint } : {}) },
          // Restyle re-records the stored script: no analysis, no planning.
          ...(payload.kind === 'restyle' ? { storedScript: JSON.parse(demo.action_script!) as ActionScript, storedPlan: parseJsonOrNull<DemoPlan>(demo.ai_plan) } : {}),
          ...(check ? { analysis: (check as PageCheck).analysis } : {}),
          presentation,
          loadImage: (url) => loadBackgroundImage(url, { config: services.config, storage: services.storage, sql }),
          outFile: videoFile,
          workDir: work,
          // Issue 56: the project lets the recording submit forms (`recording.allow_submit`; default false).
          allowSubmit: project.allow_submit,
          // Issue 59: the voice SHOWREEL_SPEECH names, used only when the presentation turns narration on.
          speech: createSpeechEngine(services.config),
          narrationScript: editedLines(demo.narration_script),
        },
        planner,
        (step, fraction) =>
          progress(step, stepStart[step] + stepShare[step] * fraction).then(
            () => undefined,
            () => undefined,
          ),
      );
    });
    const checked = check as PageCheck | null;
    if (produced === null) {
      const ended = await inTransaction(sql, (tx) => completeUnchangedRefresh(tx, demo.id, payload.jobId, metadata));
      log.info({ unchanged: ended }, 'page unchanged since the version shown; nothing recorded, nothing charged');
      if (ended) await announce(services, log, refreshOutcome(services, demo, job, 'demo.unchanged', [], null));
      return;
    }
    const result = produced.recording;
    // A frame the screencast sent no picture for repeats the one before (or is taken by screenshot), and the
    // screencast is started afresh; one that kept missing them was given up and the rest captured by screenshots:
    // slower and costlier, which an operator should see.
    const capture = result.frameCapture;
    if (capture && capture.pictures === 'screenshots' && capture.missedPictures > 0) {
      log.warn({ missedPictures: capture.missedPictures, restarts: capture.screencastRestarts }, 'the screencast kept skipping frames; the rest was captured by screenshots');
    } else if (capture && capture.missedPictures > 0) {
      log.info({ missedPictures: capture.missedPictures, restarts: capture.screencastRestarts }, 'the screencast skipped frames; it was started afresh');
    }
    const { plan, script } = produced;
    // A flow's fingerprint and title are of the page the demo is made from (where a refresh looks), not where it ends.
    const outline = produced.startOutline;
    const snapshots = produced.snapshot ? JSON.stringify([produced.snapshot]) : demo.snapshots;
    const recordingLog = JSON.stringify(result.log);

    await progress('rendering', 0.88);
    const { gif: gifFile, thumbnail: thumbFile } = await renderOutputs({ videoFile, durationMs: result.durationMs, gifWidth: 640, gif: produced.composed.gif, thumbnail: produced.composed.thumbnail });

    await progress('publishing', 0.9);
    // Numbered after the latest recording, as the version is (decide.ts): after a restore of v1 with v2 kept, the
    // next is v3, and its files go under v3/, never over v2's.
    const version = (demo.latest_version ?? demo.version) + 1;
    const { keys, variants, captureKey: kept } = await storeVersionFiles({
      storage: services.storage, demoId: demo.id, version, format, files: { video: videoFile, thumbnail: thumbFile, gif: gifFile },
      cuts: produced.composed.variants, timeline: result.timeline, log,
      // Issue 59: the capture and the 16:9 layers, kept so that a cut can be added later without recording again.
      capture: {
        cleanFile: produced.cleanFile, smallFrames: null, timeline: result.timeline, layers: produced.composed.layers,
        ...(produced.composed.endCards ? { endCards: produced.composed.endCards } : {}),
      },
    });

    // A restyle plans nothing: the template its script was planned with stays on record.
    const previousTemplate = parsePresentation(demo.presentation).recordingTemplate;
    const finalPresentation = plan
      ? withTemplate(presentation, plan)
      : { ...presentation, ...(!presentation.recordingTemplate && previousTemplate ? { recordingTemplate: previousTemplate } : {}) };
    // Named once, from what the first recording shows; a demo that has a title (its owner's) keeps it.
    const title = demo.version === 0 && !demo.title && outline
      ? demoTitle({ shown: shownSections(plan?.story ?? null, produced.story), pageTitle: outline.title || null, prompt: demo.prompt })
      : null;
    // The version and its demo.ready webhooks commit together: a subscriber hears of every version, once per endpoint.
    const completed = await inTransaction(sql, async (tx) => {
      const published = await completeDemoJob(
        tx,
        {
          demoId: demo.id,
          jobId: payload.jobId,
          ...keys,
          durationMs: result.durationMs,
          // Named once, by the first recording: a later one (a refresh) keeps the title, which its owner may have edited.
          title,
          actionScript: JSON.stringify(script),
          aiPlan: plan ? JSON.stringify(plan) : null,
          snapshots,
          recordingLog,
          presentation: JSON.stringify(finalPresentation),
          // A restyle shows the same page as the version it restyles: that version's fingerprint carries over.
          fingerprint: payload.kind === 'restyle' ? previousPrint : fingerprintToStore(outline, plan, checked?.hashes ?? new Map(), produced.flowPages),
          ...(checked?.changes ? { changes: checked.changes } : {}),
          story: produced.story ? JSON.stringify(produced.story) : null,
          // Issue 55: a refresh plans again and says its own; a restyle keeps the plan, and so its warnings.
          warnings: produced.warnings,
          ...(variants.length > 0 ? { variants } : {}),
          ...(kept ? { captureKey: kept } : {}),
        },
        metadata,
      );
      if (published !== null) await notifyDemoWebhooks(tx, demoReadyEvent(services.config.PUBLIC_URL, demo, payload, { version: published, title, durationMs: result.durationMs }));
      return published;
    });
    log.info({ version: completed }, 'demo recorded');
    if (completed !== null && checksForChanges(job)) {
      await announce(services, log, refreshOutcome(services, demo, job, 'demo.changed', checked?.changes ?? [], completed));
    }
  } catch (error) {
    const failure = describeFailure(error);
    if (error instanceof NotFoundError) return; // deleted mid-job: the delete already ended and refunded the job
    if (failure.transient && attempt.attempt < attempt.maxAttempts) {
      log.warn({ err: error }, 'transient fault; the job will be retried');
      await progress('retrying', 0).catch(() => undefined);
      throw error;
    }
    log.error({ err: error }, 'demo job failed');
    await inTransaction(sql, async (tx) => {
      if (await failDemoJob(tx, payload.demoId, payload.jobId, failure.message, metadata)) await notifyDemoWebhooks(tx, demoFailedEvent(demo, payload, failure.message));
    }).catch((e: unknown) => {
      if (!(e instanceof NotFoundError)) throw e;
    });
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** What a finished scheduled or webhook refresh tells the project's listeners (refresh-outcome-hooks.ts). */
function refreshOutcome(
  services: PipelineServices,
  demo: { id: string; project_id: string; version: number },
  job: { id: string; triggered_by: string },
  type: RefreshOutcome['type'],
  changes: string[],
  newVersion: number | null,
): RefreshOutcome {
  const thumbnail = (version: number) => `${services.config.PUBLIC_URL}/thumb/${demo.id}.png?v=${version}`;
  return {
    projectId: demo.project_id, demoId: demo.id, jobId: job.id, type, triggeredBy: job.triggered_by, changes,
    beforeThumbnailUrl: demo.version > 0 ? thumbnail(demo.version) : null,
    afterThumbnailUrl: newVersion === null ? null : thumbnail(newVersion),
    oldVersion: demo.version > 0 ? demo.version : null,
    newVersion,
    checkedAt: new Date().toISOString(),
  };
}

/** The outcome is committed already: an announcement that fails is logged, never a failed job. */
async function announce(services: PipelineServices, log: Logger, outcome: RefreshOutcome): Promise<void> {
  await announceRefreshOutcome(services.sql, outcome).catch((error: unknown) => log.warn({ err: error, type: outcome.type }, 'refresh outcome not announced'));
}

async function navigate(goto: () => Promise<HTTPResponse | null>, urlName: string): Promise<void> {
  try {
    const response = await goto();
    if (response && response.status() >= 400) {
      throw new PermanentJobError(`The page answered HTTP ${response.status()}; check the ${urlName}.`);
    }
  } catch (error) {
    if (error instanceof PermanentJobError) throw error;
    if (error instanceof EgressFailureError) throw error.transient ? new TransientJobError(error.message) : new PermanentJobError(error.message);
    if (error instanceof AppError) throw new PermanentJobError(`The ${urlName} cannot be recorded: ${error.message}`);
    const message = error instanceof Error ? error.message : String(error);
    if (/timeout/i.test(message)) throw new TransientJobError(`The page did not load within ${NAVIGATION_TIMEOUT_MS / 1000} s.`);
    if (/ERR_NAME_NOT_RESOLVED/.test(message)) throw new PermanentJobError(`The ${urlName}'s host does not resolve; check the URL.`);
    if (/ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_ADDRESS_UNREACHABLE/.test(message)) {
      throw new TransientJobError('The site refused the connection; it may be down.');
    }
    // The egress proxy refused a CONNECT or could not connect: the URL was checked just before, so the site is down
    // (or its host now resolves privately, which a retry will meet again).
    if (/ERR_TUNNEL_CONNECTION_FAILED/.test(message)) throw new TransientJobError('The site could not be reached; it may be down.');
    if (/ERR_UNSAFE_PORT/.test(message)) throw new PermanentJobError('Browsers refuse to open this port; use the site’s usual http(s) port.');
    if (/ERR_BLOCKED_BY_CLIENT/.test(message)) throw new PermanentJobError('The project URL points at a private address, which Showreel does not record.');
    throw new TransientJobError(`The page could not be opened (${message.slice(0, 200)}).`);
  }
}

/** The project's way into its app; one sealed under another master key cannot be opened, and says so. */
function siteAccessOf(services: PipelineServices, sealed: string | null) {
  try {
    return openSiteAccess(services.secrets, sealed);
  } catch {
    throw new PermanentJobError('The project’s sign-in settings cannot be read (the master key may have changed); set them again.');
  }
}


function parsePresentation(text: string | null): Presentation {
  if (!text) return {};
  try {
    return JSON.parse(text) as Presentation;
  } catch {
    return {};
  }
}

/** The demo's presentation with the template the planner really used (effectiveId, autoSelection). */
function withTemplate(presentation: Presentation, plan: DemoPlan | null): Presentation {
  if (!plan) return presentation;
  const requested = presentation.recordingTemplate ?? { id: 'auto' as const };
  return {
    ...presentation,
    recordingTemplate: {
      ...requested,
      effectiveId: plan.templateId,
      ...(plan.autoSelection ? { autoSelection: plan.autoSelection } : {}),
      ...(plan.sectionHint && !requested.sectionHint ? { sectionHint: plan.sectionHint } : {}),
    },
  };
}

/**
 * The page context an embed stored on its demo (`context`, JSON written by the embeds module): the page to record
 * and what it says about itself. Null for any other context (free text set through PATCH /demos/{id}).
 */
function embeddingPageOf(context: string | null): { url: string | null; page: PageContext } | null {
  if (!context?.startsWith('{')) return null;
  try {
    const value = JSON.parse(context) as { url?: unknown; title?: unknown; headings?: unknown; description?: unknown };
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    const headings = Array.isArray(value.headings) ? value.headings.filter((h): h is string => typeof h === 'string') : [];
    return { url: text(value.url), page: { title: text(value.title), headings, description: text(value.description) } };
  } catch {
    return null;
  }
}
