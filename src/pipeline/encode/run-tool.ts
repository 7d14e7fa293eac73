import { spawn } from 'node:child_process';
import path from 'node:path';

/** ffmpeg or ffprobe failed for a reason of ours (missing binary, crash, timeout): a fault, logged, never shown. */
export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export interface ToolResult {
  exitCode: number;
  stdout: Buffer;
  /** the last few KB only; enough for ffmpeg's final error line */
  stderr: string;
}

const STDERR_TAIL = 4096;
const STDOUT_LIMIT = 16 * 1024 * 1024;

/**
 * Runs a tool without a shell (arguments are never parsed), with stdin closed and a hard timeout that kills it.
 * Resolves with the exit code, whatever it is; callers decide what a non-zero exit means for their input.
 */
export function runTool(binary: string, args: string[], timeoutMs: number): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let failure: FfmpegError | null = null;
    const stop = (message: string) => {
      failure ??= new FfmpegError(message, null, stderr);
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(`${path.basename(binary)} did not finish within ${timeoutMs} ms.`), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > STDOUT_LIMIT) stop(`${path.basename(binary)} wrote more than ${STDOUT_LIMIT} bytes of output.`);
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new FfmpegError(`Could not run ${binary}: ${error.message}`, null, stderr));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code === null) return reject(new FfmpegError(`${path.basename(binary)} was killed by ${signal}.`, null, stderr));
      resolve({ exitCode: code, stdout: Buffer.concat(stdout), stderr: stderr.trim() });
    });
  });
}

/**
 * Input options for files we did not make ourselves: only the local file protocol and only the MP4/MOV and
 * Matroska/WebM demuxers, so a crafted file (an HLS or concat playlist, say) cannot make ffmpeg fetch URLs or
 * read other local files, and an image is not mistaken for a video. Put them right before the input.
 */
export const INPUT_GUARD: readonly string[] = ['-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska'];

/** `file:` and an absolute path, so a name like `http:x` or `-y` is never read as a URL or an option. */
export function fileArg(file: string): string {
  return `file:${path.resolve(file)}`;
}
