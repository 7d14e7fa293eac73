import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'puppeteer-core';
import type { Presentation } from '../../demos/presentation.js';
import type { DerivedGif, DerivedThumbnail } from '../encode/derive.js';
import { labelFont } from '../encode/label-font.js';
import { probeVideo } from '../encode/probe.js';
import { FfmpegError } from '../encode/run-tool.js';
import { codecArgs, OUTPUT_SIZES, paletteSamplesFile, type VideoFormat } from '../encode/video-encoder.js';
import type { InteractionTimeline, Resolution } from '../types.js';
import { createCamera, FPS } from './camera.js';
import { clickEffectSprite } from './click-effects.js';
import { findCuts, withoutScrolls } from './cuts.js';
import { buildFilterGraph, commandLines, type GraphInputs, type HudText } from './filter-graph.js';
import { renderLayers } from './layers.js';
import { type LayersAhead, usableLayers } from './layers-ahead.js';
import { computeLayout } from './layout.js';
import { clickEffects, pointerPath } from './pointer-track.js';
import { sideOutputs } from './side-outputs.js';
import { makeGifPalette } from './gif-palette.js';
import { runComposer } from './run-composer.js';
import { resolveStyle } from './style.js';
import { type CaptionBurnIn, renderCaptionImages } from './caption-layer.js';

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
  const camera = createCamera(layout, options.timeline, style, durationMs);
  const dir = path.join(options.workDir, 'compose');
  await fs.mkdir(dir, { recursive: true });

  // Cuts inside the intro or the outro are left alone: those frames come from decoders of their own.
  const cuts = withoutScrolls(await findCuts(options.cleanFile, info.codec, options.smallFrames), options.timeline.scrolls, FPS).filter(
    (cut) => cut.frame - cut.weights.length > camera.introFrames && cut.frame + cut.weights.length < camera.frames - camera.outroFrames,
  );
  const backgroundImage =
    style.background.kind !== 'image' ? null : (options.backgroundImage ?? (options.loadImage ? await options.loadImage(style.background.imageUrl) : null));
  const animated = camera.introFrames > 0 || camera.outroFrames > 0;
  const drawnAhead = usableLayers(options.layersAhead ? await options.layersAhead : null, layout, animated);
  const layers = drawnAhead ?? (await renderLayers({ page: options.page, layout, style, dir, animated, backgroundImage }));
  const layersMs = performance.now() - started;

  // Inputs, in order.
  const args: string[] = ['-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-y'];
  let next = 0;
  const input = (...spec: string[]) => {
    args.push(...spec);
    return next++;
  };
  const still = (file: string) => input('-framerate', String(FPS), '-i', safePath(file));
  const clean = safePath(options.cleanFile);
  const inputs: GraphInputs = { clean: input('-i', clean), plate: still(layers.plate), intro: null, outro: null, cursor: null, effects: null };
  const introSeconds = camera.introFrames / FPS;
  const outroStart = (camera.frames - camera.outroFrames) / FPS;
  // The intro and the outro each read their own frames, with the window layer's still parts beside them.
  const windowLayer = (...cleanInput: string[]) => ({
    clean: input(...cleanInput, '-i', clean),
    background: still(layers.background!),
    window: still(layers.window!),
    mask: still(layers.mask!),
  });
  // Each cut's decoder starts half a frame before the dissolve's first input frame (Matroska stores whole ms).
  inputs.cuts = cuts.map((cut) => {
    const from = ((cut.frame - cut.weights.length - 0.5) / FPS).toFixed(4);
    const length = ((2 * cut.weights.length + 1) / FPS).toFixed(4);
    return { input: input('-ss', from, '-itsoffset', from, '-t', length, '-i', clean), frame: cut.frame, weights: cut.weights };
  });
  if (camera.introFrames > 0) inputs.intro = windowLayer('-t', introSeconds.toFixed(4));
  if (camera.outroFrames > 0) inputs.outro = windowLayer('-ss', outroStart.toFixed(4), '-itsoffset', outroStart.toFixed(4));
  if (layers.cursor) inputs.cursor = still(layers.cursor.file);
  if (options.captions) {
    const images = await renderCaptionImages({ page: options.page, burnIn: options.captions, output, camera, dir: path.join(dir, 'captions') });
    inputs.captions = images.map((image) => ({ input: still(image.file), x: image.x, y: image.y, fromS: image.fromS, toS: image.toS }));
  }
  const clicks = clickEffects(options.timeline, camera.frames);
  const unit = output.height / 1080;
  const sprite =
    style.clickEffect.style !== 'none' && options.timeline.clicks.length > 0
      ? clickEffectSprite(style.clickEffect.style, layers.colors.clickEffect, style.clickEffect.scale, unit)
      : null;
  if (sprite) {
    inputs.effects = {
      input: input('-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${sprite.size}x${sprite.size}`, '-framerate', String(FPS), '-i', 'pipe:0'),
      size: sprite.size,
    };
  }

  // Per-frame commands.
  const files = {
    zoomCommands: path.join(dir, 'zoom.cmd'),
    pointerCommands: path.join(dir, 'pointer.cmd'),
    introCommands: path.join(dir, 'intro.cmd'),
    outroCommands: path.join(dir, 'outro.cmd'),
  };
  const path30 = pointerPath(options.timeline, camera.frames);
  const offscreen = -10000;
  await fs.writeFile(
    files.zoomCommands,
    commandLines(camera.frames, FPS, (i) => {
      const { crop } = camera.at(i);
      return [['crop@zoom', 'w', crop.width], ['crop@zoom', 'h', crop.height], ['crop@zoom', 'x', crop.x], ['crop@zoom', 'y', crop.y]];
    }),
  );
  await fs.writeFile(
    files.pointerCommands,
    commandLines(camera.frames, FPS, (i) => {
      const commands: Array<[string, string, number]> = [];
      if (layers.cursor) {
        const p = camera.project(i, camera.fromViewport(path30[i]!));
        commands.push(['overlay@cursor', 'x', Math.round(p.x - layers.cursor.hotspotX)], ['overlay@cursor', 'y', Math.round(p.y - layers.cursor.hotspotY)]);
      }
      if (sprite) {
        const alive = clicks[i]!.at(-1);
        const p = alive ? camera.project(i, camera.fromViewport(alive)) : null;
        commands.push(
          ['overlay@effects', 'x', p ? Math.round(p.x - sprite.size / 2) : offscreen],
          ['overlay@effects', 'y', p ? Math.round(p.y - sprite.size / 2) : offscreen],
        );
      }
      return commands;
    }),
  );
  // The intro's and outro's decoders keep the video's own timestamps (the outro's is offset to its start), so
  // their commands use the same clock as everything else.
  const layerCommands = (name: string, from: number, to: number) =>
    commandLines(camera.frames, FPS, (i) => {
      if (i < from || i >= to) return [];
      const { layer } = camera.at(i);
      return [[`scale@${name}`, 'w', layer.width], [`scale@${name}`, 'h', layer.height], [`overlay@${name}`, 'x', layer.x], [`overlay@${name}`, 'y', layer.y]];
    });
  await fs.writeFile(files.introCommands, layerCommands('intro', 0, camera.introFrames));
  await fs.writeFile(files.outroCommands, layerCommands('outro', camera.frames - camera.outroFrames, camera.frames));

  const hud = style.debugHud ? await hudText(dir, options.timeline, options.templateId ?? null) : null;
  const capture = { width: info.width, height: info.height, pixelFormat: info.pixelFormat };
  const graph = buildFilterGraph({ layout, style, camera, inputs, files, hud, durationMs: (camera.frames * 1000) / FPS, capture });
  const thumbnail = options.thumbnail ? { ...options.thumbnail, atMs: restingMs(options.thumbnail.atMs, camera) } : undefined;
  const side = await sideOutputs({ gif: options.gif, thumbnail }, { frames: camera.frames, fps: FPS, width: output.width });
  const graphFile = path.join(dir, 'graph.txt');
  await fs.writeFile(graphFile, graph + side.graph);
  await fs.mkdir(path.dirname(path.resolve(options.outFile)), { recursive: true });
  args.push(
    '-filter_complex_script', graphFile, '-map', `[${side.videoLabel}]`, '-an', '-r', String(FPS), '-frames:v', String(camera.frames),
    '-pix_fmt', 'yuv420p', '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
    ...codecArgs(options.format), `file:${path.resolve(options.outFile)}`,
    ...side.args,
  );

  const renderStarted = performance.now();
  // The GIF's palette from the plate and the capture, beside the compositor's start (gif-palette.ts).
  const gifPalette = options.gif && side.gifEncoder
    ? makeGifPalette({
        cleanFile: options.cleanFile, samples: options.smallFrames ? paletteSamplesFile(options.smallFrames) : null, plate: layers.plate, output, content: layout.content, gifWidth: options.gif.width,
        codec: info.codec, file: path.join(dir, 'gif-palette.png'),
      }).catch(() => null)
    : null;
  const peakRssBytes = await runComposer(args, {
    gifEncoder: side.gifEncoder,
    gifPalette,
    frames: camera.frames,
    timeoutMs: options.timeoutMs ?? 600_000,
    onProgress: options.onProgress,
    writeEffects: sprite
      ? async (write) => {
          const frame = Buffer.alloc(sprite.size * sprite.size * 4);
          for (let i = 0; i < camera.frames; i++) {
            const alive = clicks[i]!;
            sprite.draw(frame, alive.length > 0 ? [alive.at(-1)!.progress] : []);
            await write(frame);
          }
        }
      : null,
  });
  return {
    outFile: options.outFile,
    frames: camera.frames,
    durationMs: Math.round((camera.frames * 1000) / FPS),
    timings: { layersMs: Math.round(layersMs), renderMs: Math.round(performance.now() - renderStarted) },
    peakRssBytes,
    layersDrawnAhead: drawnAhead !== null,
    ...(await side.describe()),
  };
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

/** Our own files go into the filter graph unquoted: only plain path characters may pass. */
function safePath(file: string): string {
  const absolute = path.resolve(file);
  if (!/^[\w/.\-]+$/.test(absolute)) throw new Error(`Unexpected characters in a render file path: ${absolute}`);
  return absolute;
}

/** A frame time moved off the intro and outro, whose window is still rising in or falling away; null stays null. */
function restingMs(atMs: number | null | undefined, camera: { frames: number; introFrames: number; outroFrames: number }): number | null {
  if (atMs === null || atMs === undefined) return null;
  const first = camera.introFrames;
  const last = Math.max(first, camera.frames - camera.outroFrames - 1);
  return (Math.min(last, Math.max(first, Math.round((atMs * FPS) / 1000))) * 1000) / FPS;
}
