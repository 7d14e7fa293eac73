/**
 * A stretch of the capture sent to a compositor from memory, without the frames that only hold the picture before
 * them. Frame capture hands on the very same buffer for a frame whose picture did not change (most frames of a demo
 * on a real page: a page at rest, a form being typed into between keystrokes), and each such frame cost the
 * compositor a JPEG decode and a pass to TV range (~36 M instructions a frame at 1080p) for a picture it already had.
 *
 * Each picture sent is stamped with its own frame (`restamp`, a setpts expression of the input's frame count N); the
 * graph brings it to TV range, then `fps` repeats it over the frames that held it, so everything after sees every
 * frame as before. `fps` writes a frame out only once it sees the next one: the stretch's last picture is sent once
 * more, stamped `to`, which the graph's trim then drops.
 */
export interface HeldPictures {
  /** the frames whose pictures are sent, in order; the last is `to` (the last picture again) */
  sent: number[];
  /** setpts expression (time base 1/30): the frame of the Nth picture sent */
  restamp: string;
}

/** Past this many held stretches in one input, every frame is sent as before (the expression grows with them). */
const MAX_HELD_RUNS = 400;

/** The pictures of frames [from, to) worth sending, or null when every frame is a new picture (send them all). */
export function heldPictures(pictureOf: (frame: number) => Buffer, from: number, to: number): HeldPictures | null {
  if (to - from < 2) return null;
  const sent: number[] = [];
  for (let i = from; i < to; i++) {
    if (i === from || i === to - 1 || pictureOf(i) !== pictureOf(i - 1)) sent.push(i);
  }
  if (sent.length === to - from) return null;
  sent.push(to);
  const terms: string[] = [];
  for (let n = 1; n < sent.length; n++) {
    const gap = sent[n]! - sent[n - 1]! - 1;
    if (gap > 0) terms.push(`gte(N,${n})*${gap}`);
  }
  if (terms.length > MAX_HELD_RUNS) return null;
  return { sent, restamp: [`N+${from}`, ...terms].join('+') };
}
