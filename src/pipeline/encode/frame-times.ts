import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { InvalidVideoError } from './probe.js';
import { fileArg, INPUT_GUARD, runTool } from './run-tool.js';

/**
 * The presentation time of every frame of the first video stream, in seconds, ascending, on the clock ffmpeg's
 * filters see as `t`: relative to the file's start time (ffmpeg shifts inputs by it unless -copyts). Read from the
 * packet index, so nothing is decoded: about 30 ms for 30 s of 1080p. The container's duration is not used: it
 * can be missing (MediaRecorder WebM) or span a longer audio track, and the last frame is what matters.
 */
export async function readFrameTimes(file: string, options: { timeoutMs?: number } = {}): Promise<number[]> {
  const { ffprobe } = await ffmpegBinaries();
  const args = [
    '-v', 'error',
    '-select_streams', 'v:0',
    '-show_entries', 'packet=pts_time,flags:format=start_time',
    '-print_format', 'csv=print_section=1',
    ...INPUT_GUARD,
    fileArg(file),
  ];
  const result = await runTool(ffprobe, args, options.timeoutMs ?? 60_000);
  if (result.exitCode !== 0) throw new InvalidVideoError(result.stderr || `ffprobe exited with ${result.exitCode}`);

  let start = 0;
  const times: number[] = [];
  for (const line of result.stdout.toString('utf8').split('\n')) {
    const [section, value, flags] = line.trim().split(',');
    const seconds = Number(value);
    if (value === undefined || value === 'N/A' || !Number.isFinite(seconds)) continue;
    if (section === 'format') start = seconds;
    // D: a packet the demuxer marks to be discarded (before an MP4 edit list's start); it is never shown.
    else if (section === 'packet' && !flags?.includes('D')) times.push(seconds);
  }
  // Packets come in decode order; B-frames make that differ from presentation order.
  return times.map((t) => t - start).sort((a, b) => a - b);
}

/**
 * `count` frames spread evenly from the first frame to the last, each the frame nearest its ideal moment; a single
 * pick is the middle one. Never more than the video has: a clip shorter than `count` frames yields each frame once.
 */
export function spreadEvenly(frameTimes: readonly number[], count: number): number[] {
  if (frameTimes.length === 0 || count < 1) return [];
  const first = frameTimes[0]!;
  const last = frameTimes[frameTimes.length - 1]!;
  const ideals = count === 1 ? [(first + last) / 2] : Array.from({ length: count }, (_, i) => first + ((last - first) * i) / (count - 1));
  const picked: number[] = [];
  for (const ideal of ideals) {
    const time = nearest(frameTimes, ideal);
    if (picked[picked.length - 1] !== time) picked.push(time);
  }
  return picked;
}

/** Binary search in ascending `times` for the value closest to `target`. */
function nearest(times: readonly number[], target: number): number {
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! < target) low = middle + 1;
    else high = middle;
  }
  const after = times[low]!;
  const before = times[Math.max(0, low - 1)]!;
  return target - before <= after - target ? before : after;
}
