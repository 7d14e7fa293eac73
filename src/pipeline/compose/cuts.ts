import fs from 'node:fs/promises';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { fileArg, runTool } from '../encode/run-tool.js';
import { SMOOTHNESS, smoothnessOf } from '../encode/smoothness.js';

/**
 * Cuts in the clean capture: the page's picture jumps in one frame next to a still one (an accordion or a menu that
 * opens without animating, a modal, a navigation). Frame capture shows the page exactly, so such a jump is one big
 * change between stills, which the eye reads as a hitch and smoothness.py counts as stalls (the still frames within
 * three of it). The compositor turns each cut into a short dissolve (filter-graph.ts, with tmix): the new picture
 * comes in over a few frames starting at the cut, the first and last three of them by a small step each.
 *
 * Found by the same measure smoothness.py uses (160×90 grey, mean absolute difference), on a cheap decode of the
 * capture (MJPEG decoded at a quarter of its size), with half its threshold: the capture fills only part of the
 * composed frame, but the zoom can magnify it, and a cheap decode blurs small text; a small change dissolved for
 * nothing costs two softened frames.
 */
export interface Cut {
  /** the first frame showing the new picture */
  frame: number;
  /** the change, in smoothness.py's grey levels */
  change: number;
  /** tmix weights, oldest frame first: the share of the new picture each frame of the dissolve adds */
  weights: number[];
}

/**
 * The picture's change on each step at the ends of a dissolve: visible as motion (above smoothness.py's SAME, 0.15,
 * even once the capture is a part of the composed frame), and small enough to stay below its MOVE, 2.0, when
 * another gentle motion (the fade-out's first frames, a camera move's last) happens on the same frame.
 */
const RAMP_CHANGE = 0.6;
/** a change at least this large next to a still frame is a cut (smoothness.py's MOVE is 2.0) */
const CUT_CHANGE = 1.0;
/** at most this much change per frame in the middle of a dissolve */
const MIDDLE_CHANGE = 20;
/** a change up to nine of these is dissolved in equal steps of at most this */
const SMALL_STEP = 1.2;
const RAMP_STEPS = 3;

/**
 * The cuts of a clean capture (MJPEG in Matroska, or any video ffmpeg decodes). `smallFrames`: the same frames at
 * 160×90 grey, written by the muxer while the capture was made (video-encoder.ts), decoded exactly as here; used
 * instead of decoding the capture again when it holds whole frames.
 */
export async function findCuts(cleanFile: string, codec: string, smallFrames?: string | null): Promise<Cut[]> {
  const { width: W, height: H } = SMOOTHNESS;
  const written = smallFrames ? await fs.readFile(smallFrames).catch(() => null) : null;
  if (written && written.length > 0 && written.length % (W * H) === 0) return cutsIn(smoothnessOf(written, 30).diffs);
  return cutsIn(smoothnessOf(await decodeSmallFrames(cleanFile, codec), 30).diffs);
}

/** The capture's frames at 160×90 grey, decoded cheaply (MJPEG at a quarter of its size): what cuts are found in. */
export async function decodeSmallFrames(cleanFile: string, codec: string): Promise<Buffer> {
  const { width: W, height: H } = SMOOTHNESS;
  const { ffmpeg } = await ffmpegBinaries();
  const decoded = await runTool(
    ffmpeg,
    [
      '-hide_banner', '-v', 'error', '-nostdin', ...(codec === 'mjpeg' ? ['-lowres', '2'] : []), '-i', fileArg(cleanFile),
      '-vf', `scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-',
    ],
    300_000,
  );
  if (decoded.exitCode !== 0) throw new Error(`Could not decode the capture to find its cuts: ${decoded.stderr}`);
  return decoded.stdout;
}

/**
 * Cuts from the frame-to-frame changes (diffs[k]: frame k → k+1): a change above CUT_CHANGE next to a still change
 * (below smoothness.py's SAME) on either side. Cuts closer than a dissolve to the previous one are left to it.
 */
export function cutsIn(diffs: ArrayLike<number>): Cut[] {
  const { same } = SMOOTHNESS;
  const cuts: Cut[] = [];
  let busyUntil = -1;
  for (let k = 0; k < diffs.length; k++) {
    const change = diffs[k]!;
    if (!(change > CUT_CHANGE)) continue;
    const stillBefore = k > 0 && diffs[k - 1]! < same;
    const stillAfter = k + 1 < diffs.length && diffs[k + 1]! < same;
    const frame = k + 1;
    const weights = dissolveWeights(change);
    // The dissolve reads the frames before the cut (tmix mixes a window of them): none before the video starts.
    if ((!stillBefore && !stillAfter) || frame <= busyUntil || frame - weights.length < 0) continue;
    cuts.push({ frame, change, weights });
    busyUntil = frame + weights.length;
  }
  return cuts;
}

/**
 * The cuts that are not the page being scrolled. A scroll that starts briskly (a short correction after another
 * scroll, ~13 px a frame from a still page) looks like a cut to the frames alone, and a dissolve over a moving page
 * shows it three times over, stacked (seen on a volunteer form). The recording's timeline knows when it scrolled:
 * a cut within a frame of a change of scroll position is motion, and is left as it is.
 */
export function withoutScrolls(cuts: Cut[], scrolls: ReadonlyArray<{ t: number; y: number }>, fps: number): Cut[] {
  const scrolled = new Set<number>();
  for (let i = 1; i < scrolls.length; i++) {
    if (Math.abs(scrolls[i]!.y - scrolls[i - 1]!.y) >= 0.5) scrolled.add(Math.round((scrolls[i]!.t * fps) / 1000));
  }
  return cuts.filter((cut) => ![cut.frame - 1, cut.frame, cut.frame + 1].some((frame) => scrolled.has(frame)));
}

/**
 * The shares of a dissolve over a change of `change` grey levels: small changes in equal steps below 2 levels; larger
 * ones with RAMP_STEPS steps of about one level at each end and at most MIDDLE_CHANGE per frame between them
 * (a full-page change of ~100 levels dissolves in eleven frames, about a third of a second).
 */
export function dissolveWeights(change: number): number[] {
  if (change <= SMALL_STEP * 9) {
    const n = Math.max(2, Math.ceil(change / SMALL_STEP));
    return Array.from({ length: n }, () => 1);
  }
  const middle = Math.max(1, Math.ceil((change - 2 * RAMP_STEPS * RAMP_CHANGE) / MIDDLE_CHANGE));
  const share = (change - 2 * RAMP_STEPS * RAMP_CHANGE) / middle / RAMP_CHANGE;
  const round = (x: number) => Math.round(x * 100) / 100;
  return [...Array(RAMP_STEPS).fill(1), ...Array(middle).fill(round(share)), ...Array(RAMP_STEPS).fill(1)];
}
