import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pngDimensions } from '../../platform/media-signatures.js';
import { describeGif, gifPaletteUse, thumbnailTimeMs } from '../encode/derive.js';
import { gifColourTable, mapGifFrame } from '../encode/gif-mapping.js';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { InvalidVideoError } from '../encode/probe.js';
import { FfmpegError, fileArg, runTool } from '../encode/run-tool.js';
import { FPS } from './camera.js';
import { type ComposeOptions, type ComposeResult, restingMs } from './compose.js';
import type { ComposePlan } from './compose-plan.js';
import type { LayerFiles } from './layers.js';
import { type FrameSource, renderRange } from './render-range.js';
import { startGifEncoder } from './run-composer.js';
import type { Style } from './style.js';

/**
 * The end of composing ahead (compose-ahead.ts): the parts composed during the recording are checked against the
 * plan made on the whole of it, what is missing (the rest, and any part that differs) is composed from the capture's
 * file, and the parts are joined end to end without re-encoding. The GIF preview is fed the parts' frames in order
 * as they come, and the thumbnail is taken from the part that holds its frame.
 */
export interface Part {
  from: number;
  to: number;
  file: string;
  /** ComposePlan.frameValues of each frame, as the part drew it */
  values: string[];
  /** the part's GIF frames (raw yuv420p), as they came */
  gif: Buffer[];
  /** called when GIF bytes arrive or the part ends */
  wake?: (() => void) | undefined;
  /** set (before `wake` is called) once `done` has settled */
  settled?: boolean;
  pid: number | undefined;
  done: Promise<{ ok: boolean; peak: number | null; error?: unknown }>;
  /** composed during the recording */
  ahead: boolean;
}

export async function finishParts(options: {
  parts: Part[];
  plan: ComposePlan;
  style: Style;
  layers: LayerFiles;
  capture: { width: number; height: number; pixelFormat: string | null };
  compose: ComposeOptions;
  dir: string;
  started: number;
  gifFrames(from: number, part: Part): { width: number; height: number; fps: number; maxFrames: number; onData(chunk: Buffer): void } | null;
  gifPalette: Promise<string | null> | null;
  gifSize: { width: number; height: number } | null;
  /** whether the longest stretch left may be composed by two compositors (false while another job's is running) */
  sideBySide: boolean;
  /** the recording's frames still in memory (undefined for those let go): a stretch held whole there is read from it */
  memory?: (frame: number) => Buffer | undefined;
}): Promise<{ composed: ComposeResult; kept: Part[]; framesAhead: number; rest: Array<{ from: number; to: number; fromMemory: boolean }> }> {
  const { plan, compose } = options;
  const frames = plan.camera.frames;
  const kept = options.parts.filter((part) => part.to <= frames && part.values.every((value, k) => value === plan.frameValues(part.from + k)));
  // What is left: the rest of the video and any part that differs, each stretch composed from the capture's file.
  const gaps: Array<[number, number]> = [];
  let at = 0;
  for (const part of kept) {
    if (part.from > at) gaps.push([at, part.from]);
    at = part.to;
  }
  if (at < frames) gaps.push([at, frames]);
  const rest = options.sideBySide ? splitForTwoCores(gaps, plan) : gaps;
  // A stretch whose every frame the render reads is still in memory is sent from there: no seek into the file, and
  // its held pictures are not decoded again (held-pictures.ts); any other from the capture's file.
  const sourceOf = (from: number, to: number): FrameSource => {
    const { memory } = options;
    const inMemory = (a: number, b: number) => {
      for (let i = a; i < b; i++) if (!memory?.(i)) return false;
      return true;
    };
    if (!memory || !inMemory(from, to) || !readsAlsoInMemory(plan, from, to, inMemory)) return { file: compose.cleanFile };
    return { frame: (i) => memory(i)! };
  };
  // A part that differs and is still being composed is of no use any more.
  for (const part of options.parts) if (!kept.includes(part)) killPart(part);
  const keptFrames = kept.reduce((sum, part) => sum + part.to - part.from, 0);
  const remaining = frames - keptFrames;
  const progress = new Map<number, number>();
  const report = () => {
    if (!compose.onProgress) return;
    let done = keptFrames;
    for (const value of progress.values()) done += value;
    try {
      compose.onProgress(Math.min(1, done / frames));
    } catch {
      // reporting must not break the render
    }
  };
  const sources = rest.map(([from, to]) => sourceOf(from, to));
  const fresh: Part[] = rest.map(([from, to], index) => {
    const part: Part = { from, to, file: path.join(options.dir, `rest-${index}.${compose.format}`), values: [], gif: [], pid: undefined, done: null as never, ahead: false };
    const gif = options.gifFrames(from, part);
    part.done = renderRange({
      plan, style: options.style, layers: options.layers, capture: options.capture, from, to, source: sources[index]!, format: compose.format,
      outFile: part.file, dir: path.join(options.dir, `rest-${index}`), timeoutMs: compose.timeoutMs ?? 600_000,
      onSpawn: (pid) => {
        part.pid = pid;
      },
      gifFrames: gif ? { ...gif, onData: (chunk) => {
        part.gif.push(chunk);
        part.wake?.();
      } } : null,
      onProgress: remaining > 0 ? (fraction) => {
        progress.set(index, fraction * (to - from));
        report();
      } : undefined,
    }).then(
      (peak) => ({ ok: true, peak }),
      (error: unknown) => ({ ok: false, peak: null, error }),
    );
    void part.done.finally(() => {
      part.pid = undefined;
      part.settled = true;
      part.wake?.();
    });
    return part;
  });
  for (const part of kept) {
    void part.done.finally(() => {
      part.settled = true;
      part.wake?.();
    });
  }
  const all = [...kept, ...fresh].sort((a, b) => a.from - b.from);

  // The thumbnail: the frame compose would take (side-outputs.ts), from the part that holds it, once that is done.
  const durationMs = (frames * 1000) / FPS;
  const thumbnailAtMs = compose.thumbnail ? (restingMs(compose.thumbnail.atMs, plan.camera) ?? thumbnailTimeMs(durationMs)) : null;
  const thumbnailFrame = thumbnailAtMs === null ? null : Math.max(0, Math.min(frames - 1, Math.ceil((thumbnailAtMs * FPS) / 1000 - 1e-6)));
  const thumbnail =
    compose.thumbnail && thumbnailFrame !== null
      ? (async () => {
          const part = all.find((p) => thumbnailFrame >= p.from && thumbnailFrame < p.to)!;
          await part.done;
          const width = Math.min(compose.thumbnail!.maxWidth ?? 1280, plan.layout.output.width);
          return { ...(await frameToPng(part.file, thumbnailFrame - part.from, width, compose.thumbnail!.file)), atMs: Math.round((thumbnailFrame * 1000) / FPS) };
        })()
      : null;
  const stopGif = new AbortController();
  const gif = compose.gif && options.gifSize ? feedGif(all, options.gifPalette, options.gifSize, compose.gif.file, options.dir, stopGif.signal) : null;
  thumbnail?.catch(() => undefined);
  gif?.catch(() => undefined);

  const outcomes = await Promise.all(all.map((part) => part.done));
  const failed = outcomes.find((outcome) => !outcome.ok);
  if (failed) {
    stopGif.abort();
    await gif?.catch(() => undefined);
    throw failed.error instanceof Error ? failed.error : new Error(String(failed.error));
  }
  await joinParts(all.map((part) => ({ file: part.file, frames: part.to - part.from })), compose.outFile, compose.format);
  const [gifResult, thumbnailResult] = await Promise.all([gif, thumbnail]);
  return {
    composed: {
      outFile: compose.outFile,
      frames,
      durationMs: Math.round(durationMs),
      timings: { layersMs: 0, renderMs: Math.round(performance.now() - options.started) },
      layersDrawnAhead: true,
      peakRssBytes: outcomes.reduce<number | null>((peak, outcome) => (outcome.peak === null ? peak : Math.max(peak ?? 0, outcome.peak)), null),
      gif: gifResult ?? null,
      thumbnail: thumbnailResult ?? null,
      // Variants are composed in one pass each (composeVideo), never ahead: a job that asks for them composes so.
      variants: [],
      layers: options.layers,
    },
    kept,
    framesAhead: keptFrames,
    rest: rest.map(([from, to], index) => ({ from, to, fromMemory: 'frame' in sources[index]! })),
  };
}

/** A stretch shorter than this is composed whole: a compositor's start and its first key frame are not worth it. */
const MIN_HALF_FRAMES = 45;

/**
 * What is left to compose after the recording, as the stretches to compose side by side. One compositor keeps only
 * about 1.7 of two cores busy (its filter graph runs on one thread, and x264 waits for it), so the longest stretch
 * is split in two near its middle and the halves composed at once: on five real pages the one-shot demo was ready
 * 0.15–0.67 s sooner (docs/decisions.md). Not while another job's compositor runs (finishParts' `sideBySide`): the
 * cores are taken then, and a second compositor would only add its memory. It is split only where a part may end
 * anyway: after the window's rise-in, before its fall-away, and clear of a dissolve (as compose-ahead.ts's parts).
 */
export function splitForTwoCores(gaps: Array<[number, number]>, plan: Pick<ComposePlan, 'camera' | 'cuts'>): Array<[number, number]> {
  if (gaps.length === 0) return [];
  const longest = gaps.reduce((best, gap, i) => (gap[1] - gap[0] > gaps[best]![1] - gaps[best]![0] ? i : best), 0);
  const [from, to] = gaps[longest]!;
  const { camera } = plan;
  const lowest = Math.max(from + MIN_HALF_FRAMES, camera.introFrames);
  const highest = Math.min(to - MIN_HALF_FRAMES, camera.frames - camera.outroFrames);
  let at = Math.round((from + to) / 2);
  // Latest dissolve first: moved before one, the split may land in an earlier one, checked next.
  for (const cut of [...plan.cuts].sort((a, b) => b.frame - a.frame)) {
    const reach = cut.weights.length + 2;
    if (at > cut.frame - reach && at <= cut.frame + reach) at = cut.frame - reach;
  }
  if (at < lowest || at > highest) return gaps;
  return [...gaps.slice(0, longest), [from, at], [at, to], ...gaps.slice(longest + 1)];
}

/** Stops a part's compositor if it is still running (its outcome then says it failed). */
export function killPart(part: Part): void {
  if (part.pid === undefined) return;
  try {
    process.kill(part.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Whether the other stretches of the capture a render of [from, to) reads (render-range.ts: the window's rise-in and
 * fall-away, each cut's dissolve, from decoders of their own) are in memory as well.
 */
function readsAlsoInMemory(plan: ComposePlan, from: number, to: number, inMemory: (a: number, b: number) => boolean): boolean {
  const { camera } = plan;
  const outroStart = camera.frames - camera.outroFrames;
  if (camera.introFrames > 0 && from < camera.introFrames && !inMemory(0, camera.introFrames)) return false;
  if (camera.outroFrames > 0 && to > outroStart && !inMemory(outroStart, camera.frames)) return false;
  return plan.cuts
    .filter((cut) => cut.frame >= from && cut.frame < to)
    .every((cut) => inMemory(cut.frame - cut.weights.length, cut.frame + cut.weights.length + 1));
}

/** The parts one after the other in one file, their frames copied as they are. */
async function joinParts(parts: Array<{ file: string; frames: number }>, outFile: string, format: 'mp4' | 'webm'): Promise<void> {
  const list = `${outFile}.parts.txt`;
  // Each part's length given in whole frames: the next starts exactly where it ends, not where its container's
  // rounded timestamps say.
  await fs.writeFile(
    list,
    parts.map((part) => `file '${path.resolve(part.file).replace(/'/g, "'\\''")}'\nduration ${(part.frames / FPS).toFixed(6)}`).join('\n') + '\n',
  );
  const { ffmpeg } = await ffmpegBinaries();
  try {
    const result = await runTool(
      ffmpeg,
      [
        '-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-f', 'concat', '-safe', '0', '-i', fileArg(list), '-map', '0:v', '-c', 'copy',
        ...(format === 'mp4' ? ['-movflags', '+faststart', '-f', 'mp4'] : ['-f', 'webm']), fileArg(path.resolve(outFile)),
      ],
      120_000,
    );
    if (result.exitCode !== 0) {
      await fs.rm(outFile, { force: true });
      throw new FfmpegError(`The parts could not be joined: ${result.stderr.trim().split('\n').pop() ?? ''}`, result.exitCode, result.stderr);
    }
  } finally {
    await fs.rm(list, { force: true });
  }
}

/** Frame `index` of a video as a PNG `width` wide, read as players read it (BT.709, TV range). */
async function frameToPng(file: string, index: number, width: number, out: string): Promise<{ file: string; width: number; height: number }> {
  const { ffmpeg } = await ffmpegBinaries();
  await fs.mkdir(path.dirname(path.resolve(out)), { recursive: true });
  await fs.rm(out, { force: true });
  const result = await runTool(
    ffmpeg,
    [
      '-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', fileArg(file),
      '-vf', `select=eq(n\\,${index}),scale=${width}:-1:in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgb24`,
      '-frames:v', '1', '-update', '1', '-c:v', 'png', '-f', 'image2', fileArg(path.resolve(out)),
    ],
    60_000,
  );
  const size = result.exitCode === 0 ? pngDimensions((await fs.readFile(out).catch(() => null)) ?? Buffer.alloc(0)) : null;
  if (!size) {
    await fs.rm(out, { force: true });
    throw new InvalidVideoError('no frame could be written for the thumbnail');
  }
  return { file: out, ...size };
}

/**
 * The GIF's own ffmpeg, fed the parts' GIF frames in order as they arrive. With the palette made beforehand, the
 * frames are mapped onto it here (gif-mapping.ts: as paletteuse would, byte for byte, in a ninth of the CPU) and the
 * GIF's ffmpeg only writes them; without one, it makes the palette from the frames and maps them once all are in.
 */
async function feedGif(parts: Part[], palette: Promise<string | null> | null, size: { width: number; height: number }, file: string, dir: string, signal: AbortSignal) {
  const { ffmpeg } = await ffmpegBinaries();
  const paletteFile = await palette;
  const table = paletteFile ? await gifColourTable(ffmpeg, paletteFile, dir).catch(() => null) : null;
  const frameBytes = size.width * size.height * 3;
  const input = (pixelFormat: string) => ['-f', 'rawvideo', '-pix_fmt', pixelFormat, '-s', `${size.width}x${size.height}`, '-framerate', String(12), '-i', 'pipe:0'];
  const out = ['-an', '-loop', '0', '-f', 'gif', `file:${path.resolve(file)}`];
  const args = table
    ? ['-hide_banner', '-loglevel', 'error', '-nostats', '-y', ...input('pal8'), ...out]
    : ['-hide_banner', '-loglevel', 'error', '-nostats', '-y', ...input('rgb24'),
        '-filter_complex', `[0:v]split[gif_a][gif_b];[gif_a]palettegen[gif_p];[gif_b][gif_p]${gifPaletteUse()}[gif]`, '-map', '[gif]', ...out];
  signal.throwIfAborted();
  const encoder = startGifEncoder(ffmpeg, args);
  encoder.child.stdin.on('error', () => undefined);
  // A render that failed: the GIF's ffmpeg, waiting for frames that will not come, is stopped.
  const stop = () => encoder.child.kill('SIGKILL');
  signal.addEventListener('abort', stop, { once: true });
  void encoder.exit.then(() => signal.removeEventListener('abort', stop));
  const send = (chunk: Buffer) =>
    new Promise<void>((resolve) => {
      if (encoder.child.stdin.destroyed || encoder.child.exitCode !== null) return resolve();
      if (encoder.child.stdin.write(chunk)) resolve();
      else encoder.child.stdin.once('drain', resolve);
    });
  // The parts' bytes come as the pipe cut them: gathered into whole frames, each mapped once it is complete.
  const frame = Buffer.allocUnsafe(frameBytes);
  let filled = 0;
  const write = async (chunk: Buffer) => {
    if (!table) return send(chunk);
    for (let at = 0; at < chunk.length; ) {
      const taken = chunk.copy(frame, filled, at, Math.min(chunk.length, at + frameBytes - filled));
      at += taken;
      filled += taken;
      if (filled === frameBytes) {
        filled = 0;
        await send(mapGifFrame(frame, size.width, size.height, table));
      }
    }
  };
  for (const part of parts) {
    if (signal.aborted) break;
    let next = 0;
    // `settled` is set synchronously as the part ends, then `wake` called: checked together, no end is missed.
    for (;;) {
      while (next < part.gif.length) await write(part.gif[next++]!);
      if (part.settled) break;
      await new Promise<void>((resolve) => {
        part.wake = resolve;
        if (next < part.gif.length || part.settled) resolve();
      });
      part.wake = undefined;
    }
    while (next < part.gif.length) await write(part.gif[next++]!);
    // Mapped and handed on: the part's copy is not needed any more.
    part.gif.length = 0;
  }
  encoder.child.stdin.end();
  const done = await encoder.exit;
  if (done.code !== 0) throw new FfmpegError(`The GIF's ffmpeg exited with ${done.code ?? done.signal}: ${encoder.stderr().trim().split('\n').pop() ?? ''}`, done.code, encoder.stderr());
  return { file, ...(await describeGif(file)) };
}
