import { priceOf } from '../credits/index.js';
import type { DurationTarget } from './events.js';
import { type AspectRatio, aspectVariants, cutsAddedOnly, type Presentation } from './presentation.js';
import { parseJsonOrNull } from '../platform/json-or-null.js';

/**
 * What a restyle to `presentation` does and costs (issue 59): the one rule the restyle endpoint charges by and the
 * dashboard's button quotes (the button asks the server; no price comes from the browser).
 *
 * A restyle that changes only the cuts (`aspect`: a 9:16 or 1:1 variant added or removed) is made from the shown
 * version's kept capture: nothing is recorded and nothing charged. Anything else (the look, narration, the end card)
 * records the stored script again at the demo's price. A cut the kept capture cannot make (none kept: a version made
 * before captures were, or burned-in captions, which are drawn while recording) is refused with the reason, unless
 * `force` asks to record it again.
 */
export interface RestyleQuote {
  /** made from the kept capture: no browser, no recording, no credit */
  fromCapture: boolean;
  credits: number;
  /** the cuts added and removed when nothing but the cuts changes; null when the restyle is a new look */
  cuts: { added: AspectRatio[]; removed: AspectRatio[] } | null;
  /** why the kept capture cannot make the cuts asked for (answered 409 unless forced); null when it can */
  refusal: string | null;
}

export interface QuotedDemo {
  source: string;
  /** the demo's stored presentation (JSON text), as the version shown was made */
  presentation: string | null;
  /** whether the shown version's capture is kept (db/031 capture_key) */
  captureKept: boolean;
  duration_target: string | null;
}

export function quoteRestyle(demo: QuotedDemo, presentation: Presentation, force = false): RestyleQuote {
  const price = priceOf((demo.duration_target ?? '10s') as DurationTarget);
  const record = (cuts: RestyleQuote['cuts'] = null, refusal: string | null = null): RestyleQuote => ({ fromCapture: false, credits: price, cuts, refusal });
  // An upload has no script to restyle at all (decide.ts says so); a forced restyle records, as it always did.
  if (force || demo.source === 'upload') return record();
  const stored = parseJsonOrNull<Presentation>(demo.presentation);
  const added = cutsAddedOnly(stored, presentation);
  if (added === null) return record();
  const removed = aspectVariants(stored).filter((aspect) => !aspectVariants(presentation).includes(aspect));
  if (added.length === 0 && removed.length === 0) return record();
  const cuts = { added, removed };
  const credits = `${price} credit${price === 1 ? '' : 's'}`;
  // Burned-in captions are drawn by the browser for each cut's frame and camera: a cut made later, without one,
  // would lack them, so it is recorded again instead (asked for with ?force=true), never shown without them.
  if (added.length > 0 && presentation.captions?.burnIn) {
    return record(
      cuts,
      `This demo's captions are burned in, and a ${added.join(' and ')} cut made from the kept capture would have none. Restyle with ?force=true to record it again with the cut and its captions (${credits}).`,
    );
  }
  if (demo.captureKept) return { fromCapture: true, credits: 0, cuts, refusal: null };
  // Only a cut removed, and no capture to make the rest from: recorded again without it.
  if (added.length === 0) return record(cuts);
  return record(
    cuts,
    `This version's recording was made before captures were kept, so a ${added.join(' and ')} cut cannot be made from it without recording again. Restyle with ?force=true to record it again with the cut (${credits}).`,
  );
}

