import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';

const run = promisify(execFile);

/** One decoded frame as raw RGB, downscaled to `width`×`height` so comparisons are cheap. */
export async function frameAt(file: string, seconds: number, width = 64, height = 36): Promise<Buffer> {
  const { ffmpeg } = await ffmpegBinaries();
  const { stdout } = await run(
    ffmpeg,
    ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 10 * 1024 * 1024 },
  );
  return stdout as unknown as Buffer;
}

/** Mean absolute difference per channel between two frames (0–255). */
export function frameDifference(a: Buffer, b: Buffer): number {
  let total = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) total += Math.abs(a[i]! - b[i]!);
  return total / Math.min(a.length, b.length);
}

/** Standard deviation of luminance: near 0 for a blank (single-colour) frame. */
export function frameDetail(frame: Buffer): number {
  const values: number[] = [];
  for (let i = 0; i + 2 < frame.length; i += 3) values.push(0.2126 * frame[i]! + 0.7152 * frame[i + 1]! + 0.0722 * frame[i + 2]!);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
}

/**
 * ffmpeg's PSNR of b against a: the average over every frame and the worst frame's (Infinity when identical). Two
 * videos composed from the same pictures differ by a few bits when the compositor split them into parts at other
 * frames (compose-ahead.ts and join-parts.ts split by what else is running), so "the same video" is compared here.
 */
export async function picturePsnr(a: string, b: string): Promise<{ average: number; worst: number }> {
  const { ffmpeg } = await ffmpegBinaries();
  const { stderr } = await run(ffmpeg, ['-hide_banner', '-i', a, '-i', b, '-lavfi', 'psnr', '-f', 'null', '-']);
  const read = (name: string) => {
    const value = new RegExp(`${name}:(inf|[\\d.]+)`).exec(stderr)?.[1];
    return value === 'inf' ? Infinity : Number(value ?? 0);
  };
  return { average: read('average'), worst: read('min') };
}
