import Ffmpeg from 'fluent-ffmpeg';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { FfmpegError } from './run-tool.js';

/**
 * Runs one ffmpeg command built with fluent-ffmpeg (the stack's ffmpeg driver) against the resolved binary, with a
 * hard timeout. Failures become FfmpegError carrying the end of ffmpeg's stderr, never a shell or a path leak to
 * users (callers turn them into sentences).
 */
export async function runFluent(build: (command: Ffmpeg.FfmpegCommand) => Ffmpeg.FfmpegCommand, timeoutMs: number): Promise<void> {
  const { ffmpeg } = await ffmpegBinaries();
  const command = build(Ffmpeg({ timeout: Math.ceil(timeoutMs / 1000), stdoutLines: 20 }).setFfmpegPath(ffmpeg));
  await new Promise<void>((resolve, reject) => {
    command
      .on('end', () => resolve())
      .on('error', (error: Error, _stdout: string | null, stderr: string | null) => {
        const tail = (stderr ?? error.message).trim().split('\n').slice(-4).join('\n').slice(-4096);
        reject(new FfmpegError(`ffmpeg failed: ${tail.split('\n').pop() ?? error.message}`, null, tail));
      })
      .run();
  });
}
