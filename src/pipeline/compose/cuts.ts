import fs from 'node:fs/promises';
import { ffmpegBinaries } from '../encode/ffmpeg-binaries.js';
import { fileArg, runTool } from '../encode/run-tool.js';
import { SMOOTHNESS, smoothnessOf } from '../encode/smoothness.js';
import type { Rect } from '../types.js';

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
  /**
   * Where the picture changed: |frame − previous frame| of the 160×90 grey frames, row by row (withChangeMaps). With
   * it, a cut under a zoom is dissolved for the change the zoom shows (asSeenThrough).
   */
  map?: Uint8Array;
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
  const small = written && written.length > 0 && written.length % (W * H) === 0 ? written : await decodeSmallFrames(cleanFile, codec);
  return withChangeMaps(cutsIn(smoothnessOf(small, 30).diffs), small);
}

/** The cuts with where each changed the picture (Cut.map), from the 160×90 grey frames they were found in. */
export function withChangeMaps(cuts: Cut[], small: Buffer): Cut[] {
  const size = SMOOTHNESS.width * SMOOTHNESS.height;
  return cuts.map((cut) => {
    const before = (cut.frame - 1) * size;
    const after = cut.frame * size;
    if (before < 0 || after + size > small.length) return cut;
    const map = new Uint8Array(size);
    for (let i = 0; i < size; i++) map[i] = Math.abs(small[after + i]! - small[before + i]!);
    return { ...cut, map };
  });
}

/**
 * A cut as the video shows it through the camera's crop (output pixels, of the frame before the zoom scales it up).
 * Zoomed in, only the capture inside the crop is on screen, magnified; a dissolve sized for the change over the
 * whole capture then shows the wrong steps. Seen on a 30 s demo: a click opened an answer mostly below a 1.6× zoom,
 * so the dissolve's first and last steps changed the picture by 0.06–0.12 grey levels (still frames, to the eye and
 * to smoothness.py) around one frame that carried the whole jump. The weights are made again from the change the
 * crop shows, in the whole capture's terms: unzoomed, that is the change itself, and the cut is left as it was.
 */
export function asSeenThrough(cut: Cut, crop: Rect, layout: { output: { width: number; height: number }; content: Rect }): Cut {
  const { output, content } = layout;
  const whole = crop.x <= 0 && crop.y <= 0 && crop.x + crop.width >= output.width && crop.y + crop.height >= output.height;
  if (!cut.map || whole) return cut;
  const { width: W, height: H } = SMOOTHNESS;
  // The crop over the capture, in the small frames' pixels; pixels on its edges count for the part inside.
  const span = (from: number, length: number, start: number, size: number, cells: number) => {
    const a = Math.max(0, Math.min(cells, ((from - start) / size) * cells));
    const b = Math.max(0, Math.min(cells, ((from + length - start) / size) * cells));
    return Array.from({ length: cells }, (_, i) => Math.max(0, Math.min(i + 1, b) - Math.max(i, a)));
  };
  const columns = span(crop.x, crop.width, content.x, content.width, W);
  const rows = span(crop.y, crop.height, content.y, content.height, H);
  let changed = 0;
  for (let r = 0; r < H; r++) {
    if (rows[r] === 0) continue;
    for (let c = 0; c < W; c++) changed += cut.map[r * W + c]! * columns[c]! * rows[r]!;
  }
  // The mean change of the zoomed frame, over the share of the frame the capture fills unzoomed.
  const shown = (changed * (content.width / W) * (content.height / H)) / (crop.width * crop.height);
  const seen = shown / ((content.width * content.height) / (output.width * output.height));
  return { ...cut, weights: dissolveWeights(seen) };
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
 * a cut within a frame of a change of scroll position is motion, and is left as it is; unless that change is a jump
 * of `jumpPx` or more (half a screen: the plan's cut between distant beats), which is dissolved.
 */
export function withoutScrolls(cuts: Cut[], scrolls: ReadonlyArray<{ t: number; y: number }>, fps: number, jumpPx = Infinity): Cut[] {
  const scrolled = new Set<number>();
  for (let i = 1; i < scrolls.length; i++) {
    const moved = Math.abs(scrolls[i]!.y - scrolls[i - 1]!.y);
    // A jump of jumpPx or more at once is the plan's cut (a scroll step with `cut`), no motion an eye could follow:
    // it is dissolved like any other.
    if (moved >= 0.5 && moved < jumpPx) scrolled.add(Math.round((scrolls[i]!.t * fps) / 1000));
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
