import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { FfmpegError, fileArg } from './run-tool.js';
import { type SmallFrames, startSmallFrames } from './small-frames.js';

/**
 * A streaming encoder: JPEG frames in (one per output frame, at a constant rate), an MP4 (H.264) or WebM (VP9)
 * file out. One ffmpeg process reads the frames from stdin as `image2pipe` MJPEG; `writeFrame` resolves when the
 * pipe accepts more, so a slow encoder slows the producer instead of piling frames up in memory.
 *
 * This is the plain render: the frames are scaled to fit the output size (keeping the aspect ratio, even
 * dimensions) and centred on black padding; nothing is drawn over them. Only filters present in ffmpeg 4.1.
 */

export type VideoFormat = 'mp4' | 'webm';

export interface VideoEncoderOptions {
  format: VideoFormat;
  /** output size; both even (1280x720, 1920x1080) */
  width: number;
  height: number;
  /**
   * Write the clean capture instead of a final video: the JPEG frames copied into Matroska at their own size
   * (`format`, `width`, `height`, `crf`, `preset` are then unused). The compositor renders the final video from it.
   */
  capture?: boolean;
  /**
   * With `capture`: also write every frame as 160×90 grey rawvideo to this file, decoded cheaply (MJPEG at a quarter
   * of its size) exactly as compose's cut detection decodes the finished capture (cuts.ts). Written while the page is
   * captured, by the muxer that already reads the frames, on the core capture leaves idle: compose then reads them
   * instead of decoding the whole capture again (~0.4 s at 1080p, 10 s).
   */
  smallFrames?: string;
  /** the input frame rate, which is also the output's; default 30 */
  fps?: number;
  outFile: string;
  /** x264 CRF (default 23) or VP9 CRF (default 33) */
  crf?: number;
  /** x264 preset, default `veryfast` */
  preset?: string;
  /** fail when ffmpeg has not exited this long after finish(); default 120 s */
  finishTimeoutMs?: number;
  /**
   * Scheduling niceness for ffmpeg (0 = normal, 19 = lowest). A recorder sets it above 0 so that capture, which
   * cannot be redone, gets the CPU first and encoding catches up in quiet moments. Best effort.
   */
  nice?: number;
}

export interface EncodeResult {
  outFile: string;
  framesWritten: number;
  /** the frames at `fps`, i.e. the video's duration */
  durationMs: number;
  /** ffmpeg's peak resident memory (VmHWM), sampled while it ran; null where /proc is unavailable */
  peakRssBytes: number | null;
  /** wall time from the first frame written to ffmpeg's exit */
  encodeWallMs: number;
  /** wall time from finish() to ffmpeg's exit: what encoding added after the last frame */
  drainMs: number;
}

export interface VideoEncoder {
  readonly pid: number | undefined;
  readonly framesWritten: number;
  /** Queue one JPEG frame; resolves once ffmpeg's stdin can take more. Rejects once ffmpeg has failed. */
  writeFrame(jpeg: Buffer): Promise<void>;
  /** End the input and wait for ffmpeg to finish the file. Rejects (and removes the file) on a non-zero exit. */
  finish(): Promise<EncodeResult>;
  /** Kill ffmpeg and remove the partial file. Safe to call at any time, more than once. */
  abort(): Promise<void>;
  /** ffmpeg's peak resident memory so far (bytes), or null */
  peakRssBytes(): number | null;
  /** Change ffmpeg's niceness; lowering it may need privileges, so this is best effort. Returns whether it took. */
  setNice(nice: number): boolean;
}

export { PALETTE_SAMPLE_EVERY, paletteSamplesFile } from './small-frames.js';

export const OUTPUT_SIZES = {
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
} as const;

/** The ffmpeg arguments, exposed for tests and logs. */
export function encoderArgs(options: VideoEncoderOptions): string[] {
  const fps = options.fps ?? 30;
  if (options.capture) {
    // The clean capture for the compositor: the screencast's JPEGs as they are, in Matroska (timestamps, seekable).
    // Nothing is decoded or encoded while the page is captured, and nothing is lost to a second lossy generation.
    if (!(fps > 0 && fps <= 120)) throw new RangeError('fps must be above 0 and at most 120.');
    // The small frames beside it come from a decoder of their own (small-frames.ts), fed only the new pictures.
    return [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-probesize', '32', '-analyzeduration', '0', '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(fps), '-i', 'pipe:0',
      '-map', '0:v', '-an', '-c:v', 'copy', '-f', 'matroska', fileArg(options.outFile),
    ];
  }
  return [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-probesize', '32', '-analyzeduration', '0', '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(fps), '-i', 'pipe:0',
    ...plainOutputArgs(options),
  ];
}

/**
 * The plain render's output side, after its input: frames fitted into WxH and centred on black, the frame rate,
 * colour tags and codec, then the file. encoderArgs uses it; exposed so the same render can be applied to another
 * input (the render benchmark encodes a clean capture with it).
 */
export function plainOutputArgs(options: Pick<VideoEncoderOptions, 'format' | 'width' | 'height' | 'fps' | 'outFile' | 'crf' | 'preset'>): string[] {
  const { width: W, height: H, format } = options;
  const fps = options.fps ?? 30;
  if (!Number.isInteger(W) || !Number.isInteger(H) || W <= 0 || H <= 0 || W % 2 || H % 2) {
    throw new RangeError(`The output size must be positive even integers, not ${W}x${H}.`);
  }
  if (!(fps > 0 && fps <= 120)) throw new RangeError('fps must be above 0 and at most 120.');
  // Fit inside WxH with even dimensions (force_divisible_by is newer than 4.1), then centre on black.
  const fit = `min(${W}/iw\\,${H}/ih)`;
  const filter = [
    `scale=w='trunc(iw*${fit}/2)*2':h='trunc(ih*${fit}/2)*2':flags=bicubic:out_color_matrix=bt709:out_range=tv`,
    `pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=black`,
    'setsar=1',
    'format=yuv420p',
  ].join(',');
  return [
    '-an', '-vf', filter, '-r', String(fps), '-pix_fmt', 'yuv420p',
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
    ...codecArgs(format, options), fileArg(options.outFile),
  ];
}

/**
 * Output codec arguments of a final video: H.264 in MP4 (faststart) or VP9 in WebM; shared with the compositor.
 * x264 runs `veryfast` with superfast's motion search (diamond, subpel 1, fewer partitions): about a quarter less
 * CPU on our screen recordings for files ~5 % larger at the same CRF; veryfast's macroblock tree and lookahead stay,
 * which is what keeps the size (plain superfast made files 2.8× larger at CRF 23).
 */
export function codecArgs(format: VideoFormat, options: { crf?: number; preset?: string } = {}): string[] {
  return format === 'mp4'
    ? [
        '-c:v', 'libx264', '-preset', options.preset ?? 'veryfast', ...(options.preset ? [] : ['-x264-params', 'me=dia:subme=1:partitions=i8x8,i4x4']),
        '-crf', String(options.crf ?? 23), '-movflags', '+faststart', '-f', 'mp4',
      ]
    : ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1', '-b:v', '0', '-crf', String(options.crf ?? 33), '-f', 'webm'];
}

export async function startVideoEncoder(options: VideoEncoderOptions): Promise<VideoEncoder> {
  const args = encoderArgs(options);
  const fps = options.fps ?? 30;
  const { ffmpeg } = await ffmpegBinaries();
  await fs.mkdir(path.dirname(path.resolve(options.outFile)), { recursive: true });

  const small: SmallFrames | null = options.capture && options.smallFrames ? await startSmallFrames({ file: options.smallFrames, fps }) : null;
  const child: ChildProcessWithoutNullStreams = spawn(ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let previous: Buffer | null = null;
  let stderr = '';
  let failure: Error | null = null;
  let exited = false;
  let framesWritten = 0;
  let firstFrameAt: number | null = null;
  let peakRss: number | null = null;
  let aborted = false;

  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      exited = true;
      clearInterval(sampler);
      resolve({ code, signal });
    });
  });
  child.on('error', (error) => {
    failure ??= new FfmpegError(`Could not run ${ffmpeg}: ${error.message}`, null, stderr);
    if (child.pid === undefined) child.emit('close', null, null); // never started: no close event would come
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  child.stdout.resume();
  // EPIPE when ffmpeg dies early: the exit handler reports the real reason.
  child.stdin.on('error', (error) => {
    failure ??= new FfmpegError(`ffmpeg stopped reading its input (${error.message}): ${lastLine(stderr)}`, null, stderr);
  });

  const sampleRss = async () => {
    if (child.pid === undefined || exited) return;
    const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => null);
    const match = status && /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    // The two processes of a capture run together: their peaks are summed.
    const smallPeak = small ? ((await small.peakRssBytes()) ?? 0) : 0;
    if (match) peakRss = Math.max(peakRss ?? 0, Number(match[1]) * 1024 + smallPeak);
  };
  const setNice = (nice: number) => {
    small?.setNice(nice);
    if (child.pid === undefined || exited) return false;
    try {
      os.setPriority(child.pid, Math.max(-20, Math.min(19, Math.round(nice))));
      return true;
    } catch {
      return false;
    }
  };
  if (options.nice) setNice(options.nice);
  const sampler = setInterval(() => void sampleRss(), 200);
  sampler.unref();

  /** the encoder's files: a failure or an abort leaves none of them */
  const removeFiles = async () => {
    await fs.rm(options.outFile, { force: true });
    await small?.abort();
  };
  const dead = () => failure ?? (exited ? new FfmpegError(`ffmpeg exited early: ${lastLine(stderr)}`, null, stderr) : null);

  const encoder: VideoEncoder = {
    get pid() {
      return child.pid;
    },
    get framesWritten() {
      return framesWritten;
    },
    peakRssBytes: () => peakRss,
    setNice,
    async writeFrame(jpeg: Buffer) {
      const error = dead();
      if (error) throw error;
      if (aborted) throw new Error('The encoder was aborted.');
      firstFrameAt ??= Date.now();
      framesWritten++;
      // A frame that repeats the one before is the same buffer (frame-capture.ts writes its last picture again).
      const decoding = small?.frame(jpeg, jpeg !== previous);
      decoding?.catch(() => undefined); // awaited below; not unhandled meanwhile
      previous = jpeg;
      if (child.stdin.write(jpeg)) return void (await decoding);
      if (exited) throw dead() ?? new Error('ffmpeg has exited.');
      await new Promise<void>((resolve, reject) => {
        const cleanup = () => {
          child.stdin.off('drain', onDrain);
          child.off('close', onClose);
        };
        const onDrain = () => {
          cleanup();
          resolve();
        };
        const onClose = () => {
          cleanup();
          reject(dead() ?? new Error('ffmpeg has exited.'));
        };
        child.stdin.on('drain', onDrain);
        child.on('close', onClose);
      });
      await decoding;
    },
    async finish() {
      const finishAt = Date.now();
      if (!exited) {
        await sampleRss();
        child.stdin.end();
      }
      // The small frames' decoder ends with the muxer: its last pictures are decoded while the muxer closes the file.
      // Its failure only costs compose a decode of the capture (small-frames.ts).
      const smallDone = small && framesWritten > 0 ? small.finish().catch(() => false) : Promise.resolve(false);
      const timeoutMs = options.finishTimeoutMs ?? 120_000;
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        exit,
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (result === null) {
        child.kill('SIGKILL');
        await exit;
        await removeFiles();
        throw new FfmpegError(`ffmpeg did not finish within ${timeoutMs} ms.`, null, stderr);
      }
      if (aborted) throw new Error('The encoder was aborted.');
      const smallWritten = await Promise.race([smallDone, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
      clearTimeout(timer);
      if (small && !smallWritten) await small.abort();
      if (result.code !== 0 || framesWritten === 0) {
        await removeFiles();
        if (framesWritten === 0) throw new FfmpegError('No frame was written to the encoder.', result.code, stderr);
        throw failure ?? new FfmpegError(`ffmpeg exited with ${result.code ?? result.signal}: ${lastLine(stderr)}`, result.code, stderr);
      }
      const end = Date.now();
      return {
        outFile: options.outFile,
        framesWritten,
        durationMs: Math.round((framesWritten * 1000) / fps),
        peakRssBytes: peakRss,
        encodeWallMs: end - (firstFrameAt ?? finishAt),
        drainMs: end - finishAt,
      };
    },
    async abort() {
      aborted = true;
      if (!exited) {
        child.stdin.destroy();
        child.kill('SIGKILL');
        await exit;
      }
      await removeFiles();
    },
  };
  return encoder;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
