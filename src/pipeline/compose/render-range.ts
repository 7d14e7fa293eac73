import fs from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { gifColours } from '../encode/derive.js';
import { codecArgs, type VideoFormat } from '../encode/video-encoder.js';
import { FPS } from './camera.js';
import { type ComposePlan, planCommands } from './compose-plan.js';
import { buildFilterGraph, type GraphInputs, type HudText } from './filter-graph.js';
import { heldPictures } from './held-pictures.js';
import type { LayerFiles } from './layers.js';
import { type ComposerFeed, runComposer } from './run-composer.js';
import type { Style } from './style.js';

/**
 * One ffmpeg pass of the compositor over frames [from, to) of the video: the whole video (compose.ts) or a part of
 * it (compose-ahead.ts). The frames come from the clean capture's file, or straight from memory while the page is
 * still being recorded (`frames`: each JPEG written to a pipe, no file read). Every stream keeps the video's own
 * clock (a part starts at from/30 s), so the per-frame commands, the fades and the captions' times are the same
 * files and numbers whichever part is drawn; a part's output is stamped from 0 so the parts join end to end.
 */
export type FrameSource = { file: string } | { frame(index: number): Buffer };

/** Compositors running in this process, every job's: whether a core is left for one more (join-parts.ts). */
let compositorsRunning = 0;
export function runningCompositors(): number {
  return compositorsRunning;
}

export interface RenderRangeOptions {
  plan: ComposePlan;
  style: Style;
  layers: LayerFiles;
  capture: { width: number; height: number; pixelFormat?: string | null };
  from: number;
  to: number;
  source: FrameSource;
  format: VideoFormat;
  outFile: string;
  /** scratch directory for the graph and command files */
  dir: string;
  hud?: HudText | null;
  /** burned-in captions, as stills: input file and where and when each shows */
  captions?: Array<{ file: string; x: number; y: number; fromS: number; toS: number }>;
  /** the end card, as a still of the whole frame, and when it fades in */
  endCard?: { file: string; fromS: number; fadeS: number } | null;
  /** more of the graph (side outputs) after `[out]`, the label the video maps, and their output arguments */
  side?: { graph: string; videoLabel: string; args: string[] };
  /**
   * A part's GIF frames (frames of the first `maxFrames` picked for `fps`, absolute numbering, so parts never pick
   * a frame twice or skip one), `width`×`height` RGB already cut to the GIF's colours (gifColours), handed over as
   * bytes as they come.
   */
  gifFrames?: { width: number; height: number; fps: number; maxFrames: number; onData(chunk: Buffer): void } | null;
  gifEncoder?: ((palette: string | null) => string[]) | null;
  gifPalette?: Promise<string | null> | null;
  onProgress?: ((fraction: number) => void) | undefined;
  onSpawn?: ((pid: number | undefined) => void) | undefined;
  nice?: number;
  timeoutMs: number;
}

export async function renderRange(options: RenderRangeOptions): Promise<number | null> {
  const { plan, layers, style, from, to } = options;
  const { camera, layout } = plan;
  const output = layout.output;
  const count = to - from;
  await fs.mkdir(options.dir, { recursive: true });

  const args: string[] = ['-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-y'];
  const feeds: ComposerFeed[] = [];
  // fd 3 is the GIF's; pipes in from 4.
  let nextFd = 4;
  let next = 0;
  const input = (...spec: string[]) => {
    args.push(...spec);
    return next++;
  };
  const still = (file: string) => input('-framerate', String(FPS), '-i', safePath(file));
  /** inputs fed only their new pictures: the setpts expression that puts each on its frame */
  const restamp = new Map<number, string>();
  /** Frames [a, b) of the capture, on the video's clock. */
  const captured = (a: number, b: number) => {
    const source = options.source;
    if ('file' in source) {
      // Matroska stores whole ms: start half a frame early, and settb in the graph puts each frame on the grid.
      if (a === 0) return input('-t', (b / FPS).toFixed(4), '-i', safePath(source.file));
      const at = ((a - 0.5) / FPS).toFixed(4);
      // The seek can start on the frame before `a` (with -itsoffset, ffmpeg does not drop what comes before -ss), and
      // -t counts from the first frame read: one frame more is read, and the graph keeps exactly [a, b) (the stretch
      // lost its last frame before). To the end: read on to the file's end, as a capture may hold a frame or two
      // fewer than the video.
      const length = b < camera.frames ? ['-t', ((b - a + 1) / FPS).toFixed(4)] : [];
      return input('-ss', at, '-itsoffset', at, ...length, '-i', safePath(source.file));
    }
    const fd = nextFd++;
    // Only the new pictures, each stamped with its frame (held-pictures.ts), when some frames hold the one before.
    const held = heldPictures(source.frame, a, b);
    const sent = held ? held.sent : Array.from({ length: b - a }, (_, k) => a + k);
    feeds.push({ fd, write: (stream) => writeFrames(stream, sent, (i) => source.frame(Math.min(i, b - 1))) });
    const index = input(
      ...(a > 0 ? ['-itsoffset', (a / FPS).toFixed(4)] : []),
      '-probesize', '32', '-analyzeduration', '0', '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(FPS), '-i', `pipe:${fd}`,
    );
    if (held) restamp.set(index, held.restamp);
    return index;
  };
  const whole = from === 0 && to === camera.frames && 'file' in options.source;
  const inputs: GraphInputs = {
    restamp,
    clean: whole ? input('-i', safePath((options.source as { file: string }).file)) : captured(from, to),
    plate: still(layers.plate),
    intro: null,
    outro: null,
    cursor: null,
    effects: null,
  };
  const windowLayer = (a: number, b: number) => ({
    clean: captured(a, b),
    background: still(layers.background!),
    window: still(layers.window!),
    mask: still(layers.mask!),
  });
  const cuts = plan.cuts.filter((cut) => cut.frame >= from && cut.frame < to);
  inputs.cuts = cuts.map((cut) => ({ input: captured(cut.frame - cut.weights.length, cut.frame + cut.weights.length + 1), frame: cut.frame, weights: cut.weights }));
  const outroStart = camera.frames - camera.outroFrames;
  if (camera.introFrames > 0 && from < camera.introFrames) inputs.intro = windowLayer(0, camera.introFrames);
  if (camera.outroFrames > 0 && to > outroStart) inputs.outro = windowLayer(outroStart, camera.frames);
  if (layers.cursor) inputs.cursor = still(layers.cursor.file);
  if (options.captions) inputs.captions = options.captions.map((c) => ({ input: still(c.file), x: c.x, y: c.y, fromS: c.fromS, toS: c.toS }));
  if (options.endCard) inputs.endCard = { input: still(options.endCard.file), fromS: options.endCard.fromS, fadeS: options.endCard.fadeS };
  const sprite = plan.sprite;
  if (sprite) {
    inputs.effects = {
      input: input(
        ...(from > 0 ? ['-itsoffset', (from / FPS).toFixed(4)] : []),
        '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${sprite.size}x${sprite.size}`, '-framerate', String(FPS), '-i', 'pipe:0',
      ),
      size: sprite.size,
    };
  }

  const commands = planCommands(plan);
  const files = {
    zoomCommands: path.join(options.dir, 'zoom.cmd'),
    pointerCommands: path.join(options.dir, 'pointer.cmd'),
    introCommands: path.join(options.dir, 'intro.cmd'),
    outroCommands: path.join(options.dir, 'outro.cmd'),
  };
  await Promise.all([
    fs.writeFile(files.zoomCommands, commands.zoom),
    fs.writeFile(files.pointerCommands, commands.pointer),
    fs.writeFile(files.introCommands, commands.intro),
    fs.writeFile(files.outroCommands, commands.outro),
  ]);
  let graph = buildFilterGraph({
    layout, style, camera, inputs, files, hud: options.hud ?? null, durationMs: (camera.frames * 1000) / FPS, capture: options.capture, startFrame: from, endFrame: to,
  });
  let videoLabel = 'out';
  const sideArgs: string[] = [];
  if (options.side) {
    graph += options.side.graph;
    videoLabel = options.side.videoLabel;
    sideArgs.push(...options.side.args);
  } else if (options.gifFrames) {
    const gif = options.gifFrames;
    // The frames the GIF's rate picks (the first of each of its frame times), numbered from the video's start.
    const n = `(n+${from})`;
    // As fps=12 after trim (the one pass's GIF branch): the frame nearest each GIF frame's time, for as many GIF
    // frames as whole ones fit in the first maxFrames.
    const limit = Math.floor((Math.min(camera.frames, gif.maxFrames) * gif.fps) / FPS);
    const pick = `lt(floor(${n}*${gif.fps}/${FPS}),${limit})*(eq(${n},0)+gt(floor(${n}*${gif.fps}/${FPS}),floor((${n}-1)*${gif.fps}/${FPS})))`;
    // Restamped at the GIF's rate, so the output writes each picked frame once (no frame repeated to fill the gaps).
    // Cut to the GIF's 6-bit colours here, so that the GIF's feed only maps them onto the palette (gif-mapping.ts).
    graph += `;\n[out]split=2[video][gif_in];\n[gif_in]select='${pick}',setpts=N/(${gif.fps}*TB),scale=${gif.width}:${gif.height}:flags=area,format=yuv420p,${gifColours()}[gif]`;
    videoLabel = 'video';
    sideArgs.push('-map', '[gif]', '-an', '-r', String(gif.fps), '-c:v', 'rawvideo', '-f', 'rawvideo', 'pipe:3');
  }
  if (from > 0) {
    // A part's own file starts at 0, so the parts join end to end.
    graph += `;\n[${videoLabel}]setpts=PTS-STARTPTS[part]`;
    videoLabel = 'part';
  }
  const graphFile = path.join(options.dir, 'graph.txt');
  await fs.writeFile(graphFile, graph);
  await fs.mkdir(path.dirname(path.resolve(options.outFile)), { recursive: true });
  args.push(
    '-filter_complex_script', graphFile, '-map', `[${videoLabel}]`, '-an', '-r', String(FPS), '-frames:v', String(count),
    '-pix_fmt', 'yuv420p', '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
    ...codecArgs(options.format), `file:${path.resolve(options.outFile)}`,
    ...sideArgs,
  );

  compositorsRunning++;
  try {
    return await runComposer(args, {
      gifEncoder: options.gifEncoder ?? null,
      gifPalette: options.gifPalette ?? null,
      fd3: options.gifFrames ? options.gifFrames.onData : null,
      feeds,
      frames: count,
      timeoutMs: options.timeoutMs,
      onProgress: options.onProgress,
      onSpawn: options.onSpawn,
      nice: options.nice ?? 0,
      writeEffects: sprite
        ? async (write) => {
            for (let i = from; i < to; i++) {
              // A buffer of its own for each frame: a pipe write that the kernel takes only in part returns once the
              // rest is queued, still pointing at this buffer; drawing the next frame into it would change what is
              // still to be sent (seen: a click ring drawn half from the next frame's).
              const frame = Buffer.alloc(sprite.size * sprite.size * 4);
              const alive = plan.clicks[i]!;
              sprite.draw(frame, alive.length > 0 ? [alive.at(-1)!.progress] : []);
              await write(frame);
            }
          }
        : null,
    });
  } finally {
    compositorsRunning--;
  }
}

async function writeFrames(stream: Writable, frames: number[], frame: (index: number) => Buffer): Promise<void> {
  for (const i of frames) {
    if (stream.destroyed) return;
    if (!stream.write(frame(i))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('close', done);
          stream.off('error', done);
          resolve();
        };
        stream.on('drain', done);
        stream.on('close', done);
        stream.on('error', done);
      });
    }
  }
  stream.end();
}

/** Our own files go into the filter graph unquoted: only plain path characters may pass. */
export function safePath(file: string): string {
  const absolute = path.resolve(file);
  if (!/^[\w/.\-]+$/.test(absolute)) throw new Error(`Unexpected characters in a render file path: ${absolute}`);
  return absolute;
}
