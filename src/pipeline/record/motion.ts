import type { Page } from 'puppeteer-core';

/**
 * Human-like motion for the recorder: eased scrolling, curved cursor paths, a typing cadence, a short hover before
 * a click. Nothing is drawn into the page: the capture stays clean and the cursor is data (the `on…` callbacks
 * feed the interaction timeline). Randomness is seeded, so the same script moves the same way every time.
 * Every helper takes a time budget and keeps to it, on a MotionClock: the wall clock (steps driven from Node in ~16 ms
 * ticks while a screencast watches), or a recording's frame clock (record/frame-capture.ts), where time is the frame
 * count and each tick is exactly one captured frame, so every output frame shows the motion one step further.
 */

export interface Point {
  x: number;
  y: number;
}

/** Random numbers in [0, 1) from a 32-bit seed (mulberry32): small, fast and reproducible. */
export type Rng = () => number;

export function seededRandom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a string (FNV-1a), e.g. the script's URL plus the step index. */
export function seedFrom(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function easeInOutCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x < 0.5 ? 4 * x * x * x : 1 - (-2 * x + 2) ** 3 / 2;
}

export const TICK_MS = 16;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Time as the motion helpers see it. */
export interface MotionClock {
  /** ms on this clock */
  now(): number;
  /** let `ms` pass (a frame clock renders and captures the frames in between) */
  sleep(ms: number): Promise<void>;
  /** how often motion is updated: TICK_MS on the wall clock, one frame on a frame clock */
  readonly tickMs: number;
  /** each tick is exactly one output frame (a frame clock): motion can be planned frame by frame */
  readonly perFrame: boolean;
  /**
   * Send input (mouse, keys) to the page. The wall clock just awaits it. A frame clock does not wait for the page's
   * acknowledgement before the next frame: Chromium handles a mouse move in the frame after it, so on a page whose
   * frames we make, awaiting it first could wait forever; it is settled after that frame instead.
   */
  input(send: () => Promise<unknown>): Promise<void>;
  /** The picture changes at the next frame (a scroll, input): a frame clock captures it without probing first. */
  changed(): void;
}

export const wallClock: MotionClock = {
  now: () => Date.now(),
  sleep,
  tickMs: TICK_MS,
  perFrame: false,
  input: async (send) => {
    await send();
  },
  changed: () => undefined,
};

/** How close to its end a motion counts as ended: far below a frame, far above floating-point error. */
const END_TOLERANCE_MS = 1e-3;

/**
 * Runs `step(progress)` once per tick of the clock for `durationMs`, progress going 0 → 1 by that clock (on the
 * wall clock a slow tick makes the motion coarser, never longer; on a frame clock each frame gets its own step).
 * The last call is always progress 1.
 */
export async function animate(durationMs: number, step: (progress: number) => Promise<void>, clock: MotionClock = wallClock): Promise<void> {
  const start = clock.now();
  if (durationMs <= clock.tickMs) {
    await step(1);
    return;
  }
  for (;;) {
    const tickStart = clock.now();
    // A frame clock's sleep ends on the first frame within 1e-6 ms of the time asked for (frame-capture.ts), and a
    // start plus a duration of whole frames can land a rounding error past a frame: the motion ends there too, or
    // it would ask for a sleep of that rounding error, be given no frame, and ask again forever.
    const elapsed = tickStart - start;
    const progress = elapsed >= durationMs - END_TOLERANCE_MS ? 1 : elapsed / durationMs;
    await step(progress);
    if (progress >= 1) return;
    const nextAt = Math.min(start + durationMs, tickStart + clock.tickMs);
    await clock.sleep(nextAt - clock.now());
  }
}

// ------------------------------------------------------------------------------------------------------------
// Scrolling

export interface ScrollOptions {
  /** called after each step with the scroll position the page reports */
  onScroll?(y: number): void;
  clock?: MotionClock;
}

/** The current scroll position and the largest possible one. */
export async function scrollMetrics(
  page: Page,
): Promise<{ y: number; maxY: number; viewportWidth: number; viewportHeight: number; devicePixelRatio: number }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return {
      y: window.scrollY,
      maxY: Math.max(0, root.scrollHeight - window.innerHeight),
      viewportWidth: window.innerWidth,
      viewportHeight: window.innerHeight,
      devicePixelRatio: window.devicePixelRatio,
    };
  });
}

/**
 * Where a scroll of `distance` px stands after each of `frames` frames (index 0 = the start, `frames` = the end),
 * for a clock that ticks once per output frame. Eased (the speed rises and falls along sin²), but never still while
 * it lasts: the first and last RAMP_STEPS steps move `ramp` px each (about a device pixel) and every step between
 * moves at least that much. A viewer sees a gentle start and stop; no frame inside the scroll repeats the one
 * before, and the steps next to rest are small, so the frames around a scroll read as calm, not as a jolt
 * between stills (smoothness.py counts a still frame within 3 of a big change as a stall).
 */
export function scrollProfile(distance: number, frames: number, ramp: number): number[] {
  const n = Math.max(1, Math.floor(frames));
  const sign = Math.sign(distance) || 1;
  const total = Math.abs(distance);
  const steps: number[] = [];
  const middle = n - 2 * RAMP_STEPS;
  if (total <= n * ramp) {
    // A pixel or so a frame: even steps.
    for (let k = 0; k < n; k++) steps.push(total / n);
  } else if (middle < 2) {
    // Too few frames for the ramps (a short correction, ~200 ms): eased along sin² over all of them, so it does not
    // start and stop at full speed. Even steps here began a 65-px correction with 13 px at once, next to a still
    // page; the compositor took that for a cut.
    for (let k = 0; k < n; k++) steps.push(((2 * total) / n) * Math.sin((Math.PI * (k + 0.5)) / n) ** 2);
  } else {
    const lift = (total - n * ramp) / (middle / 2); // Σ sin² over the middle = middle / 2
    for (let k = 0; k < n; k++) {
      const j = k - RAMP_STEPS;
      steps.push(j < 0 || j >= middle ? ramp : ramp + lift * Math.sin((Math.PI * (j + 0.5)) / middle) ** 2);
    }
  }
  const positions = [0];
  let at = 0;
  for (const step of steps) positions.push((at += step) * sign);
  positions[n] = distance;
  return positions;
}

const RAMP_STEPS = 3;

/**
 * Scroll the window to `toY` (clamped to the page) over `durationMs`, with instant jumps per tick (a page's
 * `scroll-behavior: smooth` would otherwise fight the easing). On the wall clock along easeInOutCubic by elapsed
 * time; on a frame clock along scrollProfile, one position per frame. Returns the final position.
 */
export async function smoothScroll(page: Page, toY: number, durationMs: number, options: ScrollOptions = {}): Promise<number> {
  const { y: fromY, maxY, viewportWidth, devicePixelRatio } = await scrollMetrics(page);
  const target = Math.round(Math.min(maxY, Math.max(0, toY)));
  if (Math.abs(target - fromY) < 1) {
    options.onScroll?.(fromY);
    return fromY;
  }
  let last = fromY;
  const clock = options.clock ?? wallClock;
  // The scrolling element's own scrollTo (Element.prototype), not window.scrollTo: a page's script may declare a
  // global `function scrollTo(target, offset)` of its own (a smooth-scroll helper for its anchor links), which
  // replaces window.scrollTo, takes our options for an element and leaves the page where it was.
  const scrollTo = (y: number) =>
    page.evaluate((top) => {
      (document.scrollingElement ?? document.documentElement).scrollTo({ top, left: window.scrollX, behavior: 'instant' });
      return window.scrollY;
    }, y);
  if (clock.perFrame) {
    // Planned in device pixels, where Chromium puts the scroll position (it rounds to the nearest one), so each
    // frame moves by what was planned. The ramp: about a tenth of a pixel of a 160-px-wide thumbnail of the
    // viewport, at least one device pixel: visible as motion, never a jolt.
    const dpr = devicePixelRatio > 0 ? devicePixelRatio : 1;
    const fromDev = Math.round(fromY * dpr);
    const toDev = Math.round(target * dpr);
    const ramp = Math.max(1, Math.round((viewportWidth / 1150) * dpr));
    const frames = Math.max(1, Math.min(Math.floor(durationMs / clock.tickMs), Math.abs(toDev - fromDev)));
    const path = scrollProfile(toDev - fromDev, frames, ramp);
    for (let k = 1; k <= frames; k++) {
      clock.changed();
      last = await scrollTo((fromDev + Math.round(path[k]!)) / dpr);
      options.onScroll?.(last);
      if (k < frames) await clock.sleep(clock.tickMs);
    }
    return last;
  }
  await animate(
    durationMs,
    async (progress) => {
      const y = Math.round(fromY + (target - fromY) * easeInOutCubic(progress));
      last = await scrollTo(y);
      options.onScroll?.(last);
    },
    clock,
  );
  return last;
}

// ------------------------------------------------------------------------------------------------------------
// Cursor

/**
 * A cubic Bézier from `from` to `to` whose control points sit a third and two thirds of the way along, pushed
 * sideways by a seeded 4–18% of the distance (both to the same side most of the time, like a wrist's arc), with
 * a little along-track jitter. Returns the point at parameter u ∈ [0, 1].
 */
export function cursorCurve(from: Point, to: Point, rng: Rng): (u: number) => Point {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const distance = Math.hypot(dx, dy);
  const nx = distance > 0 ? -dy / distance : 0;
  const ny = distance > 0 ? dx / distance : 0;
  const side = rng() < 0.5 ? -1 : 1;
  const bend1 = side * distance * (0.04 + rng() * 0.14);
  const bend2 = (rng() < 0.85 ? side : -side) * distance * (0.02 + rng() * 0.1);
  const along1 = 0.25 + rng() * 0.15;
  const along2 = 0.6 + rng() * 0.15;
  const c1 = { x: from.x + dx * along1 + nx * bend1, y: from.y + dy * along1 + ny * bend1 };
  const c2 = { x: from.x + dx * along2 + nx * bend2, y: from.y + dy * along2 + ny * bend2 };
  return (u: number) => {
    const v = 1 - u;
    const a = v * v * v;
    const b = 3 * v * v * u;
    const c = 3 * v * u * u;
    const d = u * u * u;
    return { x: a * from.x + b * c1.x + c * c2.x + d * to.x, y: a * from.y + b * c1.y + c * c2.y + d * to.y };
  };
}

/** The points a move visits: `steps + 1` of them along the curve, eased (slow start, fast middle, soft landing). */
export function cursorPath(from: Point, to: Point, steps: number, rng: Rng): Point[] {
  const curve = cursorCurve(from, to, rng);
  const n = Math.max(1, Math.round(steps));
  return Array.from({ length: n + 1 }, (_, i) => (i === n ? { ...to } : curve(easeInOutCubic(i / n))));
}

export interface CursorOptions {
  rng: Rng;
  /** called after each page.mouse.move with the new position (viewport CSS px) */
  onMove?(point: Point): void;
  clock?: MotionClock;
}

/** A comfortable duration for a move of this length: ~350 ms for a short hop to ~1 s across a wide screen. */
export function moveDurationMs(from: Point, to: Point): number {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  return Math.round(Math.min(1000, Math.max(250, 250 + distance * 0.45)));
}

/** Move the real mouse along a curved, eased path in ~16 ms steps. Returns where it ended (= `to`). */
export async function moveCursor(page: Page, from: Point, to: Point, durationMs: number, options: CursorOptions): Promise<Point> {
  const curve = cursorCurve(from, to, options.rng);
  const clock = options.clock ?? wallClock;
  let last = { ...from };
  await animate(
    durationMs,
    async (progress) => {
      const point = progress >= 1 ? { ...to } : curve(easeInOutCubic(progress));
      const rounded = { x: Math.round(point.x * 10) / 10, y: Math.round(point.y * 10) / 10 };
      if (rounded.x === last.x && rounded.y === last.y && progress < 1) return;
      await clock.input(() => page.mouse.move(rounded.x, rounded.y));
      last = rounded;
      options.onMove?.(rounded);
    },
    clock,
  );
  return last;
}

/** Press and release the left button where the mouse is, with a human 60–110 ms hold. */
export async function clickHere(page: Page, rng: Rng, clock: MotionClock = wallClock): Promise<void> {
  clock.changed();
  await clock.input(() => page.mouse.down());
  await clock.sleep(60 + rng() * 50);
  clock.changed();
  await clock.input(() => page.mouse.up());
}

// ------------------------------------------------------------------------------------------------------------
// Typing

export interface TypingOptions {
  rng: Rng;
  /** the whole text is typed within this; delays shrink (down to 15 ms) to fit */
  maxDurationMs?: number;
  /** called as each character is typed */
  onKey?(key: string): void;
  clock?: MotionClock;
}

/** Per-character delays of 60–140 ms, a little longer after spaces and punctuation, scaled down to fit a budget. */
export function typingDelays(text: string, rng: Rng, maxDurationMs?: number): number[] {
  const chars = [...text];
  const delays = chars.map((ch) => {
    const base = 60 + rng() * 80;
    return /[\s.,!?;:]/.test(ch) ? Math.min(140, base + 25) : base;
  });
  const total = delays.reduce((sum, d) => sum + d, 0);
  if (maxDurationMs !== undefined && total > maxDurationMs && total > 0) {
    const scale = Math.max(0, maxDurationMs) / total;
    return delays.map((d) => Math.max(15, Math.round(d * scale)));
  }
  return delays.map((d) => Math.round(d));
}

/**
 * Type into whatever has focus, one character at a time with the cadence above, on a schedule from the start (a
 * slow keystroke shortens the next pause). When the budget runs out (a busy machine makes each key slower than its
 * pause), the rest is inserted at once, so a step never overruns by more than one call.
 */
export async function typeText(page: Page, text: string, options: TypingOptions): Promise<void> {
  const chars = [...text];
  const delays = typingDelays(text, options.rng, options.maxDurationMs);
  const clock = options.clock ?? wallClock;
  const start = clock.now();
  const deadline = options.maxDurationMs === undefined ? Number.POSITIVE_INFINITY : start + options.maxDurationMs;
  let due = start;
  for (let i = 0; i < chars.length; i++) {
    if (clock.now() >= deadline) {
      const rest = chars.slice(i);
      // Newlines are key presses; everything between them goes in one insertText each.
      for (const [j, part] of rest.join('').split('\n').entries()) {
        if (j > 0) {
          clock.changed();
          await clock.input(() => page.keyboard.press('Enter'));
          options.onKey?.('Enter');
        }
        if (part) {
          clock.changed();
          await clock.input(() => page.keyboard.sendCharacter(part));
          for (const ch of part) options.onKey?.(ch);
        }
      }
      return;
    }
    const ch = chars[i]!;
    clock.changed();
    if (ch === '\n') await clock.input(() => page.keyboard.press('Enter'));
    else await clock.input(() => page.keyboard.type(ch));
    options.onKey?.(ch === '\n' ? 'Enter' : ch);
    due += delays[i]!;
    await clock.sleep(Math.min(due, deadline) - clock.now());
  }
}
