/**
 * `npm run bench:render`: a benchmark, not a test. For a 10 s demo of a local fixture page (by default
 * test/fixtures/sites/glasshouse, a page expensive to paint: photo hero, blurred sticky header, heavy shadows; or
 * BENCH_FIXTURE=<name> under test/fixtures/sites, or a built-in page when that is absent), at 720p and then at
 * 1080p, it runs the pipeline a job runs (record the clean capture, then compose the final video from it) and
 * reports the wall time of each stage:
 *
 *   launch     start Chromium (@sparticuz/chromium, graphics mode off, with the desktop viewport's scale factor) and
 *              open a page with the desktop viewport (frame-controlled, as the browser pool opens job pages; a plain
 *              page with BENCH_CAPTURE=screencast)
 *   load       navigate to the fixture, dismiss its cookie banner, build the action script from the page
 *   record     recordScript (format `capture`) until capture stops: the script's steps while each frame is rendered
 *              and captured on demand (or, with BENCH_CAPTURE=screencast, while the realtime screencast watches); the
 *              JPEGs are copied into a Matroska file as they come (the clean capture, nothing encoded). Meanwhile, as
 *              jobs do, compose's still layers are drawn on a page of their own (layers-ahead.ts)
 *   mux        what writing the clean capture adds after capture has stopped (frames still queued, the muxer
 *              finishing the file)
 *   compose    composeVideo with the default presentation (presentation null: gradient background, macOS window,
 *              automatic zoom, cursor, click effects, fade, window intro): probing the capture and finding its
 *              cuts, the still layers drawn during record (or drawn now on the same page if they do not fit; "layers"
 *              is all of this, as before), then one ffmpeg pass that decodes the capture, composites and encodes the final video,
 *              and writes the GIF preview (palette, 12 fps, 640 px wide, as jobs make it) and the PNG thumbnail
 *              from the same frames
 *   thumbnail  what the thumbnail adds after compose (nothing now: compose writes it; kept so older figures compare)
 *   gif        what the GIF adds after compose (nothing now: compose writes it; kept so older figures compare)
 *   close      closing the browser
 *
 * and, after the pipeline and not in its totals (issue 59), each aspect variant (9:16, then 1:1) composed from the same
 * clean capture and the video's still layers as a job makes it (compose-variant.ts: no browser, its GIF and thumbnail
 * beside it): its wall time and CPU seconds (stages `variant 9:16`, `variant 1:1`; key=values variant_9x16_s,
 * variant_9x16_cpu_s, variant_1x1_s, variant_1x1_cpu_s), beside the 16:9 compose's,
 *
 * and the total, × realtime (total wall time divided by the video's duration: 1.5 means the whole pipeline takes
 * one and a half times the video's length), the smoothness of the composed video (stall_ratio: the share of frames
 * inside motion that repeat the previous picture, exactly as ../shared/tools/smoothness.py measures it, ported in
 * src/pipeline/encode/smoothness.ts; measured after the pipeline, not part of its time), the effective capture rate (screencast frames received per second,
 * before resampling to 30 fps; also while the page is in motion), and peak memory. Each resolution runs in a child
 * process of its own, so its figures are not mixed with the other's. Peak RSS is the highest sum of VmRSS over the
 * child's process tree (node + Chromium's processes + ffmpeg), sampled every 100 ms from /proc — an upper bound,
 * as pages shared between Chromium's processes count once per process — with the peaks of node (maxRSS), of the
 * capture's muxer and of the compositor's ffmpeg (VmHWM) alongside.
 *
 * Then, after the pipeline (not part of its figures, the browser still open), the composite overhead on the same
 * clean capture: (a) the plain encode, one ffmpeg run decoding the capture and encoding it to the output size with
 * exactly the plain render's filter and codec (plainOutputArgs: fit, black padding, x264 veryfast CRF 23 or VP9),
 * against (b) composeVideo with the full default presentation, with the still layers the pipeline drew during
 * record (as a job composes; before issue 39 they were drawn again here, ~1 s of browser time in composite_s). Each runs twice, alternately
 * (a b a b), and the faster run of each counts, as the machine may be shared: plain_s, composite_s and
 * composite_x = composite_s / plain_s. The capture has a click and two hovers, so zoom and click effects are drawn.
 *
 * Which runs: every combination of resolution, length and format, each in a child process of its own. By default
 * 720p and 1080p, 10 s and 30 s, MP4 and WebM (eight runs, with the overhead runs below: a long benchmark); flags
 * (or the environment variables beside them) pick a subset:
 *   --res 1080p            BENCH_RESOLUTIONS   720p | 1080p, comma-separated
 *   --seconds 10,30        BENCH_SECONDS       video length(s), 2–120
 *   --format mp4           BENCH_FORMAT        mp4 | webm, comma-separated
 *   --no-overhead          BENCH_OVERHEAD=0    skip the composite-overhead runs (composite_x is then n/a)
 *   --concurrent 2         BENCH_CONCURRENT    recordings at once: each run starts this many children together (each
 *                                             with its own browser, as the worker's pool gives each job one), and the
 *                                             overhead runs are skipped; default 1
 *   --hog 1                BENCH_HOG           CPU burners (busy loops in processes of their own) running beside the
 *                                             runs; default 1 with --concurrent above 1, else 0
 * e.g. `npm run bench:render -- --res 1080p --seconds 10 --format mp4` for the headline figure alone, and
 * `npm run bench:render -- --concurrent 2 --res 720p --seconds 10 --format mp4` for the recorder under load (issue
 * 58): two recordings at once beside a CPU hog, as a worker with WORKER_CONCURRENCY=2 on two cores is. Its summary
 * line `bench:render concurrent=2 hog=1 …` gives the recordings' skipped and failed steps, the missed pictures (a
 * changed frame captured without its own picture) and restarts of the screencast, the frames rendered behind the wall
 * clock (past the capture's lead, where the page's animations may follow the wall clock instead of the frames), the
 * stall ratio of the clean captures and of the composed videos (the worst of the recordings), the stalls of each
 * within motion (motion on both sides; the measure's window also counts up to three still frames at each edge of a
 * motion, where nothing should move: smoothness.ts), and the wall time and
 * CPU seconds of the whole round: what a customer's video looks like must not depend on what else the worker is doing.
 * Also BENCH_FIXTURE (default glasshouse), BENCH_CAPTURE (frames | screencast, default frames), BENCH_PICTURES (how
 * frame capture takes its pictures: screencast | screenshots, default the recorder's), BENCH_KEEP (a
 * directory: the composed video, the clean capture and the interaction timeline of each run are copied there, for
 * `npm run stall-report`).
 *
 * Cost (bench-cost.ts): CPU seconds of the whole process tree (node, Chromium, every ffmpeg) and its peak summed
 * RSS, by stage — record (launch, load, capture and the clean capture written), compose (layers, cuts, the
 * compositor, and beside it the GIF encoder and the thumbnail: the side outputs), outputs, close — and CPU by kind
 * of process (the side outputs' GIF encoder among them), each also per second of video (cpu_per_s). CPU seconds
 * move far less than wall time on a shared machine; the overhead runs are left out of them. And Chromium's CPU by
 * process and group of threads up to the end of the record stage (the display compositor, which draws each frame in
 * software, is most of it on glasshouse): the part of the cost that is the page's own.
 * Narration (issue 59, bench-narration.ts): after the pipeline, outside its figures, what narrating the composed video
 * adds: each line's audio (a stand-in voice) decoded and trimmed, the track laid, loudness measured and the track
 * muxed with the video copied (narration_s, narration_cpu_s). The stretch that gives lines room is not in it: it makes
 * the video longer where a line needs it, and record and compose cost that much more video.
 * The key=value lines come last, one per run, the 1080p 10 s MP4 run's (the issue's headline) last of all:
 * `bench:render res=1080p seconds=10 format=mp4 total_s=… realtime_x=… stall_ratio=… cpu_s=… cpu_per_s=… …`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../src/pipeline/browser/launch.js';
import { benchNarration, type NarrationCost } from './bench-narration.js';
import { viewportFor } from '../src/pipeline/browser/viewports.js';
import { zoomActions } from '../src/pipeline/compose/shots.js';
import { captureSizeFor, composeVideo } from '../src/pipeline/compose/compose.js';
import { variantFiles } from '../src/pipeline/compose/aspect.js';
import { composeVariants } from '../src/pipeline/compose/compose-variant.js';
import { drawLayersAhead, type LayersAhead } from '../src/pipeline/compose/layers-ahead.js';
import { type AheadReport, composeAhead as startComposeAhead } from '../src/pipeline/compose/compose-ahead.js';
import { ffmpegBinaries } from '../src/pipeline/encode/ffmpeg-binaries.js';
import { openFrameControlledPage } from '../src/pipeline/browser/frame-control.js';
import { probeVideo } from '../src/pipeline/encode/probe.js';
import { measureSmoothness } from '../src/pipeline/encode/smoothness.js';
import { renderOutputs } from '../src/pipeline/encode/render-outputs.js';
import { fileArg, runTool } from '../src/pipeline/encode/run-tool.js';
import { OUTPUT_SIZES, plainOutputArgs, type VideoFormat } from '../src/pipeline/encode/video-encoder.js';
import { recordingCaptureSize } from '../src/pipeline/produce-recording.js';
import { recordScript } from '../src/pipeline/record/recorder.js';
import { type ChromiumThreads, costTracker, type CostReport } from './bench-cost.js';
import type { ActionScript, InteractionTimeline, Resolution, ScriptStep, Target } from '../src/pipeline/types.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtureName = process.env.BENCH_FIXTURE ?? 'glasshouse';
if (!/^[\w-]+$/.test(fixtureName)) throw new Error('BENCH_FIXTURE must be the name of a directory under test/fixtures/sites.');
const FIXTURE_DIR = path.join(root, 'test', 'fixtures', 'sites', fixtureName);
// In a child: the one length and format its parent gave it. In the parent these are lists (see main()).
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const format = (process.env.BENCH_FORMAT ?? 'mp4') as VideoFormat;
const overhead = process.env.BENCH_OVERHEAD !== '0';
const isChild = process.argv.includes('--child');
const captureMode = process.env.BENCH_CAPTURE ?? 'frames';
const keepDir = process.env.BENCH_KEEP ? path.resolve(process.env.BENCH_KEEP) : null;
const composeAhead = process.env.BENCH_AHEAD !== '0';
/** frame capture: how its pictures are taken (RecordOptions.framePictures); the recorder's default when unset */
const framePictures = process.env.BENCH_PICTURES as 'screencast' | 'screenshots' | undefined;
if (framePictures !== undefined && framePictures !== 'screencast' && framePictures !== 'screenshots') throw new Error('BENCH_PICTURES must be screencast or screenshots.');
if (captureMode !== 'frames' && captureMode !== 'screencast') throw new Error('BENCH_CAPTURE must be frames or screencast.');
if (isChild && !(seconds >= 2 && seconds <= 120)) throw new Error('BENCH_SECONDS must be between 2 and 120.');
if (isChild && format !== 'mp4' && format !== 'webm') throw new Error('BENCH_FORMAT must be mp4 or webm.');

interface ChildReport {
  /** issue 59: what narrating the composed video adds (bench-narration.ts), not in total_s or cpu_s */
  narration: NarrationCost;
  resolution: Resolution;
  format: VideoFormat;
  fixture: string;
  stages: Record<'launch' | 'load' | 'record' | 'mux' | 'compose' | 'thumbnail' | 'gif' | 'close', number>;
  /** the compose stage: still layers (browser), then the ffmpeg pass */
  composeLayersS: number;
  /** the still layers drawn during record (layers-ahead.ts): how long that took, and whether compose used them */
  layersAhead: { s: number; used: boolean } | null;
  composeRenderS: number;
  /** composing during the recording (compose-ahead.ts): parts made, kept, frames composed ahead and kept; null when off */
  ahead: AheadReport | null;
  totalS: number;
  videoS: number;
  realtimeX: number;
  /** CPU seconds of the pipeline: the whole process tree (node, Chromium, every ffmpeg), the overhead runs excluded */
  cpuS: number;
  /** by stage (record: launch to the clean capture written; compose: layers, ffmpeg, GIF and thumbnail; close) and by kind of process */
  cost: CostReport;
  /** Chromium's CPU by process and group of threads, from its launch to the end of the record stage */
  chromiumThreads: ChromiumThreads[];
  captureMode: string;
  /** stallsWithinMotion: the stalls with motion on both sides (smoothness.ts), beside the script's figures */
  smoothness: { stallRatio: number; movingFrames: number; stalls: number; stallsWithinMotion: number; longestStallMs: number; distinctFpsMoving: number };
  /** the same measure over the clean capture, before composing */
  cleanSmoothness: { stallRatio: number; movingFrames: number; stalls: number; stallsWithinMotion: number };
  /** frame capture: how pictures were taken, how many, frames without damage, the wall time of each, and pictures no frame accounted for */
  frameCapture: { pictures: string; screenshots: number; probes: number; screenshotS: number; probeS: number; sinkS: number; strayPictures: number; missedPictures: number; screencastRestarts: number; framesBehindWallClock: number } | null;
  captureFps: number;
  motionCaptureFps: number;
  frames: number;
  framesHeld: number;
  maxBacklogFrames: number;
  maxBacklogMb: number;
  frameSize: string;
  viewport: string;
  captureBytes: number;
  timeline: { clicks: number; keystrokes: number; zoomActions: number };
  peakRssMb: number;
  nodeMaxRssMb: number;
  muxerPeakRssMb: number | null;
  composerPeakRssMb: number | null;
  chromePeakRssMb: number;
  failedSteps: number;
  /** steps the recorder skipped for lack of time ("Skipped: …") */
  skippedSteps: number;
  /** the failed steps' errors */
  stepErrors: string[];
  video: { codec: string; width: number; height: number; fps: number | null; durationMs: number | null; bytes: number };
  gifBytes: number;
  composite: CompositeOverhead | null;
  /** issue 59: each aspect variant made afterwards from the same capture (wall time, its ffmpeg pass, frame size) */
  variants: Array<{ aspect: '9:16' | '1:1'; wallS: number; renderS: number; width: number; height: number }>;
}

interface CompositeOverhead {
  /** wall time of each run, in the order run */
  plainRunsS: number[];
  compositeRunsS: number[];
  /** the faster run of each */
  plainS: number;
  compositeS: number;
  /** of the faster composite run */
  compositeLayersS: number;
  compositeRenderS: number;
  compositeX: number;
  /** CPU seconds of the faster run of each (the processes it ran), and their ratio */
  plainCpuS: number;
  compositeCpuS: number;
  compositeCpuX: number;
  /** both outputs' durations, to show they cover the same frames */
  plainDurationMs: number | null;
  compositeDurationMs: number | null;
  wallS: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The fixture page and the script

const BUILT_IN_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Bench page</title><style>
body{margin:0;font:18px/1.5 system-ui,sans-serif;color:#1a1a2e}header{position:sticky;top:0;background:#fff;padding:16px 48px;box-shadow:0 1px 0 #ddd;z-index:2}
section{min-height:760px;padding:64px 48px;box-sizing:border-box}h1{font-size:56px;margin:0 0 24px}h2{font-size:40px}
.hero{background:linear-gradient(135deg,#4f46e5,#06b6d4);color:#fff}.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:24px}
.card{background:#fff;color:#1a1a2e;border-radius:16px;padding:24px;min-height:160px;box-shadow:0 8px 24px rgba(0,0,0,.12)}
#features{background:#f5f7fb}#testimonials{background:#fff7ed}#pricing{background:#eef2ff}#faq{background:#f0fdf4}
.button{display:inline-block;padding:14px 28px;border-radius:10px;background:#111827;color:#fff;text-decoration:none}
</style></head><body><header><strong>Flowboard</strong></header>
<section class="hero"><h1 class="hero__title">Plan, track and ship</h1><a class="button hero__cta" href="#pricing">Start free trial</a></section>
<section id="features"><h2>Features</h2><div class="grid">${'<div class="card">A feature worth showing, with a sentence about it.</div>'.repeat(6)}</div></section>
<section id="testimonials"><h2>Customers</h2><div class="grid">${'<div class="card">“It changed how we ship.” — A customer</div>'.repeat(3)}</div></section>
<section id="pricing"><h2>Pricing</h2><div class="grid"><div class="card">Starter</div><div class="card">Pro <a class="button pricing-tier__cta" href="#faq">Start free trial</a></div><div class="card">Enterprise</div></div></section>
<section id="faq"><h2>FAQ</h2>${'<details class="faq__item"><summary class="faq__question">A question?</summary><p>An answer.</p></details>'.repeat(4)}</section>
</body></html>`;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp', '.woff2': 'font/woff2',
};

/** A static server for the fixture directory (or the built-in page), on 127.0.0.1. */
async function serveFixture(): Promise<{ url: string; name: string; close(): Promise<void> }> {
  const useFixture = existsSync(path.join(FIXTURE_DIR, 'index.html'));
  const server = http.createServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
      if (!useFixture) {
        response.writeHead(pathname === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(pathname === '/' ? BUILT_IN_PAGE : 'not found');
      }
      const file = path.resolve(FIXTURE_DIR, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
      const body = file.startsWith(FIXTURE_DIR + path.sep) ? await fs.readFile(file).catch(() => null) : null;
      if (!body) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end('not found');
      }
      response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    name: useFixture ? `test/fixtures/sites/${fixtureName}` : 'built-in page',
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * A guided tour like the planner's: look at the hero, hover its call to action, scroll through features,
 * customers and pricing, hover the featured plan, scroll to the FAQ and open a question. Timings scale with
 * BENCH_SECONDS; section positions come from the page.
 */
async function buildScript(page: import('puppeteer-core').Page, url: string, durationMs: number): Promise<ActionScript> {
  // No helper functions inside evaluate: tsx's name-keeping would reference a __name the page does not have.
  const [features, testimonials, pricing, faq] = await page.evaluate((selectors: string[]) => {
    const header = document.querySelector('header');
    const sticky = header && getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().height : 0;
    return selectors.map((selector) => {
      const el = document.querySelector(selector);
      return el ? Math.max(0, el.getBoundingClientRect().top + window.scrollY - sticky) : null;
    });
  }, ['#features', '#testimonials', '#pricing', '#faq']);
  const tops = { features, testimonials, pricing, faq };
  const t = (selector: string, fallbacks: string[] = []): Target => ({ label: selector, selector, fallbackSelectors: fallbacks, rect: { x: 0, y: 0, width: 1, height: 1 } });
  const plan: Array<[number, StepBody]> = [
    [0.05, { kind: 'wait', label: 'Opening' }],
    [0.08, { kind: 'move', label: 'The headline', target: t('.hero__title', ['h1']) }],
    [0.09, { kind: 'hover', label: 'The call to action', target: t('.hero__cta', ['main a.button']) }],
    [0.16, { kind: 'scroll', label: 'Features', toY: tops.features ?? 800 }],
    [0.14, { kind: 'scroll', label: 'Customers', toY: tops.testimonials ?? 1600 }],
    [0.14, { kind: 'scroll', label: 'Pricing', toY: tops.pricing ?? 2400 }],
    [0.09, { kind: 'hover', label: 'The featured plan', target: t('a[href="/signup?plan=pro"]', ['.pricing-tier__cta']) }],
    [0.13, { kind: 'scroll', label: 'FAQ', toY: tops.faq ?? 3200 }],
    [0.08, { kind: 'click', label: 'A question', target: t('.faq__item:nth-of-type(2) summary', ['details summary']) }],
    [0.04, { kind: 'wait', label: 'Closing' }],
  ];
  let at = 0;
  const steps = plan.map(([share, step], i) => {
    const startMs = Math.round(at);
    at = i === plan.length - 1 ? durationMs : at + share * durationMs;
    return { ...step, startMs, durationMs: Math.round(at) - startMs } as ScriptStep;
  });
  return { version: 1, url, viewport: 'desktop', durationMs, templateId: 'guided-tour', steps };
}

/** A script step without its timing (Omit distributed over the union). */
type StepBody = ScriptStep extends infer S ? (S extends ScriptStep ? Omit<S, 'startMs' | 'durationMs'> : never) : never;

// ---------------------------------------------------------------------------------------------------------------
// One resolution (child process)

async function benchOne(resolution: Resolution): Promise<ChildReport> {
  const cost = costTracker(100);
  await cost.ready();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-bench-render-'));
  const fixture = await serveFixture();
  const stages = { launch: 0, load: 0, record: 0, mux: 0, compose: 0, thumbnail: 0, gif: 0, close: 0 };
  const t0 = performance.now();
  let mark = t0;
  const lap = () => {
    const now = performance.now();
    const seconds = (now - mark) / 1000;
    mark = now;
    return seconds;
  };
  let browser: Awaited<ReturnType<typeof launchBrowser>> | null = null;
  try {
    // As the browser pool does: the scale factor is the browser's (a launch flag), not emulated per page, so the
    // screencast captures at device pixels; for frame capture it is chosen so the page renders at the size the
    // recording has in the default window (recordingCaptureSize, as jobs ask the pool).
    const viewport = captureMode === 'frames'
      ? viewportFor('desktop', resolution, { frame: recordingCaptureSize(null, resolution, 'desktop') })
      : viewportFor('desktop', resolution);
    browser = await launchBrowser({ deviceScaleFactor: viewport.deviceScaleFactor, allowPrivate: true }); // the fixture is on loopback
    const page = captureMode === 'frames' ? await openFrameControlledPage(browser, null) : await browser.newPage();
    await page.setViewport({ width: viewport.width, height: viewport.height, deviceScaleFactor: 0 });
    stages.launch = lap();

    await page.goto(fixture.url, { waitUntil: 'load', timeout: 30_000 });
    // The analysis stage dismisses overlays before recording; do the same for the fixture's cookie banner.
    const dismissed = await page.evaluate(() => {
      const button = document.querySelector<HTMLElement>('.cookie-banner__accept');
      button?.click();
      return Boolean(button);
    });
    if (dismissed) await new Promise((resolve) => setTimeout(resolve, 500));
    const script = await buildScript(page, fixture.url, Math.round(seconds * 1000));
    stages.load = lap();

    // As a job does (produceRecording): the clean capture first, then the final video composed from it.
    const clean = path.join(work, 'clean.mkv');
    // Captured at the size the recording has in the default window, as produceRecording asks.
    const captureSize = captureSizeFor(null, resolution, {
      width: Math.round(viewport.width * viewport.deviceScaleFactor),
      height: Math.round(viewport.height * viewport.deviceScaleFactor),
    });
    // As produceRecording does: the still layers drawn on a page of their own while the recording runs.
    const devicePixels = (await page.evaluate('({ width: innerWidth * devicePixelRatio, height: innerHeight * devicePixelRatio })')) as { width: number; height: number };
    const layersAhead = drawLayersAhead({ browser, presentation: null, resolution, capture: devicePixels, backgroundImage: null, dir: path.join(work, 'layers') });
    // As produceRecording does: the video's first parts composed while the page is still being recorded.
    const ahead = composeAhead ? startComposeAhead({ presentation: null, format, resolution, workDir: path.join(work, 'pipeline'), layersAhead, smallFrames: `${clean}.small.gray`, gifWidth: 640 }) : null;
    const result = await recordScript(page, script, {
      format: 'capture', resolution, outFile: clean, captureSize, capture: captureMode === 'frames' ? 'frames' : 'screencast', ...(framePictures ? { framePictures } : {}), ...(ahead ? { live: ahead.watcher } : {}),
    });
    const recordAndMux = lap();
    // The muxer copies frames as they come; "mux" is what it adds after capture has stopped.
    stages.mux = result.timings.finishMs / 1000;
    stages.record = recordAndMux - stages.mux;
    await cost.stage('record');
    const chromiumThreads = cost.chromiumThreads();

    const video = path.join(work, `demo.${format}`);
    const composeOptions: Parameters<typeof composeVideo>[0] = {
      cleanFile: clean,
      smallFrames: result.smallFrames,
      timeline: result.timeline,
      presentation: null,
      format,
      resolution,
      outFile: video,
      page,
      layersAhead,
      templateId: script.templateId,
      workDir: path.join(work, 'pipeline'),
      gif: { file: path.join(work, 'demo.gif'), width: 640 }, // as jobs make them
      thumbnail: { file: path.join(work, 'demo.png') },
    };
    const composed = ahead ? await ahead.finish(composeOptions) : { ...(await composeVideo(composeOptions)), ahead: null };
    stages.compose = lap();
    await cost.stage('compose');

    const outputs = await renderOutputs({ videoFile: video, outDir: work, durationMs: composed.durationMs, gifWidth: 640, gif: composed.gif, thumbnail: composed.thumbnail }); // as jobs do
    lap();
    await cost.stage('outputs');
    stages.thumbnail = outputs.timings.thumbnailMs / 1000;
    stages.gif = outputs.timings.gifMs / 1000;

    const nodeMaxRssMb = process.resourceUsage().maxRSS / 1024;

    // Issue 59: each aspect variant, made afterwards from the same capture and the video's layers (no browser, as a
    // job makes it, with its GIF and thumbnail): its own cost stage, not part of the pipeline's totals.
    const variants: ChildReport['variants'] = [];
    for (const aspect of ['9:16', '1:1'] as const) {
      const started = performance.now();
      const [made] = await composeVariants({
        cleanFile: clean, smallFrames: result.smallFrames, timeline: result.timeline, presentation: null, resolution, format, layers: composed.layers,
        variants: [{ aspect, ...variantFiles(path.join(work, `demo.${format}`), aspect, 640), thumbnail: { file: path.join(work, `demo-${aspect.replace(':', 'x')}.png`), atMs: null } }],
        workDir: path.join(work, 'variants'),
      });
      const wallS = (performance.now() - started) / 1000;
      await cost.stage(`variant ${aspect}`);
      variants.push({ aspect, wallS, renderS: made!.timings.renderMs / 1000, width: made!.width, height: made!.height });
    }
    mark = performance.now();

    // Not part of the pipeline's figures: narration's extra (issue 59, bench-narration.ts) and the composite
    // overhead, on the same clean capture and the same page.
    await cost.pause();
    const narration = await benchNarration({ video, format, durationMs: composed.durationMs, work });
    const composite = overhead
      ? await compositeOverhead({ page, clean, smallFrames: result.smallFrames, timeline: result.timeline, resolution, work, templateId: script.templateId, layersAhead })
      : null;
    await cost.resume();
    mark = performance.now();

    await browser.close();
    browser = null;
    stages.close = lap();
    await cost.stage('close');
    const totalS = (performance.now() - t0) / 1000 - (composite?.wallS ?? 0) - narration.wallS - variants.reduce((sum, v) => sum + v.wallS, 0);
    const costs = await cost.stop();
    const cpuS = costs.stages.filter((stage) => !stage.stage.startsWith('variant')).reduce((sum, stage) => sum + stage.cpuS, 0);
    const mem = { peakMb: costs.peakRssMb, chromePeakMb: costs.chromePeakRssMb };
    const [smooth, cleanSmooth] = await Promise.all([measureSmoothness(video), measureSmoothness(clean)]);
    if (keepDir) {
      await fs.mkdir(keepDir, { recursive: true });
      // Recordings made at once (--concurrent) are told apart by their number.
      const copy = Number(process.env.BENCH_COPY ?? 0);
      const name = `bench-${resolution}${seconds === 10 ? '' : `-${seconds}s`}-${captureMode}${copy > 0 ? `-${copy + 1}` : ''}`;
      await fs.copyFile(video, path.join(keepDir, `${name}.${format}`));
      await fs.copyFile(clean, path.join(keepDir, `${name}-clean.mkv`));
      // For `npm run stall-report`: which frames stall, and what the recording and camera did then.
      await fs.writeFile(path.join(keepDir, `${name}-timeline.json`), JSON.stringify(result.timeline));
    }
    const fc = result.frameCapture;

    // Capture rate while the page moves: frames taken during the scroll steps, per second of them.
    const scrolls = result.timeline.steps.filter((s) => s.kind === 'scroll');
    const motionMs = scrolls.reduce((sum, s) => sum + (s.endMs - s.startMs), 0);
    const motionFrames = result.screencast.frameTimesMs.filter((ms) => scrolls.some((s) => ms >= s.startMs && ms <= s.endMs)).length;

    const info = await probeVideo(video);
    return {
      resolution,
      format,
      fixture: fixture.name,
      stages,
      composeLayersS: composed.timings.layersMs / 1000,
      layersAhead: await layersAhead.then((ahead) => (ahead ? { s: ahead.ms / 1000, used: composed.layersDrawnAhead } : null)),
      composeRenderS: composed.timings.renderMs / 1000,
      ahead: composed.ahead,
      totalS,
      videoS: composed.durationMs / 1000,
      realtimeX: totalS / (composed.durationMs / 1000),
      cpuS,
      cost: costs,
      chromiumThreads,
      captureMode: result.captureMode,
      smoothness: {
        stallRatio: smooth.stallRatio, movingFrames: smooth.movingFrames, stalls: smooth.stalls, stallsWithinMotion: smooth.stallsWithinMotion,
        longestStallMs: smooth.longestStallMs, distinctFpsMoving: smooth.distinctFpsMoving,
      },
      cleanSmoothness: { stallRatio: cleanSmooth.stallRatio, movingFrames: cleanSmooth.movingFrames, stalls: cleanSmooth.stalls, stallsWithinMotion: cleanSmooth.stallsWithinMotion },
      frameCapture: fc
        ? { pictures: fc.pictures, screenshots: fc.screenshots, probes: fc.probes, screenshotS: fc.screenshotMs / 1000, probeS: fc.probeMs / 1000, sinkS: fc.sinkMs / 1000, strayPictures: fc.strayPictures, missedPictures: fc.missedPictures, screencastRestarts: fc.screencastRestarts, framesBehindWallClock: fc.framesBehindWallClock }
        : null,
      captureFps: result.captureFps,
      motionCaptureFps: motionMs > 0 ? motionFrames / (motionMs / 1000) : 0,
      frames: composed.frames,
      framesHeld: result.screencast.held ?? composed.frames - (fc?.frameTimesMs.length ?? 0),
      maxBacklogFrames: result.screencast.maxBacklogFrames ?? 0,
      maxBacklogMb: (result.screencast.maxBacklogBytes ?? 0) / 1024 / 1024,
      frameSize: result.screencast.frameSize ? `${result.screencast.frameSize.width}x${result.screencast.frameSize.height}` : 'none',
      viewport: `${result.timeline.viewport.width}x${result.timeline.viewport.height} CSS px at DPR ${result.timeline.viewport.deviceScaleFactor.toFixed(3)}`,
      captureBytes: (await fs.stat(clean)).size,
      timeline: {
        clicks: result.timeline.clicks.length,
        keystrokes: result.timeline.keystrokes.length,
        zoomActions: zoomActions(result.timeline).length,
      },
      // The sampled tree includes node itself; never report less than any single known peak.
      peakRssMb: Math.max(mem.peakMb, nodeMaxRssMb),
      nodeMaxRssMb,
      muxerPeakRssMb: result.encode.peakRssBytes === null ? null : result.encode.peakRssBytes / 1024 / 1024,
      composerPeakRssMb: composed.peakRssBytes === null ? null : composed.peakRssBytes / 1024 / 1024,
      chromePeakRssMb: mem.chromePeakMb,
      failedSteps: result.log.filter((e) => !e.ok).length,
      skippedSteps: result.log.filter((e) => !e.ok && /^Skipped/.test(e.error ?? '')).length,
      stepErrors: result.log.filter((e) => !e.ok).map((e) => `${e.index} ${e.action}: ${e.error ?? ''}`),
      video: { codec: info.codec, width: info.width, height: info.height, fps: info.fps, durationMs: info.durationMs, bytes: (await fs.stat(video)).size },
      gifBytes: (await fs.stat(outputs.gif)).size,
      composite,
      narration,
      variants,
    };
  } finally {
    await browser?.close().catch(() => undefined);
    await fixture.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

/**
 * The composite overhead on one clean capture: (a) the plain encode — one ffmpeg run, the capture decoded and
 * encoded with the plain render's output arguments — against (b) composeVideo with the default presentation,
 * with the layers drawn during record. Run a b a b; the faster of each counts. Also the CPU of each (the ffmpeg
 * runs node reaps: every process either run starts), whose ratio moves far less with other people's load.
 */
async function compositeOverhead(options: {
  page: import('puppeteer-core').Page;
  clean: string;
  timeline: InteractionTimeline;
  resolution: Resolution;
  work: string;
  templateId: string;
  /** the still layers the pipeline drew during record: jobs compose with them, so the overhead is measured so too */
  layersAhead: Promise<LayersAhead | null>;
  /** and the small frames the muxer wrote for cut detection, as a job's compose reads them */
  smallFrames: string | null;
}): Promise<CompositeOverhead> {
  const started = performance.now();
  const { ffmpeg } = await ffmpegBinaries();
  const size = OUTPUT_SIZES[options.resolution];
  const plainRuns: Array<{ s: number; cpuS: number; file: string }> = [];
  const compositeRuns: Array<{ s: number; cpuS: number; file: string; layersS: number; renderS: number }> = [];
  for (let run = 1; run <= 2; run++) {
    const plainFile = path.join(options.work, `plain-${run}.${format}`);
    let at = performance.now();
    let cpuAt = await reapedCpuSeconds();
    const plain = await runTool(
      ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', fileArg(options.clean), ...plainOutputArgs({ format, ...size, fps: 30, outFile: plainFile })],
      600_000,
    );
    if (plain.exitCode !== 0) throw new Error(`The plain encode failed (exit ${plain.exitCode}): ${plain.stderr}`);
    plainRuns.push({ s: (performance.now() - at) / 1000, cpuS: (await reapedCpuSeconds()) - cpuAt, file: plainFile });

    const compositeFile = path.join(options.work, `composite-${run}.${format}`);
    at = performance.now();
    cpuAt = await reapedCpuSeconds();
    const composed = await composeVideo({
      cleanFile: options.clean,
      smallFrames: options.smallFrames,
      timeline: options.timeline,
      presentation: null,
      format,
      resolution: options.resolution,
      outFile: compositeFile,
      page: options.page,
      layersAhead: options.layersAhead,
      templateId: options.templateId,
      workDir: path.join(options.work, `composite-${run}`),
    });
    compositeRuns.push({
      s: (performance.now() - at) / 1000,
      cpuS: (await reapedCpuSeconds()) - cpuAt,
      file: compositeFile,
      layersS: composed.timings.layersMs / 1000,
      renderS: composed.timings.renderMs / 1000,
    });
  }
  const bestPlain = plainRuns.reduce((a, b) => (b.s < a.s ? b : a));
  const bestComposite = compositeRuns.reduce((a, b) => (b.s < a.s ? b : a));
  const [plainInfo, compositeInfo] = await Promise.all([probeVideo(bestPlain.file), probeVideo(bestComposite.file)]);
  return {
    plainRunsS: plainRuns.map((r) => r.s),
    compositeRunsS: compositeRuns.map((r) => r.s),
    plainS: bestPlain.s,
    compositeS: bestComposite.s,
    compositeLayersS: bestComposite.layersS,
    compositeRenderS: bestComposite.renderS,
    compositeX: bestComposite.s / bestPlain.s,
    plainCpuS: bestPlain.cpuS,
    compositeCpuS: bestComposite.cpuS,
    compositeCpuX: bestComposite.cpuS / bestPlain.cpuS,
    plainDurationMs: plainInfo.durationMs,
    compositeDurationMs: compositeInfo.durationMs,
    wallS: (performance.now() - started) / 1000,
  };
}

/** CPU seconds of the children this process has reaped (cutime + cstime): the ffmpeg runs, once they exit. */
async function reapedCpuSeconds(): Promise<number> {
  const stat = await fs.readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

// ---------------------------------------------------------------------------------------------------------------
// Parent: one child per resolution, then the report

interface Run {
  resolution: Resolution;
  seconds: number;
  format: VideoFormat;
}

function runChild(run: Run, noOverhead: boolean, copy = 0): Promise<ChildReport> {
  const { resolution } = run;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--child', resolution], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_SECONDS: String(run.seconds), BENCH_FORMAT: run.format, BENCH_OVERHEAD: noOverhead ? '0' : '1', BENCH_COPY: String(copy) },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`The ${resolution} ${run.seconds} s ${run.format} run failed (exit ${code}).\n${out}`));
      resolve({ ...(JSON.parse(line) as ChildReport), format: run.format });
    });
  });
}

const f = (n: number, digits = 2) => n.toFixed(digits);

function describeReport(r: ChildReport): string[] {
  const s = r.stages;
  const c = r.composite;
  const mb = (n: number | null) => (n === null ? 'n/a' : `${f(n, 0)} MB`);
  const ms = (n: number | null) => (n === null ? '?' : f(n / 1000, 2));
  return [
    `${r.resolution} ${f(r.videoS, 0)} s ${r.format}: ${r.video.codec} ${r.video.width}x${r.video.height} @ ${r.video.fps} fps, ${f(r.videoS, 1)} s video (${r.frames} frames, ${r.framesHeld} held), ` +
      `${(r.video.bytes / 1e6).toFixed(2)} MB; GIF ${(r.gifBytes / 1e6).toFixed(2)} MB; fixture ${r.fixture}; ${r.failedSteps} failed step(s), ${r.skippedSteps} skipped` +
      r.stepErrors.map((e) => `\n    step ${e}`).join(''),
    `  stages (s): launch ${f(s.launch)}  load ${f(s.load)}  record ${f(s.record)} (capture)  mux ${f(s.mux)} (after capture)  ` +
      `compose ${f(s.compose)} (layers ${f(r.composeLayersS)}${r.layersAhead ? ` [drawn during record in ${f(r.layersAhead.s)}${r.layersAhead.used ? '' : ', NOT USED'}]` : ''} + ffmpeg ${f(r.composeRenderS)})${r.ahead ? ` [composed during record: ${r.ahead.framesAhead} of ${r.frames} frames, ${r.ahead.kept} of ${r.ahead.parts} part(s) kept (${r.ahead.ranges.map((p) => `${p.from}-${p.to}${p.kept ? '' : ' redone'}`).join(', ')}); after record: ${r.ahead.rest.map((p) => `${p.from}-${p.to}${p.fromMemory ? '' : ' (from the file)'}`).join(' beside ') || 'nothing'}${r.ahead.fallback ? `; one pass: ${r.ahead.fallback}` : ''}]` : ''}  thumbnail ${f(s.thumbnail)}  gif ${f(s.gif)}  close ${f(s.close)}`,
    `  total ${f(r.totalS)} s = ${f(r.realtimeX)}× realtime (wall time / video duration); ${f(r.cpuS, 1)} CPU seconds (process tree) = ${f(r.cpuS / r.videoS)} per second of video`,
    `  viewport ${r.viewport}; screencast frames ${r.frameSize}; clean capture ${(r.captureBytes / 1e6).toFixed(2)} MB (MJPEG in Matroska); ` +
      `timeline ${r.timeline.clicks} click(s), ${r.timeline.keystrokes} keystroke(s), ${r.timeline.zoomActions} zoom action(s)` +
      (r.timeline.clicks === 0 || r.timeline.zoomActions === 0 ? ' — WARNING: no click or zoom, the composite is not fully exercised' : ''),
    r.frameCapture
      ? `  capture: frames on demand, ${f(r.captureFps, 1)} distinct pictures per second of video, ${f(r.motionCaptureFps, 1)} while scrolling; ` +
        `pictures by ${r.frameCapture.pictures}: ${r.frameCapture.screenshots} (${f(r.frameCapture.screenshotS)} s), ${r.frameCapture.probes} frames without damage (${f(r.frameCapture.probeS)} s), ` +
        `writing ${f(r.frameCapture.sinkS)} s, ${r.frameCapture.strayPictures} stray, ${r.frameCapture.missedPictures} missed picture(s), ${r.frameCapture.screencastRestarts} restart(s) of the screencast, ` +
        `${r.frameCapture.framesBehindWallClock} frame(s) behind the wall clock`
      : `  capture: screencast ${f(r.captureFps, 1)} fps overall before resampling to 30, ${f(r.motionCaptureFps, 1)} fps while scrolling; ` +
        `muxer backlog peak ${r.maxBacklogFrames} frames (${f(r.maxBacklogMb, 1)} MB of distinct JPEGs)`,
    `  smoothness (as smoothness.py): stall_ratio ${f(r.smoothness.stallRatio, 3)} (${r.smoothness.stalls} of ${r.smoothness.movingFrames} moving frames), ` +
      `longest stall ${r.smoothness.longestStallMs} ms, ${f(r.smoothness.distinctFpsMoving, 1)} distinct fps while moving; ` +
      `clean capture ${f(r.cleanSmoothness.stallRatio, 3)} (${r.cleanSmoothness.stalls} of ${r.cleanSmoothness.movingFrames}); ` +
      `within motion (motion on both sides, not a motion's still edge): ${r.smoothness.stallsWithinMotion}, clean ${r.cleanSmoothness.stallsWithinMotion}`,
    `  peak RSS ${f(r.peakRssMb, 0)} MB (process tree: node + Chromium + ffmpeg, summed VmRSS); node ${f(r.nodeMaxRssMb, 0)} MB, ` +
      `Chromium ${f(r.chromePeakRssMb, 0)} MB, ffmpeg muxer ${mb(r.muxerPeakRssMb)}, compositor ${mb(r.composerPeakRssMb)}`,
    describeCost(r),
    `  narration (not in the total: a stand-in voice, ${r.narration.lines} line(s) decoded, laid, measured and muxed): ${f(r.narration.wallS)} s wall (+${f((r.narration.wallS / r.totalS) * 100, 1)}% of the total), ` +
      `${f(r.narration.cpuS, 1)} CPU-s (+${f((r.narration.cpuS / r.cpuS) * 100, 1)}%); the stretch for the lines lengthens the video where they need it`,
    `  aspect variants (issue 59, after the pipeline from the same capture, no browser; not in the totals): ` +
      r.variants.map((v) => `${v.aspect} ${v.width}x${v.height} ${f(v.wallS)} s wall (ffmpeg ${f(v.renderS)}), ${f(stageCost(r, `variant ${v.aspect}`).cpuS, 1)} CPU-s`).join('; ') +
      ` (the 16:9 compose: ${f(s.compose)} s wall, ${f(stageCost(r, 'compose').cpuS, 1)} CPU-s)`,
    c
      ? `  composite overhead (same clean capture, a b a b, faster of each): plain encode ${f(c.plainS)} s (runs ${c.plainRunsS.map((x) => f(x)).join(', ')}; ` +
        `${ms(c.plainDurationMs)} s out), default presentation ${f(c.compositeS)} s (runs ${c.compositeRunsS.map((x) => f(x)).join(', ')}; ` +
        `layers ${f(c.compositeLayersS)} + ffmpeg ${f(c.compositeRenderS)}; ${ms(c.compositeDurationMs)} s out) → ${f(c.compositeX)}× the plain encode; ` +
        `CPU ${f(c.plainCpuS)} s plain, ${f(c.compositeCpuS)} s composite → ${f(c.compositeCpuX)}×`
      : '  composite overhead: not measured (--no-overhead)',
  ];
}

/** CPU seconds and peak RSS per stage, and CPU by kind of process, each also per second of video. */
function describeCost(r: ChildReport): string {
  const perS = (cpu: number) => f(cpu / r.videoS);
  const stages = r.cost.stages
    .map((st) => {
      const kinds = Object.entries(st.byKind).filter(([, cpu]) => cpu >= 0.05).map(([kind, cpu]) => `${kind} ${f(cpu, 1)}`).join(', ');
      return `${st.stage} ${f(st.cpuS, 1)} CPU-s (${perS(st.cpuS)}/video-s, wall ${f(st.wallS)} s, peak ${f(st.peakRssMb, 0)} MB; ${kinds})`;
    })
    .join('; ');
  const kinds = Object.entries(r.cost.byKind).map(([kind, cpu]) => `${kind} ${f(cpu, 1)}`).join(', ');
  const threads = r.chromiumThreads
    .map(({ process, byGroup }) => [process, Object.entries(byGroup).filter(([, cpu]) => cpu >= 0.05).sort((a, b) => b[1] - a[1])] as const)
    .filter(([, groups]) => groups.length > 0)
    .map(([process, groups]) => `${process}: ${groups.map(([group, cpu]) => `${group} ${f(cpu, 1)}`).join(', ')}`)
    .join('; ');
  return `  cost by stage: ${stages}\n  CPU-s by process: ${kinds} (side outputs: the GIF encoder ${perS(r.cost.byKind.gif)}/video-s; the thumbnail is a branch of the compositor)` +
    `\n  Chromium's CPU-s by thread, launch to the end of record: ${threads || 'n/a'}`;
}

function stageCost(r: ChildReport, name: string) {
  return r.cost.stages.find((st) => st.stage === name) ?? { stage: name, wallS: 0, cpuS: 0, peakRssMb: 0 };
}

function keyValues(r: ChildReport): string {
  const s = r.stages;
  const record = stageCost(r, 'record');
  const compose = stageCost(r, 'compose');
  return [
    `bench:render res=${r.resolution}`,
    `seconds=${f(r.videoS, 0)}`,
    `format=${r.format}`,
    `total_s=${f(r.totalS)}`,
    `realtime_x=${f(r.realtimeX)}`,
    `stall_ratio=${f(r.smoothness.stallRatio, 3)}`,
    `cpu_s=${f(r.cpuS, 1)}`,
    `cpu_per_s=${f(r.cpuS / r.videoS)}`,
    `record_cpu_s=${f(record.cpuS, 1)}`,
    `compose_cpu_s=${f(compose.cpuS, 1)}`,
    `compositor_cpu_s=${f(r.cost.byKind.compositor, 1)}`,
    `gif_cpu_s=${f(r.cost.byKind.gif, 1)}`,
    `record_rss_mb=${f(record.peakRssMb, 0)}`,
    `compose_rss_mb=${f(compose.peakRssMb, 0)}`,
    `capture=${r.captureMode}`,
    `ahead_frames=${r.ahead ? r.ahead.framesAhead : 'off'}`,
    `capture_fps=${f(r.captureFps, 1)}`,
    `peak_rss_mb=${f(r.peakRssMb, 0)}`,
    `composite_x=${r.composite ? f(r.composite.compositeX) : 'n/a'}`,
    `plain_s=${r.composite ? f(r.composite.plainS) : 'n/a'}`,
    `composite_s=${r.composite ? f(r.composite.compositeS) : 'n/a'}`,
    `composite_cpu_x=${r.composite ? f(r.composite.compositeCpuX) : 'n/a'}`,
    `capture_fps_motion=${f(r.motionCaptureFps, 1)}`,
    `launch_s=${f(s.launch)}`,
    `load_s=${f(s.load)}`,
    `record_s=${f(s.record)}`,
    `mux_s=${f(s.mux)}`,
    `compose_s=${f(s.compose)}`,
    `thumbnail_s=${f(s.thumbnail)}`,
    `gif_s=${f(s.gif)}`,
    `close_s=${f(s.close)}`,
    `video_s=${f(r.videoS)}`,
    `narration_s=${f(r.narration.wallS)}`,
    `narration_cpu_s=${f(r.narration.cpuS, 1)}`,
    ...r.variants.flatMap((v) => [`variant_${v.aspect.replace(':', 'x')}_s=${f(v.wallS)}`, `variant_${v.aspect.replace(':', 'x')}_cpu_s=${f(stageCost(r, `variant ${v.aspect}`).cpuS, 1)}`]),
  ].join(' ');
}

async function main(): Promise<void> {
  const childIndex = process.argv.indexOf('--child');
  if (childIndex >= 0) {
    const resolution = process.argv[childIndex + 1] as Resolution;
    const report = await benchOne(resolution);
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  const { values } = parseArgs({
    options: {
      res: { type: 'string' },
      seconds: { type: 'string' },
      format: { type: 'string' },
      'no-overhead': { type: 'boolean' },
      concurrent: { type: 'string' },
      hog: { type: 'string' },
    },
  });
  const list = (flag: string | undefined, env: string | undefined, fallback: string) => (flag ?? env ?? fallback).split(',').map((v) => v.trim()).filter(Boolean);
  const resolutions = list(values.res, process.env.BENCH_RESOLUTIONS, '720p,1080p') as Resolution[];
  const lengths = list(values.seconds, process.env.BENCH_SECONDS, '10,30').map(Number);
  const formats = list(values.format, process.env.BENCH_FORMAT, 'mp4,webm') as VideoFormat[];
  const concurrent = Number(values.concurrent ?? process.env.BENCH_CONCURRENT ?? 1);
  const hogs = Number(values.hog ?? process.env.BENCH_HOG ?? (concurrent > 1 ? 1 : 0));
  if (!(Number.isInteger(concurrent) && concurrent >= 1 && concurrent <= 8)) throw new Error('--concurrent must be a whole number from 1 to 8.');
  if (!(Number.isInteger(hogs) && hogs >= 0 && hogs <= 8)) throw new Error('--hog must be a whole number from 0 to 8.');
  // Overhead runs time two encodes against each other: meaningless beside other recordings.
  const noOverhead = values['no-overhead'] === true || process.env.BENCH_OVERHEAD === '0' || concurrent > 1;
  for (const r of resolutions) if (r !== '720p' && r !== '1080p') throw new Error(`Unknown resolution ${r}.`);
  for (const n of lengths) if (!(n >= 2 && n <= 120)) throw new Error(`A video length must be between 2 and 120 s, not ${n}.`);
  for (const v of formats) if (v !== 'mp4' && v !== 'webm') throw new Error(`Unknown format ${v}.`);
  const runs: Run[] = [];
  for (const fmt of formats) for (const n of lengths) for (const resolution of resolutions) runs.push({ resolution, seconds: n, format: fmt });
  // The headline run (1080p, 10 s, MP4) last, so the last line is the figure the issue quotes.
  const headline = (run: Run) => run.resolution === '1080p' && run.seconds === 10 && run.format === 'mp4';
  runs.sort((a, b) => Number(headline(a)) - Number(headline(b)));
  const probe = await machineProbe();
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(
    `bench:render — ${fixtureName}: ${runs.length} run(s) (${resolutions.join(', ')} × ${lengths.join(', ')} s × ${formats.join(', ')}), capture ${captureMode}` +
      `${concurrent > 1 ? `, ${concurrent} recordings at once` : ''}${hogs > 0 ? ` beside ${hogs} CPU hog(s)` : ''}` +
      `${noOverhead ? ', no overhead runs' : ''}; ${os.availableParallelism()} cores, load average ${load}, node ${process.version}`,
  );
  console.log(`machine probe: ${f(probe)} s for a fixed one-thread x264 encode (1080p test pattern, 60 frames, fastest of three); lower is a faster machine, so runs from different hours can be compared`);
  const reports: ChildReport[] = [];
  const rounds: string[] = [];
  const burners = startCpuHogs(hogs);
  try {
    for (const run of runs) {
      const started = performance.now();
      const together = await Promise.all(Array.from({ length: concurrent }, (_, k) => runChild(run, noOverhead, k)));
      const wallS = (performance.now() - started) / 1000;
      for (const [k, report] of together.entries()) {
        reports.push(report);
        if (concurrent > 1) console.log(`recording ${k + 1} of ${concurrent}:`);
        for (const line of describeReport(report)) console.log(line);
      }
      if (concurrent > 1 || hogs > 0) rounds.push(roundSummary(run, together, { concurrent, hogs, wallS }));
    }
  } finally {
    burners.stop();
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const report of reports) console.log(`${keyValues(report)} probe_s=${f(probe)}`);
  for (const round of rounds) console.log(`${round} probe_s=${f(probe)}`);
}

/**
 * One round of recordings made at once (--concurrent, beside --hog burners): whether any of them lost something to
 * the load. Skipped steps, failed steps, missed pictures and the stall ratio are the worst or the sum over the
 * recordings; wall_s is the round's, and realtime_x its wall time over one video's length.
 */
function roundSummary(run: Run, reports: ChildReport[], { concurrent, hogs, wallS }: { concurrent: number; hogs: number; wallS: number }): string {
  const sum = (pick: (r: ChildReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
  const max = (pick: (r: ChildReport) => number) => Math.max(...reports.map(pick));
  return [
    `bench:render concurrent=${concurrent}`,
    `hog=${hogs}`,
    `res=${run.resolution}`,
    `seconds=${run.seconds}`,
    `format=${run.format}`,
    `capture=${reports[0]?.captureMode ?? captureMode}`,
    `skipped_steps=${sum((r) => r.skippedSteps)}`,
    `failed_steps=${sum((r) => r.failedSteps)}`,
    `missed_pictures=${sum((r) => r.frameCapture?.missedPictures ?? 0)}`,
    `screencast_restarts=${sum((r) => r.frameCapture?.screencastRestarts ?? 0)}`,
    // frames past the capture's lead: the page's animations may have followed the wall clock (frame-capture.ts)
    `behind_wall_clock=${sum((r) => r.frameCapture?.framesBehindWallClock ?? 0)}`,
    `clean_stalls=${sum((r) => r.cleanSmoothness.stalls)}`,
    `clean_stall_ratio_max=${f(max((r) => r.cleanSmoothness.stallRatio), 3)}`,
    `stall_ratio_max=${f(max((r) => r.smoothness.stallRatio), 3)}`,
    // the stalls above with motion on both sides: a repeat while the page or camera moves, not a motion's still edge
    `clean_stalls_within_motion=${sum((r) => r.cleanSmoothness.stallsWithinMotion)}`,
    `stalls_within_motion=${sum((r) => r.smoothness.stallsWithinMotion)}`,
    `wall_s=${f(wallS)}`,
    `realtime_x=${f(wallS / run.seconds)}`,
    `cpu_s=${f(sum((r) => r.cpuS))}`,
  ].join(' ');
}

/** `count` processes that each keep a core busy until stopped (by their own pids). */
function startCpuHogs(count: number): { stop(): void } {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) { Math.sqrt(Math.random()); }'], { stdio: 'ignore' }),
  );
  return {
    stop() {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * This machine's speed at the moment, as the wall time of a fixed single-threaded x264 encode: the shared machine
 * the bench runs on drifts by 10-15 % over hours, more than most changes it measures. One thread, so the figure is
 * the core's speed and not how busy the other one is; the fastest of three, so a moment's interruption does not count.
 */
async function machineProbe(): Promise<number> {
  const { ffmpeg } = await ffmpegBinaries();
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostdin', '-threads', '1', '-filter_threads', '1',
    '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-frames:v', '60',
    '-c:v', 'libx264', '-preset', 'veryfast', '-threads', '1', '-f', 'null', '-',
  ];
  let fastest = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const result = await runTool(ffmpeg, args, 60_000);
    if (result.exitCode !== 0) throw new Error(`The machine probe failed: ${result.stderr}`);
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
