import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { FfmpegError } from '../encode/run-tool.js';

/**
 * Runs the compositor's ffmpeg (compose.ts builds its arguments): click-effect frames written to its stdin, progress
 * read from its stdout, its peak memory sampled; and, when the render makes a GIF, the GIF's own ffmpeg beside it
 * (side-outputs.ts), fed through the compositor's fd 3. Resolves to the compositor's peak RSS (VmHWM), or null.
 */
export async function runComposer(
  args: string[],
  options: {
    /** the GIF's own ffmpeg (SideOutputs.gifEncoder): reads on stdin what the compositor writes on its fd 3 */
    gifEncoder: ((palette: string | null) => string[]) | null;
    /**
     * The GIF's palette, made beside the compositor's start (gif-palette.ts): the GIF's ffmpeg starts once it is
     * known (what the compositor writes for it meanwhile is held here); null or a failure, and the GIF's ffmpeg
     * makes its palette from the frames themselves, as before.
     */
    gifPalette?: Promise<string | null> | null;
    frames: number;
    timeoutMs: number;
    onProgress?: ((fraction: number) => void) | undefined;
    writeEffects: ((write: (frame: Buffer) => Promise<void>) => Promise<void>) | null;
    /** what the compositor writes on its fd 3, when no GIF encoder reads it (a part's GIF frames, render-range.ts) */
    fd3?: ((chunk: Buffer) => void) | null;
    /** inputs on pipes of their own (fd 4 and up), each written by its own function */
    feeds?: ComposerFeed[];
    /** the compositor's process id, once started (to change its niceness) */
    onSpawn?: ((pid: number | undefined) => void) | undefined;
    /** scheduling niceness to start with; best effort */
    nice?: number;
  },
): Promise<number | null> {
  const { ffmpeg } = await ffmpegBinaries();
  const feeds = options.feeds ?? [];
  const fds = Math.max(options.gifEncoder || options.fd3 ? 4 : 3, ...feeds.map((feed) => feed.fd + 1));
  // (stdin, stdout and stderr are pipes; the extra descriptors do not change that, only the inferred type)
  const child = spawn(ffmpeg, args, { stdio: Array.from({ length: fds }, () => 'pipe' as const) }) as unknown as ChildProcessWithoutNullStreams;
  if (options.nice && child.pid !== undefined) {
    try {
      os.setPriority(child.pid, options.nice);
    } catch {
      // best effort
    }
  }
  options.onSpawn?.(child.pid);
  if (options.fd3) {
    const onData = options.fd3;
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => onData(chunk));
  }
  const fed = feeds.map((feed) => {
    const stream = child.stdio[feed.fd] as Writable;
    stream.on('error', () => undefined); // ffmpeg exiting early: its exit status says why
    return feed.write(stream).catch(() => undefined);
  });
  let gif: GifEncoder | null = null;
  let ended = false;
  let gifStarted: Promise<GifEncoder> | null = null;
  const gifArgs = options.gifEncoder;
  if (gifArgs) {
    // The GIF's frames, as the compositor writes them on its fd 3, held until the GIF's ffmpeg can take them (a
    // few frames: the palette takes a fraction of a second), so the compositor never waits for the palette.
    const held = new PassThrough({ highWaterMark: HELD_GIF_BYTES });
    (child.stdio[3] as Readable).pipe(held);
    gifStarted = Promise.resolve(options.gifPalette ?? null)
      .catch(() => null)
      .then((palette) => {
        // The render already ended (failed): no GIF's ffmpeg is started for it.
        if (ended) throw new FfmpegError('The render ended before the GIF could start.', null, '');
        const encoder = startGifEncoder(ffmpeg, gifArgs(palette));
        gif = encoder;
        encoder.child.stdin.on('error', () => undefined); // the GIF's ffmpeg exiting early: its exit status says why
        held.pipe(encoder.child.stdin);
        return encoder;
      });
  }
  let stderr = '';
  let peak: number | null = null;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  child.stdout.on('data', (chunk: Buffer) => {
    const match = /frame=(\d+)\s*$/m.exec(chunk.toString('utf8'));
    if (match && options.onProgress) {
      try {
        options.onProgress(Math.min(1, Number(match[1]) / options.frames));
      } catch {
        // reporting must not break the render
      }
    }
  });
  const sampler = setInterval(() => {
    if (child.pid === undefined) return;
    fs.readFile(`/proc/${child.pid}/status`, 'utf8').then(
      (status) => {
        const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
        if (match) peak = Math.max(peak ?? 0, Number(match[1]) * 1024);
      },
      () => undefined,
    );
  }, 250);
  const timer = setTimeout(() => {
    child.kill('SIGKILL');
    (gif as GifEncoder | null)?.child.kill('SIGKILL');
  }, options.timeoutMs);
  child.stdin.on('error', () => undefined); // ffmpeg exiting early: its exit status says why
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', (error) => reject(new FfmpegError(`Could not run ffmpeg: ${error.message}`, null, stderr)));
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const write = (frame: Buffer) =>
    new Promise<void>((resolve) => {
      if (child.stdin.destroyed || child.exitCode !== null) return resolve();
      if (child.stdin.write(frame)) resolve();
      else {
        const done = () => {
          child.stdin.off('drain', done);
          child.off('close', done);
          resolve();
        };
        child.stdin.once('drain', done);
        child.once('close', done);
      }
    });
  try {
    if (options.writeEffects) await options.writeEffects(write);
    child.stdin.end();
    const { code, signal } = await exit;
    await Promise.all(fed);
    if (code !== 0) {
      const reason = code === null ? `was killed (${signal})` : `exited with ${code}`;
      throw new FfmpegError(`The compositor's ffmpeg ${reason}: ${stderr.trim().split('\n').pop() ?? ''}`, code, stderr);
    }
    if (gifStarted) {
      const started = await gifStarted;
      const done = await started.exit;
      if (done.code !== 0) {
        const reason = done.code === null ? `was killed (${done.signal})` : `exited with ${done.code}`;
        throw new FfmpegError(`The GIF's ffmpeg ${reason}: ${started.stderr().trim().split('\n').pop() ?? ''}`, done.code, started.stderr());
      }
    }
    return peak;
  } finally {
    ended = true;
    gifStarted?.catch(() => undefined);
    clearTimeout(timer);
    clearInterval(sampler);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    const running = gif as GifEncoder | null;
    if (running && running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
  }
}

/** An input of the compositor on a pipe of its own: `write` writes it all to `stream` and ends it. */
export interface ComposerFeed {
  fd: number;
  write(stream: Writable): Promise<void>;
}

type GifEncoder = ReturnType<typeof startGifEncoder>;

/** At most this much of the GIF's frames is held while its palette is made (~100 frames at 640 px; a few are). */
const HELD_GIF_BYTES = 64 * 1024 * 1024;

export function startGifEncoder(ffmpeg: string, args: string[]) {
  const child = spawn(ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('error', (error) => {
      stderr += `\nCould not run ffmpeg: ${error.message}`;
      resolve({ code: -1, signal: null });
    });
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, exit, stderr: () => stderr };
}
