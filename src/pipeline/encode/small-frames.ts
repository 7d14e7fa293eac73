import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { FfmpegError, fileArg } from './run-tool.js';
import { SMOOTHNESS } from './smoothness.js';

/**
 * The clean capture's small frames, written beside it as the page is captured: every frame 160×90 grey (compose's
 * cut detection, cuts.ts) and every PALETTE_SAMPLE_EVERY-th at a quarter size in colour (the GIF's palette,
 * gif-palette.ts). Each is what decoding that frame's JPEG at a quarter of its size gives, byte for byte.
 *
 * Only the pictures are decoded, not the frames: a frame that repeats the picture before it (a still page, the hold
 * at the end) is the same JPEG, so its small frames are copies of that picture's, written here. Decoding each frame
 * cost the capture's muxer ~1.5 ms a frame, and most frames of a demo repeat one: on the real pages the 95–240 frames
 * after the last change were decoded after the recording had ended (0.25–0.35 s in which the demo waited).
 */

/** One frame in this many of a clean capture is kept in colour at a quarter size, for the GIF's palette. */
export const PALETTE_SAMPLE_EVERY = 10;

/** Where the colour samples go, beside the small grey frames (a YUV4MPEG2 file: its header says the size). */
export function paletteSamplesFile(smallFrames: string): string {
  return smallFrames.replace(/(\.gray)?$/, '.samples.y4m');
}

/**
 * The small frames only save compose a decode of the capture (cuts.ts and gif-palette.ts decode it themselves when
 * the files are missing), so their failure never fails the capture: the files are removed instead.
 */
export interface SmallFrames {
  /** Add the next frame; `picture` is false when it repeats the frame before. Resolves once the decoder takes more. */
  frame(jpeg: Buffer, picture: boolean): Promise<void>;
  /** All frames given: wait for the decoder and the files. False (and no files) when the decoder failed. */
  finish(): Promise<boolean>;
  /** Stop the decoder and remove the files. */
  abort(): Promise<void>;
  readonly pid: number | undefined;
  setNice(nice: number): boolean;
  peakRssBytes(): Promise<number | null>;
}

const GREY_BYTES = SMOOTHNESS.width * SMOOTHNESS.height;

export async function startSmallFrames(options: { file: string; fps: number }): Promise<SmallFrames> {
  const { ffmpeg } = await ffmpegBinaries();
  const samplesFile = paletteSamplesFile(options.file);
  // -lowres is the decoder's: a quarter of the JPEG's size, as cuts.ts decodes the finished capture.
  const child = spawn(ffmpeg, [
    '-hide_banner', '-loglevel', 'error', '-nostdin', '-y',
    '-probesize', '32', '-analyzeduration', '0', '-f', 'image2pipe', '-c:v', 'mjpeg', '-lowres', '2', '-framerate', String(options.fps), '-i', 'pipe:0',
    '-map', '0:v', '-an', '-vf', `scale=${SMOOTHNESS.width}:${SMOOTHNESS.height}`, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1',
    '-map', '0:v', '-an', '-f', 'yuv4mpegpipe', 'pipe:3',
  ], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  const stdin = child.stdin as Writable;
  const grey = child.stdout as Readable;
  const colour = child.stdio[3] as Readable;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure ??= error;
  };
  stdin.on('error', (error) => fail(new FfmpegError(`The small frames' decoder stopped reading (${error.message}): ${lastLine(stderr)}`, null, stderr)));
  child.on('error', (error) => {
    fail(new FfmpegError(`Could not run ${ffmpeg}: ${error.message}`, null, stderr));
    if (child.pid === undefined) child.emit('close', null, null); // never started: no close event would come
  });
  // 'close' comes once the process has ended and all its pipes are closed: every picture has been read by then.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));

  const greyOut = createWriteStream(options.file);
  const samplesOut = createWriteStream(samplesFile);
  greyOut.on('error', fail);
  samplesOut.on('error', fail);

  /** for each frame not written yet, in order: the picture it shows (pictures are numbered from 0 as decoded) */
  const pending: number[] = [];
  let frames = 0;
  let pictures = 0;
  /** the newest picture's small frames, once decoded (a frame only ever shows the newest picture or the one before) */
  const greys = new Map<number, Buffer>();
  const colours = new Map<number, Buffer>();
  let colourHeader: Buffer | null = null;
  let colourFrameBytes = 0;
  let written = 0;

  /** Write every pending frame whose picture has been decoded, in order; drop pictures no frame can show any more. */
  const flush = () => {
    while (pending.length > 0) {
      const picture = pending[0]!;
      const g = greys.get(picture);
      const sample = written % PALETTE_SAMPLE_EVERY === 0;
      const c = sample ? colours.get(picture) : undefined;
      if (!g || (sample && (!c || !colourHeader))) return;
      greyOut.write(g);
      if (sample) {
        if (written === 0) samplesOut.write(colourHeader!);
        samplesOut.write(Buffer.from('FRAME\n'));
        samplesOut.write(c!);
      }
      pending.shift();
      written++;
    }
    for (const map of [greys, colours]) for (const key of map.keys()) if (key < pictures - 1) map.delete(key);
  };

  // The decoder's outputs, cut into whole pictures as they come.
  let greyBuffered = Buffer.alloc(0);
  let greyPictures = 0;
  grey.on('data', (chunk: Buffer) => {
    greyBuffered = Buffer.concat([greyBuffered, chunk]);
    while (greyBuffered.length >= GREY_BYTES) {
      greys.set(greyPictures++, greyBuffered.subarray(0, GREY_BYTES));
      greyBuffered = greyBuffered.subarray(GREY_BYTES);
    }
    flush();
  });
  let colourBuffered = Buffer.alloc(0);
  let colourPictures = 0;
  colour.on('data', (chunk: Buffer) => {
    colourBuffered = Buffer.concat([colourBuffered, chunk]);
    if (!colourHeader) {
      const end = colourBuffered.indexOf(0x0a);
      if (end < 0) return;
      const header = colourBuffered.subarray(0, end + 1);
      const bytes = y4mFrameBytes(header.toString('latin1'));
      if (bytes === null) {
        fail(new FfmpegError(`Unexpected small frames from the decoder: ${header.toString('latin1').trim()}`, null, stderr));
        child.kill('SIGKILL');
        return;
      }
      colourHeader = header;
      colourFrameBytes = bytes;
      colourBuffered = colourBuffered.subarray(end + 1);
    }
    // Each picture: "FRAME\n" and its planes.
    while (colourBuffered.length >= 6 + colourFrameBytes) {
      colours.set(colourPictures++, colourBuffered.subarray(6, 6 + colourFrameBytes));
      colourBuffered = colourBuffered.subarray(6 + colourFrameBytes);
    }
    flush();
  });

  // A file stream closes once ended, or once it failed: either way 'close' comes.
  const closeFiles = () =>
    Promise.all(
      [greyOut, samplesOut].map(
        (stream: WriteStream) =>
          new Promise<void>((resolve) => {
            if (stream.closed || stream.destroyed) return resolve();
            stream.once('close', () => resolve());
            stream.end();
          }),
      ),
    );
  const removeFiles = async () => {
    await closeFiles();
    await fs.rm(options.file, { force: true });
    await fs.rm(samplesFile, { force: true });
  };

  return {
    get pid() {
      return child.pid;
    },
    setNice(nice: number) {
      if (child.pid === undefined || child.exitCode !== null) return false;
      try {
        os.setPriority(child.pid, Math.max(-20, Math.min(19, Math.round(nice))));
        return true;
      } catch {
        return false;
      }
    },
    async peakRssBytes() {
      const status = child.pid === undefined ? null : await fs.readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => null);
      const match = status && /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
      return match ? Number(match[1]) * 1024 : null;
    },
    async frame(jpeg, picture) {
      if (failure) return;
      if (picture || frames === 0) pictures++;
      pending.push(pictures - 1);
      frames++;
      flush();
      if (!(picture || frames === 1)) return;
      if (stdin.write(jpeg)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          child.off('close', done);
          resolve();
        };
        stdin.on('drain', done);
        child.on('close', done);
      });
    },
    async finish() {
      stdin.end();
      const { code, signal } = await exit;
      flush();
      if (!failure && (code !== 0 || pending.length > 0)) {
        fail(new FfmpegError(`The small frames' decoder ${code !== 0 ? `exited with ${code ?? signal}` : `left ${pending.length} frame(s) without a picture`}: ${lastLine(stderr)}`, code, stderr));
      }
      if (failure) {
        await removeFiles();
        return false;
      }
      await closeFiles();
      return true;
    },
    async abort() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
      await removeFiles();
    },
  };
}

/**
 * The bytes of one frame of a YUV4MPEG2 stream whose header is `header`, or null for a layout it does not know. Screen
 * captures are 4:2:0; a JPEG made elsewhere may be 4:2:2, 4:4:4 or grey.
 */
function y4mFrameBytes(header: string): number | null {
  const width = Number(/ W(\d+)/.exec(header)?.[1]);
  const height = Number(/ H(\d+)/.exec(header)?.[1]);
  const chroma = / C(\S+)/.exec(header)?.[1] ?? '420jpeg';
  if (!(width > 0 && height > 0)) return null;
  const luma = width * height;
  if (chroma.startsWith('420')) return luma + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
  if (chroma.startsWith('422')) return luma + 2 * Math.ceil(width / 2) * height;
  if (chroma.startsWith('444') && !chroma.startsWith('444alpha')) return luma * 3;
  if (chroma === 'mono') return luma;
  return null;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
