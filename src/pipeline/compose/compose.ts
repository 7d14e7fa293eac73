import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'puppeteer-core';
import type { Presentation } from '../../demos/presentation.js';
import type { DerivedGif, DerivedThumbnail } from '../encode/derive.js';
import { labelFont } from '../encode/label-font.js';
import { probeVideo } from '../encode/probe.js';
import { FfmpegError } from '../encode/run-tool.js';
import { OUTPUT_SIZES, paletteSamplesFile, type VideoFormat } from '../encode/video-encoder.js';
import type { InteractionTimeline, Resolution } from '../types.js';
import { type Camera, createCamera, FPS } from './camera.js';
import { planCompose } from './compose-plan.js';
import { findCuts } from './cuts.js';
import type { HudText } from './filter-graph.js';
import { renderLayers } from './layers.js';
import { type LayersAhead, usableLayers } from './layers-ahead.js';
import { computeLayout, type Layout } from './layout.js';
import { renderRange, safePath } from './render-range.js';
import { sideOutputs } from './side-outputs.js';
import { makeGifPalette } from './gif-palette.js';
import { resolveStyle, type Style } from './style.js';
import { type CaptionBurnIn, renderCaptionImages } from './caption-layer.js';
import { captionsClearAt, endCardTiming, type EndCardText, renderEndCardImage } from './end-card.js';
import { type Aspect, ASPECTS, aspectSlug, frameSize } from './aspect.js';
import { renderVariant, type VariantRequest, type VariantResult, type VariantSource } from './compose-variant.js';
import type { LayerFiles } from './layers.js';
import { restingMs } from './main-shot.js';

export { restingMs } from './main-shot.js';

/**
 * The compose stage: clean capture + interaction timeline + presentation → the final video, in one encode pass.
 * The still layers are drawn by the browser (`page`, any page: its content is replaced), everything per frame by
 * one ffmpeg process (see filter-graph.ts); click effects are drawn here and streamed to it on stdin.
 */
export interface ComposeOptions {
  cleanFile: string;
  timeline: InteractionTimeline;
  presentation: Presentation | null;
  format: VideoFormat;
  resolution: Resolution;
  outFile: string;
  /** a browser page to draw the still layers with */
  page: Page;
  /**
   * The still layers, drawn while the recording ran (layers-ahead.ts): used when they fit this render, with the same
   * presentation and background image; otherwise the layers are drawn on `page`.
   */
  layersAhead?: Promise<LayersAhead | null>;
  /** fetches a background image (through the SSRF guard); required for image backgrounds */
  loadImage?: (url: string) => Promise<BackgroundBytes>;
  /** the background image, already fetched (then loadImage is not called) */
  backgroundImage?: BackgroundBytes | null;
  /** shown by the debug HUD */
  templateId?: string | null;
  /**
   * The capture's frames at 160×90 grey, written while it was captured (RecordResult.smallFrames): cut detection
   * reads them instead of decoding the capture again; absent or unreadable, it decodes as before.
   */
  smallFrames?: string | null;
  /** scratch directory for layers and command files (removed by the caller) */
  workDir: string;
  onProgress?(fraction: number): void;
  /** hard limit for ffmpeg; default 10 minutes */
  timeoutMs?: number;
  /**
   * Also write the GIF preview (deriveGif's filters and defaults: 12 fps, the first 10 s), as a second output of
   * the same pass: made from the frames before they are encoded, it costs no decode of the finished video and no
   * ffmpeg run of its own (about 1.5–2 s less than deriving it afterwards at 1080p).
   */
  gif?: { file: string; width: number; fps?: number; maxSeconds?: number };
  /**
   * Also write the PNG thumbnail (deriveThumbnail's size), a third output of the same pass (side-outputs.ts): the
   * frame at `atMs` (the main shot), kept clear of the window's rise-in and fall-away, else deriveThumbnail's frame.
   */
  thumbnail?: { file: string; maxWidth?: number; atMs?: number | null };
  /** Captions to burn in (issue 36, presentation.captions.burnIn); drawn on `page` once, overlaid while each shows. */
  captions?: CaptionBurnIn | null;
  /** The end card's words (issue 57, presentation.endCard, end-card.ts); drawn on `page` once, faded in at the end. */
  endCard?: EndCardText | null;
  /**
   * Issue 59: the frame of `outFile` (and its GIF and thumbnail); default 16:9, the compositor as it always was. Any
   * other is composed as an aspect variant (compose-variant.ts) from the 16:9 layers, its captions drawn for its frame.
   */
  aspect?: Aspect;
  /** Issue 59: more frames of the same capture, each composed after the video from the same layers (no browser). */
  variants?: VariantRequest[];
}

export interface BackgroundBytes {
  bytes: Buffer;
  type: 'png' | 'jpeg' | 'webp';
}

export interface ComposeResult {
  outFile: string;
  frames: number;
  durationMs: number;
  /** layersMs: drawing the still layers, or waiting for those drawn ahead (layersAhead) */
  timings: { layersMs: number; renderMs: number };
  /** whether the layers drawn ahead were used */
  layersDrawnAhead: boolean;
  /** ffmpeg's peak resident memory (VmHWM), or null */
  peakRssBytes: number | null;
  /** the GIF preview, when asked for */
  gif: (DerivedGif & { file: string }) | null;
  /** the thumbnail, when asked for */
  thumbnail: (DerivedThumbnail & { file: string }) | null;
  /** the aspect variants asked for (options.variants), in order */
  variants: VariantResult[];
  /** the still layers the video was drawn with (files in workDir): what later variants of this capture are made from */
  layers: LayerFiles;
  /** Issue 59: the end card drawn for each frame (presentation.endCard), kept with the capture for later cuts */
  endCards?: Partial<Record<Aspect, string>>;
}

/**
 * The size the recording will be drawn at in the window, for a capture of `frame` pixels (the viewport times its
 * scale factor): what the recorder should capture so that compose places frames without scaling them.
 */
export function captureSizeFor(presentation: Presentation | null, resolution: Resolution, frame: { width: number; height: number }): { width: number; height: number } {
  const output = OUTPUT_SIZES[resolution];
  const fitted = Math.min(1, output.width / frame.width, output.height / frame.height);
  const capture = { width: Math.round(frame.width * fitted), height: Math.round(frame.height * fitted) };
  const { content } = computeLayout(output, capture, resolveStyle(presentation));
  return { width: content.width, height: content.height };
}

export async function composeVideo(options: ComposeOptions): Promise<ComposeResult> {
  const started = performance.now();
  const style = resolveStyle(options.presentation);
  const output = OUTPUT_SIZES[options.resolution];
  const info = await probeVideo(options.cleanFile);
  const durationMs = options.timeline.durationMs > 0 ? options.timeline.durationMs : (info.durationMs ?? 0);
  if (!(durationMs > 0)) throw new FfmpegError('The capture has no duration.', null, '');
  const layout = computeLayout(output, { width: info.width, height: info.height }, style);
  const dir = path.join(options.workDir, 'compose');
  await fs.mkdir(dir, { recursive: true });

  const foundCuts = await findCuts(options.cleanFile, info.codec, options.smallFrames);
  const backgroundImage =
    style.background.kind !== 'image' ? null : (options.backgroundImage ?? (options.loadImage ? await options.loadImage(style.background.imageUrl) : null));
  // A variant is made from the window animation's layers (variant-layers.ts): always drawn, since a cut may be added
  // later from the layers kept with the capture (issue 59). Only an intro or outro draws the video with them.
  const mainAspect = options.aspect ?? '16:9';
  const variants = options.variants ?? [];
  const animated = true;
  const drawnAhead = usableLayers(options.layersAhead ? await options.layersAhead : null, layout, animated);
  const layers = drawnAhead ?? (await renderLayers({ page: options.page, layout, style, dir, animated, backgroundImage }));
  const hud = style.debugHud ? await hudText(dir, options.timeline, options.templateId ?? null) : null;
  // Issue 57/59: the end card laid out for each frame, the cuts' too (and kept with the capture for a cut made later).
  const endCards = options.endCard ? await drawEndCards(options.page, options.endCard, style, options.resolution, path.join(dir, 'end-card')) : null;
  const source: VariantSource = {
    cleanFile: options.cleanFile, capture: { width: info.width, height: info.height, pixelFormat: info.pixelFormat }, codec: info.codec,
    smallFrames: options.smallFrames ?? null, timeline: options.timeline,
    style, durationMs, cuts: foundCuts, layers, layout, resolution: options.resolution, format: options.format, hud, workDir: dir,
    timeoutMs: options.timeoutMs ?? 600_000,
    ...(endCards ? { endCards } : {}),
    // The captions of each variant, drawn for its frame on the same page as the video's.
    ...(options.captions ? { captionsFor: async (camera, frame, captionDir) => drawCaptions(options.page, options.captions!, frame, camera, captionDir) } : {}),
  };
  // Each variant after the video, one pass each: the video's progress is the job's, the variants add their time.
  const renderVariants = async () => {
    const made: VariantResult[] = [];
    for (const variant of variants) made.push(await renderVariant(source, variant));
    return made;
  };
  if (mainAspect !== '16:9') {
    const main = await renderVariant(source, { aspect: mainAspect, outFile: options.outFile, ...(options.gif ? { gif: options.gif } : {}), ...(options.thumbnail ? { thumbnail: options.thumbnail } : {}) }, options.onProgress);
    const made = await renderVariants();
    return {
      outFile: main.outFile, frames: main.frames, durationMs: main.durationMs, timings: main.timings, layersDrawnAhead: drawnAhead !== null,
      peakRssBytes: main.peakRssBytes, gif: main.gif, thumbnail: main.thumbnail, variants: made, layers, ...(endCards ? { endCards } : {}),
    };
  }
  const plan = planCompose({ layout, timeline: options.timeline, style, durationMs, layers, cuts: foundCuts });
  const { camera } = plan;
  const layersMs = performance.now() - started;

  const endCard = endCards?.['16:9'] ? { file: endCards['16:9'], ...endCardTiming(durationMs) } : null;
  // A caption leaves before the picture fades out and before the end card comes (issue 57: the last caption stayed
  // on screen into the fade to black).
  const clearS = captionsClearAt(durationMs, style, endCard?.fromS ?? null);
  const captions = options.captions
    ? (await drawCaptions(options.page, options.captions, output, camera, path.join(dir, 'captions')))
        .map((image) => ({ ...image, toS: Math.min(image.toS, clearS) }))
        .filter((image) => image.toS > image.fromS)
    : undefined;
  const thumbnail = options.thumbnail ? { ...options.thumbnail, atMs: restingMs(options.thumbnail.atMs, camera) } : undefined;
  const side = await sideOutputs({ gif: options.gif, thumbnail }, { frames: camera.frames, fps: FPS, width: output.width });

  const renderStarted = performance.now();
  // The GIF's palette from the plate and the capture, beside the compositor's start (gif-palette.ts).
  const gifPalette = options.gif && side.gifEncoder
    ? makeGifPalette({
        cleanFile: options.cleanFile, samples: options.smallFrames ? paletteSamplesFile(options.smallFrames) : null, plate: layers.plate, output, content: layout.content, gifWidth: options.gif.width,
        codec: info.codec, file: path.join(dir, 'gif-palette.png'),
      }).catch(() => null)
    : null;
  const peakRssBytes = await renderRange({
    plan, style, layers, capture: { width: info.width, height: info.height, pixelFormat: info.pixelFormat },
    from: 0, to: camera.frames, source: { file: options.cleanFile }, format: options.format, outFile: options.outFile, dir,
    hud, ...(captions ? { captions } : {}), endCard, side,
    gifEncoder: side.gifEncoder, gifPalette,
    timeoutMs: options.timeoutMs ?? 600_000,
    onProgress: options.onProgress,
  });
  return {
    outFile: options.outFile,
    frames: camera.frames,
    durationMs: Math.round((camera.frames * 1000) / FPS),
    timings: { layersMs: Math.round(layersMs), renderMs: Math.round(performance.now() - renderStarted) },
    peakRssBytes,
    layersDrawnAhead: drawnAhead !== null,
    ...(await side.describe()),
    variants: await renderVariants(),
    layers,
    ...(endCards ? { endCards } : {}),
  };
}

/** The end card drawn for each frame a demo can be cut in (end-card.ts), by the frame's name. */
async function drawEndCards(page: Page, card: EndCardText, style: Style, resolution: Resolution, dir: string): Promise<Partial<Record<Aspect, string>>> {
  const cards: Partial<Record<Aspect, string>> = {};
  for (const aspect of ASPECTS) {
    cards[aspect] = await renderEndCardImage({ page, card, style, output: frameSize(aspect, resolution), dir: path.join(dir, aspectSlug(aspect)) });
  }
  return cards;
}

/** Whether the window rises in or falls away at all (a very short video drops the animation: camera.ts). */
export function windowAnimated(layout: Layout, style: Style, durationMs: number): boolean {
  const still: InteractionTimeline = { viewport: { width: 1, height: 1, deviceScaleFactor: 1 }, durationMs, cursor: [], clicks: [], keystrokes: [], scrolls: [], focus: [], steps: [] };
  const camera = createCamera(layout, still, { ...style, zoom: { ...style.zoom, enabled: false } }, durationMs);
  return camera.introFrames > 0 || camera.outroFrames > 0;
}

/** The captions as stills for the compositor (caption-layer.ts), for a frame of `output` seen through `camera`. */
async function drawCaptions(page: Page, burnIn: CaptionBurnIn, output: { width: number; height: number }, camera: Camera, dir: string) {
  const images = await renderCaptionImages({ page, burnIn, output, camera, dir });
  return images.map((image) => ({ file: image.file, x: image.x, y: image.y, fromS: image.fromS, toS: image.toS }));
}

async function hudText(dir: string, timeline: InteractionTimeline, templateId: string | null): Promise<HudText | null> {
  const fontFile = await labelFont();
  if (!fontFile) return null;
  const steps: HudText['steps'] = [];
  const total = timeline.steps.length;
  for (const [i, step] of timeline.steps.entries()) {
    const file = path.join(dir, `hud-step-${i}.txt`);
    const label = step.label.replace(/[\r\n]+/g, ' ').slice(0, 80);
    await fs.writeFile(file, `step ${i + 1}/${total}  ${step.kind}  ${label}`);
    const next = timeline.steps[i + 1];
    steps.push({ file, from: step.startMs / 1000, to: (next ? next.startMs : timeline.durationMs) / 1000 });
  }
  const clock = path.join(dir, 'hud-clock.txt');
  await fs.writeFile(clock, `t %{pts:hms}  frame %{n}  template ${templateId ?? 'none'}`);
  return { steps, clock, fontFile: safePath(fontFile) };
}
