/**
 * How far a camera move has gone after each of its frames. A move is measured in pixels of a 720p frame: the most any
 * point of the picture travels (zoom-path.ts). Its rules come from smoothness.py's measure (a frame "stalls" when it
 * changes by less than 0.15 grey levels while a change above 2.0 lies within three frames of it), and are about what
 * the eye sees as a start or a stop rather than a jump:
 *
 * - The three steps at each end are sub-pixel (END_STEPS_PX): a camera at rest beside the move (a held zoom, the
 *   whole window) then sees only small changes within three frames, so it reads as at rest, not as a picture stuck
 *   while the view moves. A whole pixel of crop is not small: at 720p and 1.6× it moves the picture 1.6 px, which on
 *   a dense page is 2.2 grey levels. The filter graph draws these steps with a sub-pixel crop (subpixel-crop.ts).
 * - Beyond them no step is more than GROWTH times the one before it.
 *
 * Between the ends the move follows smoothstep (its peak speed 1.5× the average) held under that envelope, so a
 * long move starts and ends slowly. A move too short for both grows faster than GROWTH, only as fast as keeps its
 * peak speed at that of smoothstep over the frames between its end steps.
 */

/** Moves are measured in pixels of a frame this wide (720p): the measure sees every frame 160 px wide alike. */
export const REFERENCE_WIDTH = 1280;
/**
 * The steps at each end, in pixels of REFERENCE_WIDTH: those a camera at rest beside the move sees within
 * smoothness.py's window. Small enough that none comes near the 2.0 line on a dense page (a whole pixel of crop at
 * 1.6×, 1.6 px, came to 2.2 on the saas fixture; 0.8 px to 0.5–0.7), and big enough to be seen as a change after the
 * encoder: x264 all but skips a small shift right after a still picture (0.4 px came out as 0.03 grey levels on
 * glasshouse, the 0.55 px after it as 0.66; 0.6 px as 0.12 — a stall beside a squeezed move's big steps). 0.8 px
 * came out as 0.2–0.7 on both fixtures.
 */
export const END_STEPS_PX = [0.8, 0.8, 0.8] as const;
/**
 * How much faster a step may be than the one before it beyond the end steps: GROWTH³ ≈ 12, under the measure's
 * 2.0 / 0.15 ≈ 13, so a step too small to be seen on a plain page is never within three frames of one seen as motion
 * there. A move that would then run faster in its middle than it used to grows faster instead (about 3.3× a frame
 * for the default 700 ms zoom; more for a zoom out squeezed in before a scroll): a smooth ease is kept over that rule.
 */
export const GROWTH = 2.3;

/** Positions 0 … distance after each of `steps` frames (steps + 1 numbers). */
export function moveProfile(distance: number, steps: number): number[] {
  const n = Math.max(1, Math.floor(steps));
  const increments = distance <= 0 ? new Array<number>(n).fill(0) : moveIncrements(distance, n);
  const positions = [0];
  let at = 0;
  for (const step of increments) positions.push((at += step));
  positions[n] = Math.max(0, distance);
  return positions;
}

function moveIncrements(distance: number, n: number): number[] {
  const bell = Array.from({ length: n }, (_, k) => smoothstep((k + 1) / n) - smoothstep(k / n));
  const ends = END_STEPS_PX.length;
  // Too short to have a middle: eased along smoothstep as it must.
  if (n <= 2 * ends) return bell.map((b) => b * distance);
  const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
  // The envelope: the end steps, then `growth` a frame towards the middle.
  const envelope = (growth: number) =>
    Array.from({ length: n }, (_, k) => {
      const j = Math.min(k, n - 1 - k);
      return j < ends ? END_STEPS_PX[j]! : END_STEPS_PX[ends - 1]! * growth ** (j - ends + 1);
    });
  // The bell scaled until, held under the envelope, it covers the distance (infinite steps if it cannot).
  const shaped = (growth: number) => {
    const cap = envelope(growth);
    if (sum(cap) < distance) return null;
    const under = (c: number) => bell.map((b, k) => Math.min(cap[k]!, c * b));
    let high = distance;
    while (sum(under(high)) < distance) high *= 2;
    return under(bisect(0, high, (c) => sum(under(c)) >= distance));
  };
  // Held under the envelope, a short move runs faster in its middle. It may grow faster than GROWTH rather than
  // run faster at its peak than smoothstep between its end steps would: no faster than the move used to.
  const peakLimit = (1.5 * distance) / (n - 2 * ends);
  const fits = (growth: number) => {
    const steps = shaped(growth);
    return steps !== null && Math.max(...steps) <= peakLimit;
  };
  if (fits(GROWTH)) return shaped(GROWTH)!;
  let high = GROWTH * 2;
  while (!fits(high) && high < 1e6) high *= 2;
  return shaped(bisect(GROWTH, high, fits)) ?? bell.map((b) => b * distance);
}

/** The smallest x in [low, high] for which `enough` holds (it holds from some x on), to within 1e-12 of high. */
function bisect(low: number, high: number, enough: (x: number) => boolean): number {
  for (let i = 0; i < 60; i++) {
    const middle = (low + high) / 2;
    if (enough(middle)) high = middle;
    else low = middle;
  }
  return high;
}

function smoothstep(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x * x * (3 - 2 * x);
}
