import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { fileArg, runTool } from './run-tool.js';

/**
 * Motion smoothness of a finished video, the same figure as `../shared/tools/smoothness.py` (ported, not called):
 * in stretches where the picture moves, how often does a frame repeat the previous one (a stall the eye sees as
 * judder)?
 *
 * Every frame is decoded at 160x90 grey. d[k] = mean |frame k+1 − frame k|. Change k is "moving" when the largest
 * d over k−3 … k+3 is above MOVE (2.0 grey levels); a moving change below SAME (0.15) is a stall: the same picture
 * shown again while motion goes on. Reported: moving changes, stalls, their ratio, the longest run of stalls in ms
 * ((run + 1) frames, as the script counts it) and distinct frames per second while moving.
 *
 * Beside the script's figures, not in them: the stalls *within* motion, those with a change above MOVE inside the
 * window on both sides. The window also counts the still changes at a motion's edges, up to three before a motion
 * starts and three after it stops, where the page or the camera stands still (issue 58): a `<details>` that opens in
 * one frame is six such stalls, a camera whose last step re-samples the picture (d ≈ 2.2 for a 1-px crop change) three.
 * A picture repeated while the motion goes on before and after it, the judder the measure is for, is within.
 */
export const SMOOTHNESS = { width: 160, height: 90, move: 2.0, same: 0.15, window: 3 } as const;

export interface Smoothness {
  fps: number;
  frames: number;
  movingFrames: number;
  stalls: number;
  /** stalls with a change above MOVE within the window on both sides: a repeat in the middle of motion (not in the script) */
  stallsWithinMotion: number;
  /** stalls / moving frames, rounded to 3 decimals as the script prints it (0 when nothing moves) */
  stallRatio: number;
  longestStallMs: number;
  distinctFpsMoving: number;
  /** d[k] for each change, for tests that look at one stretch */
  diffs: Float64Array;
  /** per change: moving, and a stall */
  moving: boolean[];
  stalled: boolean[];
}

/** Decode a video and measure it. */
export async function measureSmoothness(file: string): Promise<Smoothness> {
  const { ffmpeg, ffprobe } = await ffmpegBinaries();
  // The script reads r_frame_rate (probeVideo prefers avg_frame_rate).
  const probed = await runTool(
    ffprobe,
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=r_frame_rate', '-of', 'csv=p=0', fileArg(file)],
    60_000,
  );
  const [num, den] = probed.stdout.toString('utf8').trim().split('/').map(Number);
  const fps = num && den ? num / den : 30;
  const { width: W, height: H } = SMOOTHNESS;
  const decoded = await runTool(
    ffmpeg,
    ['-hide_banner', '-v', 'error', '-nostdin', '-i', fileArg(file), '-vf', `scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    300_000,
  );
  if (decoded.exitCode !== 0) throw new Error(`Could not decode ${file} to measure it: ${decoded.stderr}`);
  return smoothnessOf(decoded.stdout, fps);
}

/** The measure over raw grey frames of 160x90 bytes each, back to back. */
/** The mean absolute difference between small frames k and k + 1 of `raw` (SMOOTHNESS's size), in grey levels. */
export function frameDifference(raw: Uint8Array, k: number): number {
  const size = SMOOTHNESS.width * SMOOTHNESS.height;
  let sum = 0;
  const a = k * size;
  const b = a + size;
  for (let i = 0; i < size; i++) sum += Math.abs(raw[b + i]! - raw[a + i]!);
  return sum / size;
}

export function smoothnessOf(raw: Buffer, fps: number): Smoothness {
  const { width: W, height: H, move, same, window } = SMOOTHNESS;
  const size = W * H;
  const frames = Math.floor(raw.length / size);
  const n = Math.max(0, frames - 1);
  const diffs = new Float64Array(n);
  for (let k = 0; k < n; k++) diffs[k] = frameDifference(raw, k);
  const moving: boolean[] = [];
  const stalled: boolean[] = [];
  let stalls = 0;
  let stallsWithinMotion = 0;
  let longest = 0;
  let run = 0;
  for (let k = 0; k < n; k++) {
    let peak = 0;
    for (let j = Math.max(0, k - window); j <= Math.min(n - 1, k + window); j++) peak = Math.max(peak, diffs[j]!);
    const m = peak > move;
    // numpy compares float32 means; a float64 mean differs only far below the thresholds' precision.
    const s = m && diffs[k]! < same;
    moving.push(m);
    stalled.push(s);
    if (s) stalls++;
    if (s && movesWithin(diffs, k - window, k - 1) && movesWithin(diffs, k + 1, k + window)) stallsWithinMotion++;
    run = s ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const movingFrames = moving.filter(Boolean).length;
  const distinct = movingFrames ? (movingFrames - stalls) / (movingFrames / fps) : 0;
  return {
    fps: Math.round(fps * 100) / 100,
    frames,
    movingFrames,
    stalls,
    stallsWithinMotion,
    stallRatio: movingFrames ? Math.round((stalls / movingFrames) * 1000) / 1000 : 0,
    longestStallMs: longest ? Math.round(((longest + 1) * 1000) / fps) : 0,
    distinctFpsMoving: Math.round(distinct * 10) / 10,
    diffs,
    moving,
    stalled,
  };
}

/** Whether a change in from … to (clipped to the video) is above MOVE. */
function movesWithin(diffs: Float64Array, from: number, to: number): boolean {
  for (let j = Math.max(0, from); j <= Math.min(diffs.length - 1, to); j++) if (diffs[j]! > SMOOTHNESS.move) return true;
  return false;
}
