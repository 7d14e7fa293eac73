import type { Page } from 'puppeteer-core';

/**
 * Human-like motion for the recorder: eased scrolling, curved cursor paths, a typing cadence, a short hover before
 * a click. Nothing is drawn into the page: the capture stays clean and the cursor is data (the `on…` callbacks
 * feed the interaction timeline). Randomness is seeded, so the same script moves the same way every time.
 * Every helper takes a time budget and keeps to it; steps are driven from Node in ~16 ms ticks.
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

/**
 * Runs `step(progress)` about every TICK_MS for `durationMs`, progress going 0 → 1 by the wall clock (so a slow
 * tick makes the motion coarser, never longer). The last call is always progress 1.
 */
export async function animate(durationMs: number, step: (progress: number) => Promise<void>): Promise<void> {
  const start = Date.now();
  if (durationMs <= TICK_MS) {
    await step(1);
    return;
  }
  for (;;) {
    const tickStart = Date.now();
    const progress = Math.min(1, (tickStart - start) / durationMs);
    await step(progress);
    if (progress >= 1) return;
    const nextAt = Math.min(start + durationMs, tickStart + TICK_MS);
    await sleep(nextAt - Date.now());
  }
}

// ------------------------------------------------------------------------------------------------------------
// Scrolling

export interface ScrollOptions {
  /** called after each step with the scroll position the page reports */
  onScroll?(y: number): void;
}

/** The current scroll position and the largest possible one. */
export async function scrollMetrics(page: Page): Promise<{ y: number; maxY: number; viewportWidth: number; viewportHeight: number }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return {
      y: window.scrollY,
      maxY: Math.max(0, root.scrollHeight - window.innerHeight),
      viewportWidth: window.innerWidth,
      viewportHeight: window.innerHeight,
    };
  });
}

/**
 * Scroll the window to `toY` (clamped to the page) along easeInOutCubic over `durationMs`, with instant jumps per
 * tick (a page's `scroll-behavior: smooth` would otherwise fight the easing). Returns the final position.
 */
export async function smoothScroll(page: Page, toY: number, durationMs: number, options: ScrollOptions = {}): Promise<number> {
  const { y: fromY, maxY } = await scrollMetrics(page);
  const target = Math.round(Math.min(maxY, Math.max(0, toY)));
  if (Math.abs(target - fromY) < 1) {
    options.onScroll?.(fromY);
    return fromY;
  }
  let last = fromY;
  await animate(durationMs, async (progress) => {
    const y = Math.round(fromY + (target - fromY) * easeInOutCubic(progress));
    last = await page.evaluate((top) => {
      window.scrollTo({ top, left: window.scrollX, behavior: 'instant' });
      return window.scrollY;
    }, y);
    options.onScroll?.(last);
  });
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
}

/** A comfortable duration for a move of this length: ~350 ms for a short hop to ~1 s across a wide screen. */
export function moveDurationMs(from: Point, to: Point): number {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  return Math.round(Math.min(1000, Math.max(250, 250 + distance * 0.45)));
}

/** Move the real mouse along a curved, eased path in ~16 ms steps. Returns where it ended (= `to`). */
export async function moveCursor(page: Page, from: Point, to: Point, durationMs: number, options: CursorOptions): Promise<Point> {
  const curve = cursorCurve(from, to, options.rng);
  let last = { ...from };
  await animate(durationMs, async (progress) => {
    const point = progress >= 1 ? { ...to } : curve(easeInOutCubic(progress));
    const rounded = { x: Math.round(point.x * 10) / 10, y: Math.round(point.y * 10) / 10 };
    if (rounded.x === last.x && rounded.y === last.y && progress < 1) return;
    await page.mouse.move(rounded.x, rounded.y);
    last = rounded;
    options.onMove?.(rounded);
  });
  return last;
}

/** Press and release the left button where the mouse is, with a human 60–110 ms hold. */
export async function clickHere(page: Page, rng: Rng): Promise<void> {
  await page.mouse.down();
  await sleep(60 + rng() * 50);
  await page.mouse.up();
}

// ------------------------------------------------------------------------------------------------------------
// Typing

export interface TypingOptions {
  rng: Rng;
  /** the whole text is typed within this; delays shrink (down to 15 ms) to fit */
  maxDurationMs?: number;
  /** called as each character is typed */
  onKey?(key: string): void;
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
  const start = Date.now();
  const deadline = options.maxDurationMs === undefined ? Number.POSITIVE_INFINITY : start + options.maxDurationMs;
  let due = start;
  for (let i = 0; i < chars.length; i++) {
    if (Date.now() >= deadline) {
      const rest = chars.slice(i);
      // Newlines are key presses; everything between them goes in one insertText each.
      for (const [j, part] of rest.join('').split('\n').entries()) {
        if (j > 0) {
          await page.keyboard.press('Enter');
          options.onKey?.('Enter');
        }
        if (part) {
          await page.keyboard.sendCharacter(part);
          for (const ch of part) options.onKey?.(ch);
        }
      }
      return;
    }
    const ch = chars[i]!;
    if (ch === '\n') await page.keyboard.press('Enter');
    else await page.keyboard.type(ch);
    options.onKey?.(ch === '\n' ? 'Enter' : ch);
    due += delays[i]!;
    await sleep(Math.min(due, deadline) - Date.now());
  }
}
