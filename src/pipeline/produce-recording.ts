import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { aspectVariants, type AspectRatio, type Presentation, type TemplateId } from '../demos/presentation.js';
import { analysePage, preparePage, type PageAnalysis, type PageSnapshot } from './analyse/index.js';
import { assertRecordablePage } from './analyse/recordable-page.js';
import { viewportFor } from './browser/viewports.js';
import { type BackgroundBytes, captureSizeFor, type ComposeOptions, composeVideo, type ComposeResult } from './compose/compose.js';
import { type ComposeAhead, composeAhead } from './compose/compose-ahead.js';
import { drawLayersAhead } from './compose/layers-ahead.js';
import { compileScript } from './plan/compile.js';
import type { Planner } from './plan/planner.js';
import type { PlanInput } from './plan/heuristic-planner.js';
import type { RecordResult } from './record/recorder.js';
import type { ActionScript, DemoPlan, DurationTarget, OutlineSection, PageContext, PageOutline, Resolution, ViewportName } from './types.js';
import { mainShotMs } from './compose/main-shot.js';
import { gifWidthFor, variantFiles } from './compose/aspect.js';
import { composeVariants } from './compose/compose-variant.js';
import { mainSection } from './plan/main-section.js';
import { notFoundEntry, planWarnings } from './plan/not-found.js';
import { takeCheckEntry, type TakeCheck } from './compose/take-check.js';
import { storyBeats } from './story-text/beats.js';
import { namedValues } from './plan/named-values.js';
import { startsFlow } from './plan/plan-leg.js';
import { readLinkedPages } from './analyse/linked-pages.js';
import { flowEntries, type FlowStart, produceFlow, replayFlow, sameSiteAs } from './produce-flow.js';
import { isFlow } from './record/record-flow.js';
import { guardSubmits, submitEntries, type SubmitGuard } from './record/submit-guard.js';
import { pageLanguage } from './story-text/captions.js';
import { nameFrom, pageNameOf, resolveEndCard } from './compose/end-card.js';
import { timeStory } from './story-text/chapters.js';
import type { TimedStory } from './story-text/types.js';
import type { FlowPage } from './fingerprint/index.js';
import type { Voiced } from './narration/narrate.js';
import { narrator } from './produce-narration.js';
import { checkAndRetake, takeRecorder } from './produce-take.js';
import type { SpeechEngine } from './narration/speech.js';
import type { NarrationLine } from './narration/types.js';

/** The GIF preview's width, as jobs publish it. */
const GIF_WIDTH = 640;

export interface RecordingRequest {
  url: string;
  prompt: string;
  viewport: ViewportName;
  format: 'mp4' | 'webm';
  resolution: Resolution;
  durationTarget: DurationTarget;
  mode: 'script' | 'agent';
  template: { id: TemplateId | 'auto'; sectionHint?: string };
  /** Dynamic embeds: what the embedding page says about itself, for the planner. */
  pageContext?: PageContext | null;
  /** The page's analysis, when the caller made it already (to compare fingerprints first): not made twice. */
  analysis?: PageAnalysis;
  /** Restyle: re-record this script; no analysis, no planning. */
  storedScript?: ActionScript;
  /** Restyle: the plan stored with the script, whose main shot the thumbnail is taken from. */
  storedPlan?: DemoPlan | null;
  /** how the video is presented (background, window, zoom, cursor…); null: the defaults */
  presentation?: Presentation | null;
  /** fetches a background image through the SSRF guard (for `background.imageUrl`) */
  loadImage?: (url: string) => Promise<BackgroundBytes>;
  /** the final video */
  outFile: string;
  /** where the clean capture and render files go; default the final video's directory */
  workDir?: string;
  /**
   * Issue 56: the project lets a recording submit forms and send requests that change things (a staging site). By
   * default no form is submitted and no request but a read leaves the page (record/submit-guard.ts).
   */
  allowSubmit?: boolean;
  /** Issue 59: the engine that speaks the narration (when the presentation turns it on); null: none configured */
  speech?: SpeechEngine | null;
  /** Issue 59: the demo's script as the user edited it (their lines kept, by beat), else null */
  narrationScript?: NarrationLine[] | null;
  /**
   * Issue 59: the frame of `outFile` (the one-shot CLI's first --aspect); default 16:9, as a job's video always is.
   * Every other frame presentation.aspect lists is made beside it.
   */
  aspect?: AspectRatio;
}

export interface Produced {
  /** the page the demo ends on (a flow's last page; the demo's page otherwise); null for a restyle */
  outline: PageOutline | null;
  /**
   * Issue 56: the demo's own page, where the recording starts (a flow's first page): what its fingerprint and title
   * are made from, since a refresh looks at that page. The same as `outline` for a one-page demo; null for a restyle.
   */
  startOutline: PageOutline | null;
  /** Issue 56: a flow's pages reached by a link, each with its own leg's plan (its fingerprint); [] for one page. */
  flowPages: FlowPage[];
  snapshot: PageSnapshot | null;
  plan: DemoPlan | null;
  /** The section the demo is about (main-section.ts), which its default title names; null for a restyle. */
  mainSection: OutlineSection | null;
  script: ActionScript;
  recording: RecordResult;
  /** the clean capture the video was composed from (the take kept), which a later cut is made from (issue 59) */
  cleanFile: string;
  composed: ComposeResult;
  /** How the take reads (each framed section's longest readable stretch); null for a restyle, which plans nothing. */
  check: TakeCheck | null;
  /** Chapters and captions timed by this recording (issue 36); null when the plan has no story (before issue 36). */
  story: TimedStory | null;
  /**
   * Issue 55: what the prompt asked for that the page did not have, in words (plan/not-found.ts). A restyle's are its
   * stored plan's: it shows what that plan showed.
   */
  warnings: string[];
}

/**
 * The size the recording is captured at for this presentation (its size in the window): what to ask the browser
 * pool for (`captureSize`), so frames are rendered at that size instead of scaled down to it.
 */
export function recordingCaptureSize(presentation: Presentation | null, resolution: Resolution, viewport: ViewportName): { width: number; height: number } {
  return captureSizeFor(presentation, resolution, viewportFor(viewport, resolution).frame);
}

const VIDEO_MS: Record<DurationTarget, number> = { '5s': 5000, '10s': 10_000, '30s': 30_000 };

/**
 * How long the work on a demo's page (load, analysis, plan, recording, composition) may take before it is given up
 * as hung (the pool's `timeoutMs`): the page is closed and the job retried. A 10 s 1080p demo takes ~20 s, and a
 * loaded machine a few times that; with no limit one stuck page held its worker slot and browser for good.
 */
export function pageWorkBudgetMs(durationTarget: DurationTarget, variants = 0): number {
  // Issue 59: each aspect variant is one more compose pass (about the video's own: ~1 s per second of video at 1080p).
  return 120_000 + 8 * VIDEO_MS[durationTarget] + variants * 4 * VIDEO_MS[durationTarget];
}

/**
 * The stages that need the page, in order: analyse → plan → record → compose (the page is already open on the URL;
 * compose's still layers are drawn on a page of their own while the recording runs, layers-ahead.ts).
 * Shared by the worker's jobs and the one-shot `showreel demo` command, so both make the same video.
 */
export async function produceRecording(
  page: Page,
  request: RecordingRequest,
  planner: Planner,
  report: (step: 'analyzing' | 'planning' | 'recording' | 'rendering', fraction: number) => void | Promise<void>,
): Promise<Produced> {
  // Issue 56: recording changes nothing on the customer's site (no submit, no request but a read), unless allowed.
  const guard = await guardSubmits(page, { allowSubmit: request.allowSubmit === true });
  try {
    return await produceGuarded(page, request, planner, report, guard);
  } finally {
    await guard.dispose();
  }
}

async function produceGuarded(
  page: Page,
  request: RecordingRequest,
  planner: Planner,
  report: (step: 'analyzing' | 'planning' | 'recording' | 'rendering', fraction: number) => void | Promise<void>,
  guard: SubmitGuard,
): Promise<Produced> {
  let outline: PageOutline | null = null;
  let snapshot: PageSnapshot | null = null;
  let plan: DemoPlan | null = null;
  let main: OutlineSection | null = null;
  let flowPages: FlowPage[] = [];
  let script: ActionScript;
  let planInput: PlanInput | null = null;
  let language: string | null = null;
  /** Issue 56: the prompt goes to another page, or types into a form: recorded leg by leg (produce-flow.ts). */
  let flowStart: FlowStart | null = null;
  const sameSite = sameSiteAs(request.url);

  // A background image that cannot be fetched fails the demo before any recording is spent on it.
  const background = request.presentation?.background;
  const backgroundImage =
    background && typeof background === 'object' && 'imageUrl' in background && request.loadImage ? await request.loadImage(background.imageUrl) : null;

  if (request.storedScript) {
    // The page as the first recording had it: overlays dismissed, lazy content loaded, back at the top.
    await preparePage(page);
    await assertRecordablePage(page);
    await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, left: 0, behavior: 'instant' }));
    script = request.storedScript;
  } else {
    await report('analyzing', 0);
    const analysis = request.analysis ?? (await analysePage(page));
    // After the analysis: a page that moves itself elsewhere has done so by now.
    if (!request.analysis) await assertRecordablePage(page);
    outline = analysis.outline;
    snapshot = analysis.snapshot;
    await report('planning', 0);
    // The page's language (its <html lang>): the model planner writes the captions in it, the story records it.
    language = pageLanguage(await page.evaluate(() => document.documentElement.lang));
    planInput = {
      prompt: request.prompt,
      outline,
      durationTarget: request.durationTarget,
      template: request.template,
      mode: request.mode,
      pageContext: request.pageContext ?? null,
      language,
    };
    const values = namedValues(request.prompt);
    // What the pages its menu links to say: where a flow goes when no link names what the prompt asks for.
    const linked = request.mode === 'script' ? await readLinkedPages(page, outline, sameSite) : [];
    if (request.mode === 'script' && startsFlow(request.prompt, outline, values, sameSite, linked)) {
      flowStart = {
        outline, language, base: planInput, values, viewport: request.viewport, totalMs: VIDEO_MS[request.durationTarget],
        allowSubmit: request.allowSubmit === true, sameSite, linked,
      };
    }
  }
  if (!request.storedScript && !flowStart && outline && planInput) {
    plan = await planner.plan(planInput);
    const chosen = mainSection(plan, outline);
    main = chosen?.section ?? null;
    // The chapters' and captions' words, in the page's language, stored with the plan for restyles.
    plan = { ...plan, mainShot: chosen?.shot ?? null, story: storyBeats(plan, outline, language, request.prompt) };
    script = compileScript(plan, outline, { url: request.url, viewport: request.viewport });
  } else {
    script = request.storedScript ?? { version: 1, url: request.url, viewport: request.viewport, durationMs: 0, templateId: 'guided-tour', steps: [] };
  }
  const workDir = request.workDir ?? path.dirname(path.resolve(request.outFile));
  // Issue 59: the narration's lines spoken before the recording, and the script given room for them (produce-narration.ts).
  const narration = narrator(request, workDir);
  let voiced: Voiced | null = null;
  const plannedStory = (plan ?? request.storedPlan)?.story ?? null;
  if (narration.on && plannedStory && !flowStart) voiced = await narration.voice(plannedStory);
  // The recording starts where a visitor starts.
  if (!request.storedScript) await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTo({ top: 0, left: 0, behavior: 'instant' }));
  const flowing = flowStart !== null || (request.storedScript !== undefined && isFlow(request.storedScript));

  await report('recording', 0);
  const agent = request.mode === 'agent' && plan !== null;
  let cleanFile = path.join(workDir, 'clean.mkv');
  const viewport = (await page.evaluate('({ width: innerWidth * devicePixelRatio, height: innerHeight * devicePixelRatio })')) as { width: number; height: number };
  const captureSize = captureSizeFor(request.presentation ?? null, request.resolution, viewport);
  // The still layers do not depend on what is recorded: drawn on a page of their own while the recording runs.
  const layersAhead = drawLayersAhead({
    browser: page.browser(),
    presentation: request.presentation ?? null,
    resolution: request.resolution,
    capture: viewport,
    backgroundImage,
    dir: path.join(workDir, 'layers'),
    // Always: a cut added later is made from the window animation's layers (issue 59, capture-kit.ts).
    windowLayers: true,
  });
  // The video's first parts are composed while the page is still being recorded (compose-ahead.ts). Burned-in
  // captions and the end card are drawn in the one pass after it, so not then.
  // Composed ahead is a 16:9 video's: another frame for the video is composed in one pass after the recording.
  let ahead: ComposeAhead | null = request.presentation?.captions?.burnIn || request.presentation?.endCard?.enabled || flowing || (request.aspect ?? '16:9') !== '16:9'
    ? null
    : composeAhead({
        presentation: request.presentation ?? null,
        format: request.format,
        resolution: request.resolution,
        workDir,
        layersAhead,
        smallFrames: `${cleanFile}.small.gray`,
        gifWidth: GIF_WIDTH,
      });
  const takeOnce = takeRecorder({
    page, request, captureSize, planner, agentPlan: agent ? plan : null, live: () => ahead?.watcher ?? null,
    report: (fraction) => void report('recording', fraction),
  });
  let recording: RecordResult;
  let check: TakeCheck | null = null;
  try {
    if (flowStart) {
      // Issue 56: page after page, each planned where the recording finds it (produce-flow.ts).
      const produced = await produceFlow(page, flowStart, planner, (legScript, file, leg) => takeOnce(legScript, file, leg > 0), {
        outFile: cleanFile,
        presentation: request.presentation ?? null,
        resolution: request.resolution,
      });
      ({ recording, script } = produced.flow);
      ({ plan, outline, check } = produced);
      main = produced.mainSection;
      flowPages = produced.pages;
      cleanFile = recording.encode.outFile;
      recording.log.push(...flowEntries(produced.flow.pages, recording));
    } else if (flowing) {
      const replayed = await replayFlow(page, script, (legScript, file, leg) => takeOnce(legScript, file, leg > 0), { outFile: cleanFile, sameSite });
      recording = replayed.recording;
      cleanFile = recording.encode.outFile;
      recording.log.push(...flowEntries(replayed.pages, recording));
    } else {
      recording = await takeOnce(narration.roomFor(script, voiced), cleanFile);
    }
  } catch (error) {
    await ahead?.abort();
    throw error;
  }

  // The service checks its own take, and takes it again when the page's layout was not the one planned for.
  if (outline && plan && planInput && !flowStart) {
    const taken = await checkAndRetake({
      page, request, planner, planInput, outline, plan, script, cleanFile, recording, agent, language, workDir, takeOnce,
      dropAhead: async () => {
        await ahead?.abort();
        ahead = null;
      },
      voice: narration.on ? narration.voice : null,
      roomFor: (takeScript, lines) => narration.roomFor(takeScript, lines),
    });
    ({ outline, plan, script, cleanFile, recording, check } = taken);
    if (taken.main !== undefined) main = taken.main;
    if (taken.voiced) voiced = taken.voiced;
  } else if (check) {
    recording.log.push(takeCheckEntry(check, recording.log.length, recording.durationMs));
  }
  recording.log.push(...submitEntries(guard, recording));

  // Issue 55: each beat not found, said in the recording log too, beside the take's check.
  const warnings = planWarnings(plan ?? request.storedPlan);
  for (const warning of warnings) recording.log.push(notFoundEntry(recording.log.length, warning, recording.durationMs));

  const storyText = (plan ?? request.storedPlan)?.story ?? null;
  const timed = storyText ? timeStory(storyText, recording.timeline) : null;
  const told = await narration.tell(voiced, storyText, timed, recording.durationMs);
  voiced = told.voiced;
  const { story } = told;

  await report('rendering', 0);
  // Issue 57: the end card's words; what the presentation leaves out, from the page (read before compose draws on it).
  // A flow has left the demo's page: the card names the site from the page the demo was made from (its title), not
  // the page it ended on ("Sign in").
  const startTitle = flowPages.length > 1 ? (flowPages[0]!.outline.title ?? '') : null;
  const siteName = startTitle !== null ? nameFrom({ site: '', app: '', title: startTitle, host: new URL(request.url).hostname }) : await pageNameOf(page);
  const endCard = request.presentation?.endCard?.enabled ? resolveEndCard(request.presentation, { name: siteName, url: request.url }) : null;
  const composeOptions: ComposeOptions = {
    cleanFile,
    smallFrames: recording.smallFrames,
    timeline: recording.timeline,
    presentation: request.presentation ?? null,
    format: request.format,
    resolution: request.resolution,
    outFile: request.outFile,
    page,
    layersAhead,
    backgroundImage,
    templateId: script.templateId,
    workDir,
    onProgress: (fraction) => void report('rendering', fraction),
    // Issue 36: captions burned in when the presentation asks (a restyle can turn them on without re-planning).
    captions:
      request.presentation?.captions?.burnIn && story && story.captions.length > 0
        ? {
            captions: story.captions,
            position: request.presentation.captions.position ?? 'bottom',
            style: request.presentation.captions.style ?? 'pill',
            stickyHeaderHeight: storyText?.stickyHeaderHeight ?? 0,
            viewportHeight: recording.timeline.viewport.height,
          }
        : null,
    endCard,
    // The GIF preview as jobs publish it (640 px) and the thumbnail, beside the video where renderOutputs would put them.
    gif: { file: request.outFile.replace(/\.[^./]+$/, '') + '.gif', width: gifWidthFor(request.aspect ?? '16:9', GIF_WIDTH) },
    // The thumbnail is a frame of the main shot (the asked-for section), not of the opening.
    thumbnail: { file: request.outFile.replace(/\.[^./]+$/, '') + '.png', atMs: mainShotMs(recording.timeline, (plan ?? request.storedPlan)?.mainShot) },
    ...(request.aspect ? { aspect: request.aspect } : {}),
    // Issue 59: each variant beside the video (demo-9x16.mp4, .gif, .png), its GIF about as many pixels as the video's.
    variants: aspectVariants(request.presentation, request.aspect).map((aspect) => {
      const files = variantFiles(request.outFile, aspect, GIF_WIDTH);
      return { aspect, ...files, thumbnail: { ...files.thumbnail, atMs: mainShotMs(recording.timeline, (plan ?? request.storedPlan)?.mainShot) } };
    }),
  };
  let composed: ComposeResult;
  try {
    composed = ahead ? await ahead.finish(composeOptions) : await composeVideo(composeOptions);
    // Issue 59: a video composed ahead leaves its aspect variants to be made here, from its layers and the capture.
    const variants = composeOptions.variants ?? [];
    if (composed.variants.length < variants.length) {
      composed = { ...composed, variants: await composeVariants({
        cleanFile, smallFrames: recording.smallFrames, timeline: recording.timeline, presentation: request.presentation ?? null,
        resolution: request.resolution, format: request.format, layers: composed.layers, variants, workDir,
      }) };
    }
  } catch (error) {
    await ahead?.abort();
    throw error;
  }
  if (voiced && story?.narration) await report('rendering', 1);
  await narration.mix(voiced, story, { durationMs: recording.durationMs, videoFile: request.outFile, cuts: composed.variants.map((cut) => cut.outFile), format: request.format });
  return { outline, startOutline: flowStart?.outline ?? outline, flowPages, snapshot, plan, mainSection: main, script, recording, cleanFile, composed, check, story, warnings };
}
