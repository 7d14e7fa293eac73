import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Presentation } from '../../demos/presentation.js';
import type { DerivedGif, DerivedThumbnail } from '../encode/derive.js';
import { probeVideo } from '../encode/probe.js';
import { FfmpegError } from '../encode/run-tool.js';
import { OUTPUT_SIZES, paletteSamplesFile, type VideoFormat } from '../encode/video-encoder.js';
import { makeGifPalette } from './gif-palette.js';
import type { InteractionTimeline, Resolution } from '../types.js';
import { type Aspect, aspectSlug, frameSize, stageLayout } from './aspect.js';
import { type Camera, FPS } from './camera.js';
import { planCompose } from './compose-plan.js';
import { type Cut, findCuts } from './cuts.js';
import type { HudText } from './filter-graph.js';
import type { LayerFiles } from './layers.js';
import { computeLayout, type Layout } from './layout.js';
import { restingMs } from './main-shot.js';
import { renderRange } from './render-range.js';
import { sideOutputs } from './side-outputs.js';
import { resolveStyle, type Style } from './style.js';
import { variantLayers } from './variant-layers.js';
import { captionsClearAt, endCardTiming } from './end-card.js';

/**
 * Composing an aspect variant (aspect.ts) from a capture and the still layers its 16:9 video was drawn with: no
 * browser, no recording. The same plan as the 16:9 video's (cuts, cursor, click effects, the shots' zooms) on the
 * variant's stage, one ffmpeg pass writing the video and, beside it, its GIF and thumbnail.
 */
export interface VariantRequest {
  aspect: Aspect;
  outFile: string;
  gif?: { file: string; width: number; fps?: number; maxSeconds?: number };
  thumbnail?: { file: string; maxWidth?: number; atMs?: number | null };
}

export interface VariantResult {
  aspect: Aspect;
  outFile: string;
  width: number;
  height: number;
  frames: number;
  durationMs: number;
  /** wall time: making the layers, then the ffmpeg pass */
  timings: { layersMs: number; renderMs: number };
  peakRssBytes: number | null;
  gif: (DerivedGif & { file: string }) | null;
  thumbnail: (DerivedThumbnail & { file: string }) | null;
}

/** What every variant of one capture shares: found once, whatever the number of variants. */
export interface VariantSource {
  cleanFile: string;
  capture: { width: number; height: number; pixelFormat?: string | null };
  /** the capture's codec and the muxer's small frames, for the GIF's palette (gif-palette.ts) */
  codec?: string | null;
  smallFrames?: string | null;
  timeline: InteractionTimeline;
  style: Style;
  durationMs: number;
  /** the capture's cuts as findCuts gave them */
  cuts: Cut[];
  /** the 16:9 video's still layers, with the window animation's (background, window, mask) */
  layers: LayerFiles;
  /** the 16:9 video's layout of this capture */
  layout: Layout;
  resolution: Resolution;
  format: VideoFormat;
  hud?: HudText | null;
  /**
   * Burned-in captions drawn for a variant's frame and camera (caption-layer.ts, on the browser page the video's were
   * drawn on); absent, a variant has none (one made later, without a browser).
   */
  captionsFor?: (camera: Camera, frame: { width: number; height: number }, dir: string) => Promise<Array<{ file: string; x: number; y: number; fromS: number; toS: number }>>;
  /**
   * Issue 59: the end card drawn for each frame (presentation.endCard; end-card.ts), faded in over the video's end as
   * in the 16:9 video; absent, a variant has none.
   */
  endCards?: Partial<Record<Aspect, string>>;
  workDir: string;
  timeoutMs?: number;
}

export async function renderVariant(source: VariantSource, variant: VariantRequest, onProgress?: (fraction: number) => void): Promise<VariantResult> {
  const started = performance.now();
  const frame = frameSize(variant.aspect, source.resolution);
  const layout = stageLayout(source.layout, frame, source.style.padding);
  const dir = path.join(source.workDir, `variant-${aspectSlug(variant.aspect)}`);
  await fs.mkdir(dir, { recursive: true });
  const layers = await variantLayers({ layers: source.layers, layout, style: source.style, dir });
  const plan = planCompose({ layout, timeline: source.timeline, style: source.style, durationMs: source.durationMs, layers, cuts: source.cuts });
  const { camera } = plan;
  const cardFile = source.endCards?.[variant.aspect];
  const endCard = cardFile ? { file: cardFile, ...endCardTiming(source.durationMs) } : null;
  // As in the 16:9 video, a caption leaves before the fade out and before the end card.
  const clearS = captionsClearAt(source.durationMs, source.style, endCard?.fromS ?? null);
  const captions = source.captionsFor
    ? (await source.captionsFor(camera, frame, path.join(dir, 'captions'))).map((c) => ({ ...c, toS: Math.min(c.toS, clearS) })).filter((c) => c.toS > c.fromS)
    : undefined;
  const thumbnail = variant.thumbnail ? { ...variant.thumbnail, atMs: restingMs(variant.thumbnail.atMs, camera) } : undefined;
  const side = await sideOutputs({ gif: variant.gif, thumbnail }, { frames: camera.frames, fps: FPS, width: frame.width });
  const layersMs = performance.now() - started;
  const renderStarted = performance.now();
  // The GIF's palette beside the compositor's start, from the stage's plate and the capture (as compose.ts does).
  const gifPalette = variant.gif && side.gifEncoder
    ? makeGifPalette({
        cleanFile: source.cleanFile, samples: source.smallFrames ? paletteSamplesFile(source.smallFrames) : null, plate: layers.plate, output: layout.output,
        content: layout.content, gifWidth: variant.gif.width, codec: source.codec ?? null, file: path.join(dir, 'gif-palette.png'),
      }).catch(() => null)
    : null;
  const peakRssBytes = await renderRange({
    plan, style: source.style, layers, capture: source.capture,
    from: 0, to: camera.frames, source: { file: source.cleanFile }, format: source.format, outFile: variant.outFile, dir,
    hud: source.hud ?? null, ...(captions ? { captions } : {}), endCard, side, gifEncoder: side.gifEncoder, gifPalette,
    timeoutMs: source.timeoutMs ?? 600_000, onProgress,
  });
  return {
    aspect: variant.aspect,
    outFile: variant.outFile,
    ...frame,
    frames: camera.frames,
    durationMs: Math.round((camera.frames * 1000) / FPS),
    timings: { layersMs: Math.round(layersMs), renderMs: Math.round(performance.now() - renderStarted) },
    peakRssBytes,
    ...(await side.describe()),
  };
}

/**
 * Variants of a capture composed on their own, later than its 16:9 video: from the capture file, its timeline and
 * the 16:9 layers kept beside it. Takes no browser page.
 */
export async function composeVariants(options: {
  cleanFile: string;
  smallFrames?: string | null;
  timeline: InteractionTimeline;
  presentation: Presentation | null;
  resolution: Resolution;
  format: VideoFormat;
  layers: LayerFiles;
  variants: VariantRequest[];
  /** Issue 59: the end card drawn for each frame when the video was made (kept with the capture), if it has one */
  endCards?: Partial<Record<Aspect, string>>;
  workDir: string;
  timeoutMs?: number;
}): Promise<VariantResult[]> {
  const style = resolveStyle(options.presentation);
  const info = await probeVideo(options.cleanFile);
  const durationMs = options.timeline.durationMs > 0 ? options.timeline.durationMs : (info.durationMs ?? 0);
  if (!(durationMs > 0)) throw new FfmpegError('The capture has no duration.', null, '');
  const source: VariantSource = {
    cleanFile: options.cleanFile,
    capture: { width: info.width, height: info.height, pixelFormat: info.pixelFormat },
    codec: info.codec,
    smallFrames: options.smallFrames ?? null,
    timeline: options.timeline,
    style,
    durationMs,
    cuts: await findCuts(options.cleanFile, info.codec, options.smallFrames),
    layers: options.layers,
    layout: computeLayout(OUTPUT_SIZES[options.resolution], { width: info.width, height: info.height }, style),
    resolution: options.resolution,
    format: options.format,
    ...(options.endCards ? { endCards: options.endCards } : {}),
    workDir: options.workDir,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  };
  const results: VariantResult[] = [];
  // One after another: each pass keeps a core busy, and the machine has few.
  for (const variant of options.variants) results.push(await renderVariant(source, variant));
  return results;
}
