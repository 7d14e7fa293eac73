import type { Page } from 'puppeteer-core';
import { bottomComfortMargin } from '../comfort.js';
import type { Rect, ScriptStep, Target } from '../types.js';
import { clickHere, moveCursor, type MotionClock, moveDurationMs, type Point, type Rng, scrollMetrics, smoothScroll, typeText } from './motion.js';

/**
 * What each step of a script does on the page (recorder.ts runs them in time, frame-capture.ts or screencast.ts
 * captures meanwhile): scroll, move, hover, click, type. Each reports what it did through the StepContext, which the
 * recorder turns into the InteractionTimeline, and shapes its motion to end by the deadline it is given.
 */

export interface StepContext {
  page: Page;
  clock: MotionClock;
  now(): number;
  cursor(): Point;
  onMove(point: Point): void;
  onScroll(y: number): void;
  onClick(point: Point): void;
  onKey(key: string): void;
  /** `frame`: a field's rect with its form's heading (InteractionTimeline.focus) */
  onFocus(rect: Rect, label: string, frame?: Rect): void;
}

export interface Located {
  selector: string;
  /** inside a position: fixed or sticky container, so scrolling does not bring it any closer */
  pinned: boolean;
  /** viewport coordinates */
  rect: Rect;
  /** where the cursor goes, inside `rect`: a heading's words, else the whole rect */
  aim: Rect;
  /** `aim` is a heading's words (not a control's box) */
  words: boolean;
  /** the bottom of a fixed or sticky header at the top of the viewport, 0 without one */
  topInset: number;
  /** the top of the first h1–h3 inside the target (viewport coordinates), null without one */
  headingTop: number | null;
  scrollY: number;
  viewportWidth: number;
  viewportHeight: number;
}

/** The first of the target's selectors that matches a rendered element (invalid selectors are skipped). */
export async function locateTarget(page: Page, target: Target): Promise<Located | null> {
  const selectors = [target.selector, ...target.fallbackSelectors].filter((s) => typeof s === 'string' && s.trim() !== '');
  return page.evaluate((list: string[]) => {
    // The bottom of what stays pinned at the top of the viewport (a fixed or sticky header), 0 without one. (No
    // named function in here: the TypeScript loader wraps those in a helper the page does not have.)
    let topInset = 0;
    for (const element of document.elementsFromPoint(window.innerWidth / 2, 1)) {
      for (let node: Element | null = element; node && node !== document.documentElement; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position !== 'fixed' && position !== 'sticky') continue;
        const edge = node.getBoundingClientRect().bottom;
        if (edge > topInset && edge < window.innerHeight * 0.3) topInset = edge;
        break;
      }
    }
    for (const wanted of list) {
      let selector = wanted;
      let element: Element | null = null;
      // Issue 56 (plan/app-actions.ts): a row's checkbox or a button that exists only once the app has items, found
      // by its words: `check:<the row's text>`, `text:<the button's words>`, `edit:<the item's text>` (the words
      // themselves, double-clicked to edit them). Marked, so what follows (the click, typing) finds the same element
      // by an ordinary selector.
      const byWords = /^(check|text|edit):(.+)$/s.exec(wanted);
      // Issue 56 (plan/container-actions.ts): `in:<name>|field`, `in:<name>|submit`, `in:<name>|text:<words>`: a box,
      // a form's button or a control inside the card or column that shows the name (in words of its own, not a
      // button's), the nearest such container to those words.
      const inBox = /^in:(.+?)\|(field|submit|text:.+)$/s.exec(wanted);
      if (inBox) {
        // (Loops, not helper functions: see above.)
        const name = inBox[1]!.toLowerCase().trim();
        const what = inBox[2]!;
        const words = what.startsWith('text:') ? what.slice(5).toLowerCase().trim() : '';
        const query =
          what === 'field'
            ? 'input:not([type]), input[type="text"], input[type="search"], textarea'
            : what === 'submit'
              ? 'button[type="submit"], input[type="submit"], form button:not([type])'
              : 'button, a, [role="button"], input[type="button"], input[type="submit"]';
        let best: Element | null = null;
        let nearest = Infinity;
        for (const el of Array.from(document.querySelectorAll('body *'))) {
          if (el.closest('button, a, input, textarea, select, option, script, style')) continue;
          const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent ?? '').join(' ').toLowerCase().trim();
          if (!own.includes(name)) continue;
          const seen = el.getBoundingClientRect();
          if (seen.width <= 0 || seen.height <= 0) continue;
          // A title that starts with the name ("Working (Try drag me too)") before one that only mentions it ("To Do
          // (Can drop item only in working)"); then the nearest container; then the shorter title.
          const lead = own.startsWith(name) ? 0 : 100;
          let box: Element | null = el;
          for (let depth = 0; box && box !== document.body && depth < 8 && lead + depth + own.length / 1000 < nearest; depth++, box = box.parentElement) {
            let hit: Element | null = null;
            for (const candidate of Array.from(box.querySelectorAll(query))) {
              const r = candidate.getBoundingClientRect();
              if (r.width <= 0 || r.height <= 0 || (candidate as HTMLInputElement).disabled) continue;
              if (words && !((candidate as HTMLElement).innerText || (candidate as HTMLInputElement).value || '').toLowerCase().includes(words)) continue;
              // An empty box before one already written in.
              if (what === 'field' && (candidate as HTMLInputElement).value !== '') {
                hit = hit ?? candidate;
                continue;
              }
              hit = candidate;
              break;
            }
            if (!hit) continue;
            best = hit;
            nearest = lead + depth + own.length / 1000;
            break;
          }
        }
        if (!best) continue;
        const token = String(Math.floor(Math.random() * 1e9));
        best.setAttribute('data-showreel-target', token);
        selector = `[data-showreel-target="${token}"]`;
        element = best;
      } else if (byWords) {
        const words = byWords[2]!.toLowerCase().trim();
        let best: Element | null = null;
        let bestLength = Infinity;
        if (byWords[1] === 'check') {
          for (const box of Array.from(document.querySelectorAll('input[type="checkbox"], [role="checkbox"]'))) {
            const r = box.getBoundingClientRect();
            if (r.width <= 0 || r.height <= 0) continue;
            let row: Element | null = box.parentElement;
            for (let depth = 0; row && depth < 5; depth++, row = row.parentElement) {
              const text = (row as HTMLElement).innerText?.toLowerCase() ?? '';
              if (!text.includes(words)) continue;
              if (text.length < bestLength) {
                best = box;
                bestLength = text.length;
              }
              break;
            }
          }
        } else if (byWords[1] === 'edit') {
          // The smallest element that shows the item's words, not a field: the words a person double-clicks.
          for (const shown of Array.from(document.querySelectorAll('label, span, p, div, li, td'))) {
            const r = shown.getBoundingClientRect();
            if (r.width <= 0 || r.height <= 0 || shown.closest('input, textarea')) continue;
            const text = (shown as HTMLElement).innerText?.toLowerCase().trim() ?? '';
            if (text.includes(words) && text.length <= bestLength) {
              best = shown;
              bestLength = text.length;
            }
          }
        } else {
          for (const control of Array.from(document.querySelectorAll('button, a, [role="button"], input[type="button"], input[type="submit"]'))) {
            const r = control.getBoundingClientRect();
            if (r.width <= 0 || r.height <= 0) continue;
            const text = ((control as HTMLElement).innerText || (control as HTMLInputElement).value || control.getAttribute('aria-label') || '').toLowerCase().trim();
            if (text.includes(words) && text.length < bestLength) {
              best = control;
              bestLength = text.length;
            }
          }
        }
        if (!best) continue;
        const token = String(Math.floor(Math.random() * 1e9));
        best.setAttribute('data-showreel-target', token);
        selector = `[data-showreel-target="${token}"]`;
        element = best;
      } else {
        try {
          element = document.querySelector(selector);
        } catch {
          continue;
        }
      }
      if (!element) continue;
      const r = element.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      // A heading's box spans its column while its words may fill a third of it: the cursor goes to the words, not
      // to the empty middle of the box. (The camera keeps the box: zoomed to the words, what the section shows
      // beside them, a row of logos under "Made possible by", was cut off.)
      let aim = r;
      if (/^H[1-6]$/.test(element.tagName)) {
        const range = document.createRange();
        range.selectNodeContents(element);
        const words = range.getBoundingClientRect();
        if (words.width > 0 && words.height > 0 && words.width < r.width) aim = words;
      }
      const inner = /^H[1-6]$/.test(element.tagName) ? null : element.querySelector('h1, h2, h3');
      const innerBox = inner ? inner.getBoundingClientRect() : null;
      const headingTop = innerBox && innerBox.height > 0 ? innerBox.top : null;
      let pinned = false;
      for (let node: Element | null = element; node && node !== document.body; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position === 'fixed' || position === 'sticky') {
          pinned = true;
          break;
        }
      }
      return {
        selector,
        pinned,
        rect: { x: r.left, y: r.top, width: r.width, height: r.height },
        aim: { x: aim.left, y: aim.top, width: aim.width, height: aim.height },
        words: /^H[1-6]$/.test(element.tagName),
        scrollY: window.scrollY,
        viewportWidth: window.innerWidth,
        viewportHeight: window.innerHeight,
        topInset,
        headingTop,
      };
    }
    return null;
  }, selectors);
}

/**
 * A cut's glide into place: a third of a screen, over 0.7 s (at most 1 screen a second at its fastest, under a
 * reader's 1.5): long enough to read as travel, 0.2 s of it or more (direction.py), short of a shot of its own.
 */
export const CUT_GLIDE_SCREENS = 0.35;
export const CUT_GLIDE_MS = 700;

export async function runStep(ctx: StepContext, step: ScriptStep, deadline: number, rng: Rng): Promise<{ error?: string }> {
  const left = () => deadline - ctx.now();
  switch (step.kind) {
    case 'wait':
      return {};
    case 'scroll': {
      // A cut: a jump to just short of the place, on the side the page came from, then a short glide into it while
      // the compositor dissolves the change (cuts.ts). The glide says which way the page went (a plain dissolve read
      // as no travel at all: to the eye, and to direction.py, the video stood on its first view to the end), at
      // under a reader's scroll speed.
      if (step.cut) {
        const { y, maxY, viewportHeight } = await scrollMetrics(ctx.page);
        const target = Math.min(Math.max(0, step.toY), maxY);
        const glide = Math.min(viewportHeight * CUT_GLIDE_SCREENS, Math.abs(target - y) / 2);
        const glideMs = Math.min(CUT_GLIDE_MS, left() - 60);
        if (glide < 8 || glideMs < 200) {
          await smoothScroll(ctx.page, step.toY, 0, { onScroll: ctx.onScroll, clock: ctx.clock });
          return {};
        }
        await smoothScroll(ctx.page, target - Math.sign(target - y) * glide, 0, { onScroll: ctx.onScroll, clock: ctx.clock });
        await smoothScroll(ctx.page, target, glideMs, { onScroll: ctx.onScroll, clock: ctx.clock });
        return {};
      }
      // Ease over most of the step; the rest lets the last frames settle.
      const budget = left();
      await smoothScroll(ctx.page, step.toY, Math.max(0, budget - Math.min(300, budget * 0.1)), { onScroll: ctx.onScroll, clock: ctx.clock });
      return {};
    }
    case 'move':
    case 'hover':
    case 'click':
    case 'type':
    case 'navigate':
      return targetStep(ctx, step, left, rng);
    default:
      // Agent steps come from outside the type system (a model's JSON).
      return { error: `Unknown step kind "${(step as { kind?: unknown }).kind}".` };
  }
}

async function targetStep(
  ctx: StepContext,
  step: Extract<ScriptStep, { target: Target }>,
  left: () => number,
  rng: Rng,
): Promise<{ error?: string }> {
  const { page } = ctx;
  const budget = left();
  let found = await locateTarget(page, step.target);
  if (!found) {
    // The planned position is all we have: show that part of the page, but do not click or type blindly.
    const metrics = await scrollMetrics(page);
    const rect = step.target.rect;
    const toY = rect.y + rect.height / 2 - metrics.viewportHeight * 0.4;
    const y = await smoothScroll(page, toY, Math.max(0, Math.min(budget * 0.6, 1200)), { onScroll: ctx.onScroll, clock: ctx.clock });
    if (step.kind === 'move' || step.kind === 'hover') {
      const to = clampToViewport({ x: rect.x + rect.width / 2, y: rect.y - y + rect.height / 2 }, metrics);
      await moveCursor(page, ctx.cursor(), to, Math.max(0, Math.min(moveDurationMs(ctx.cursor(), to), left() * 0.8)), { rng, onMove: ctx.onMove, clock: ctx.clock });
    }
    const selectors = [step.target.selector, ...step.target.fallbackSelectors].join(', ');
    return { error: `Target "${step.target.label}" not found (${selectors}); scrolled to its planned position instead.` };
  }

  // Bring it into view when it is not comfortably visible: its middle at ~40% of the viewport height.
  const r = found.rect;
  // At the top, below the header is enough: the planner scrolls a section to just below it (outline-query's
  // SCROLL_MARGIN), and an 80-px margin there set off a second scroll, stop and go, after every such arrival.
  // A click or typing wants room below it (what it sets off shows there); a hover only needs to be on screen, as
  // the planner's own visibility test has it. A hover within the comfort margin once scrolled again and took the
  // heading of the section being read off screen for the rest of its shot.
  const margin = step.kind === 'hover' || step.kind === 'move' ? 8 : bottomComfortMargin(found.viewportHeight);
  const topMargin = found.topInset + 8;
  // A section taller than that is comfortable once its heading is out from under the header: a planner may stop
  // below the section's top to show its heading with the buttons further down (pricing-focus).
  const top = r.height > found.viewportHeight * 0.6 && found.headingTop !== null ? found.headingTop : r.y;
  if (!found.pinned && (top < topMargin || r.y + Math.min(r.height, found.viewportHeight * 0.6) > found.viewportHeight - margin)) {
    const toY = found.scrollY + r.y + Math.min(r.height, found.viewportHeight * 0.6) / 2 - found.viewportHeight * 0.4;
    const share = step.kind === 'move' || step.kind === 'hover' ? 0.45 : 0.35;
    await smoothScroll(page, toY, Math.max(0, Math.min(budget * share, 1500)), { onScroll: ctx.onScroll, clock: ctx.clock });
    found = (await locateTarget(page, step.target)) ?? found;
  }
  const frame = step.kind === 'type' ? await fieldWithHeading(page, found.selector) : null;
  ctx.onFocus(roundRect(found.rect), step.target.label, frame ? roundRect(frame) : undefined);

  // Aim near the middle, not at the exact pixel. A pointer that rests on a button (a hover, held while the viewer
  // reads) rests on its lower right: the arrow drawn down and right from there leaves the words readable ("SEND
  // MESSAGE" under a cursor at its middle read as neither word). On a heading's words it rests just under them, as a
  // reader points at a line: the arrow at their lower right still covered the last word's letters ("we're open" read
  // "we're gpen" in one end frame of three).
  const [across, down, spread] = step.kind === 'hover' ? [0.8, 0.72, 0.1] : [0.5, 0.5, 0.2];
  const underWords = step.kind === 'hover' && found.words;
  const aim = clampToViewport(
    {
      x: found.aim.x + found.aim.width * (across + (rng() - 0.5) * spread),
      y: underWords ? found.aim.y + found.aim.height + 2 + rng() * 4 : found.aim.y + found.aim.height * (down + (rng() - 0.5) * spread),
    },
    { viewportWidth: found.viewportWidth, viewportHeight: found.viewportHeight },
  );
  const from = ctx.cursor();
  // Leave room for what follows the move: a dwell, the click, the typing.
  const after = step.kind === 'move' ? 0 : step.kind === 'type' ? typingReserve(step.text) + 250 + ASIDE_MS : 300;
  const moveMs = Math.max(0, Math.min(moveDurationMs(from, aim), left() - after, left() * 0.8));
  const at = await moveCursor(page, from, aim, moveMs, { rng, onMove: ctx.onMove, clock: ctx.clock });
  if (step.kind === 'move') return {};

  // Hover before anything else happens.
  const dwell = step.kind === 'hover' ? 0 : Math.min((step.kind === 'navigate' ? 300 : 150) + rng() * 150, Math.max(0, left() - (step.kind === 'type' ? typingReserve(step.text) : 100)));
  await ctx.clock.sleep(dwell);
  if (step.kind === 'hover') return {};

  ctx.onClick(at);
  // Issue 56: a link to another page is clicked for real once this leg's capture has ended (record/follow-link.ts):
  // the video shows the click, then the next page, never a half-loaded one.
  if (step.kind === 'navigate') return {};
  // Issue 56: "edit it to read …": the item's words are double-clicked, as a person opens a list item to edit it; its
  // text is then selected whole and typed over.
  if (step.kind === 'type' && step.target.selector.startsWith('edit:')) return editInPlace(ctx, step.text, at, left, rng);
  // A drop-down or a date picker is not clicked for real: the browser's own list opens in a window of its own, which a
  // headless browser paints in no frame, and whose pending frame stalls a frame-by-frame capture for good. The click
  // is drawn; the field takes focus, and a value is chosen as a person would from the list (pick).
  if ((step.kind === 'click' || step.kind === 'type') && (await isPicker(page, found.selector))) {
    if (step.kind === 'type') return pick(ctx, found.selector, step.text, left);
    await page.evaluate((selector: string) => (document.querySelector(selector) as HTMLElement | null)?.focus(), found.selector);
    return {};
  }
  await clickHere(page, rng, ctx.clock);
  if (step.kind === 'click') return {};

  // Typing: make sure the field itself has focus (the click may have landed on its label or padding). A field that
  // already holds words (a profile's saved organisation) is typed over, as a person selects them first: typed after
  // them, "ThemeSelection" became "ThemeSelectionNorthwind Traders".
  await page.evaluate((selector: string) => {
    const element = document.querySelector(selector);
    if (element instanceof HTMLElement && document.activeElement !== element && !element.contains(document.activeElement)) element.focus();
    const field = document.activeElement;
    if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && field.value !== '') field.select();
  }, found.selector);
  // Room kept to take the pointer off the words afterwards, when the step has it to spare.
  const asideMs = left() - typingReserve(step.text) * 0.6 > ASIDE_MS + 50 ? ASIDE_MS : 0;
  await typeText(page, step.text, { rng, maxDurationMs: Math.max(0, left() - 50 - asideMs), onKey: ctx.onKey, clock: ctx.clock });
  if (asideMs > 0) await stepAside(ctx, found.selector, left, rng);
  return {};
}

/** How long the pointer takes to leave a field it has typed into. */
const ASIDE_MS = 300;

/**
 * Issue 56: the pointer leaves the field it typed into, to just below it, as a hand moves the mouse out of the way.
 * Left where it clicked (the field's middle), its arrow lay over the value's end for the whole hold: an e-mail
 * address typed into a docs page's form read as "ana.costa@exam" in every frame.
 */
async function stepAside(ctx: StepContext, selector: string, left: () => number, rng: Rng): Promise<void> {
  const box = await ctx.page.evaluate((sel: string) => {
    const r = document.querySelector(sel)?.getBoundingClientRect();
    return r && r.width > 0 && r.height > 0 ? { bottom: r.bottom, left: r.left, right: r.right } : null;
  }, selector);
  if (!box) return;
  const from = ctx.cursor();
  const metrics = await scrollMetrics(ctx.page);
  const aside = clampToViewport({ x: Math.min(Math.max(from.x, box.left + 12), box.right - 12), y: box.bottom + 14 }, metrics);
  await moveCursor(ctx.page, from, aside, Math.max(0, Math.min(ASIDE_MS, left() - 50)), { rng, onMove: ctx.onMove, clock: ctx.clock });
}

async function editInPlace(ctx: StepContext, text: string, at: Point, left: () => number, rng: Rng): Promise<{ error?: string }> {
  const { page } = ctx;
  ctx.clock.changed();
  await ctx.clock.input(() => page.mouse.click(at.x, at.y, { count: 2, delay: 60 }));
  await ctx.clock.sleep(120);
  const editing = await page.evaluate(() => {
    const field = document.activeElement;
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return false;
    field.select();
    return true;
  });
  if (!editing) return { error: 'Double-clicking the item opened no field to edit it in.' };
  await typeText(page, text, { rng, maxDurationMs: Math.max(0, left() - 400), onKey: ctx.onKey, clock: ctx.clock });
  // The cursor moves off the words it just changed, so they read whole.
  const aside = clampToViewport({ x: at.x + 30, y: at.y + 44 }, await scrollMetrics(page));
  await moveCursor(page, ctx.cursor(), aside, Math.max(0, Math.min(300, left() - 50)), { rng, onMove: ctx.onMove, clock: ctx.clock });
  return {};
}

/**
 * A field with the heading its form is read by: the nearest visible heading (or legend) above the field inside the
 * field's own form, card or box, at most half a screen above it. A zoom on the field alone cut the form's title off
 * ("Sign Up" read 1.5 s of a 10 s flow, the rest of the typing zoomed past it); the camera keeps both (shots.ts).
 * Null when no such heading is near.
 */
async function fieldWithHeading(page: Page, selector: string): Promise<Rect | null> {
  return page.evaluate((sel: string) => {
    const field = document.querySelector(sel);
    if (!field) return null;
    const box = field.getBoundingClientRect();
    const reach = window.innerHeight * 0.5;
    let container: Element | null = field.parentElement;
    // Within the field's own column: a climb into a row as wide as the page found another card's heading above (a
    // dashboard's project card over its to-do list), and the zoom left the list's rows for it.
    const column = Math.max(box.width, (field.closest('form') ?? field.parentElement)?.getBoundingClientRect().width ?? 0);
    for (let depth = 0; container && container !== document.body && depth < 8; depth++, container = container.parentElement) {
      if (container.getBoundingClientRect().width > column * 1.8 + 40) break;
      let best: DOMRect | null = null;
      for (const heading of Array.from(container.querySelectorAll('h1, h2, h3, h4, h5, h6, legend, [role="heading"]'))) {
        // Its words, not its box: a heading's box spans its column, its words may fill a third of it.
        const range = document.createRange();
        range.selectNodeContents(heading);
        const words = range.getBoundingClientRect();
        const r = words.width > 0 && words.height > 0 ? words : heading.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0 || r.bottom > box.top + 1 || box.top - r.bottom > reach) continue;
        if (!best || r.bottom > best.bottom) best = r;
      }
      if (best) {
        const left = Math.min(best.left, box.left);
        const top = Math.min(best.top, box.top);
        const right = Math.max(best.right, box.right);
        const bottom = Math.max(best.bottom, box.bottom);
        return { x: left, y: top, width: right - left, height: bottom - top };
      }
    }
    return null;
  }, selector);
}

/** A drop-down or a date or time input: what a person sets by choosing, not by typing letters. */
async function isPicker(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel: string) => {
    const element = document.querySelector(sel);
    return element instanceof HTMLSelectElement || (element instanceof HTMLInputElement && /^(?:date|time|datetime-local|month|week)$/.test(element.type));
  }, selector);
}

/**
 * Issue 56: a drop-down set to the option that says the value ("December", "14" for "14", "03" for "3"), a date or
 * time input to the value. The click is drawn; the browser's own picker is not opened (a headless browser paints it
 * in no frame), the choice shows in the field as it is made, and the page hears the change as from a person.
 */
async function pick(ctx: StepContext, selector: string, value: string, left: () => number): Promise<{ error?: string }> {
  ctx.clock.changed();
  const chosen = await ctx.page.evaluate(
    (sel: string, wanted: string) => {
      const element = document.querySelector(sel);
      if (!(element instanceof HTMLSelectElement || element instanceof HTMLInputElement)) return null;
      element.focus();
      if (element instanceof HTMLSelectElement) {
        // (No named function in here: the TypeScript loader wraps those in a helper the page does not have.)
        const want = wanted.trim().toLowerCase();
        const options = Array.from(element.options).map((o) => ({ o, text: o.text.trim().toLowerCase(), value: o.value.trim().toLowerCase() }));
        const option = (
          options.find((c) => c.text === want || c.value === want) ??
          options.find((c) => /^\d+$/.test(want) && (Number(c.value) === Number(want) || Number(c.text) === Number(want))) ??
          options.find((c) => want.length >= 3 && c.text.startsWith(want.slice(0, 3)))
        )?.o;
        if (!option) return null;
        element.value = option.value;
      } else {
        element.value = wanted;
        if (element.value !== wanted) return null;
      }
      element.dispatchEvent(new Event('input', { bubbles: true }));
      element.dispatchEvent(new Event('change', { bubbles: true }));
      return element instanceof HTMLSelectElement ? element.options[element.selectedIndex]?.text ?? wanted : wanted;
    },
    selector,
    value,
  );
  // The choice is seen before the cursor moves on.
  await ctx.clock.sleep(Math.max(0, Math.min(350, left() - 50)));
  return chosen === null ? { error: `No choice "${value}" in the field "${selector}".` } : {};
}

/** Time a text wants at the typing cadence, capped so a long text still leaves room to reach the field. */
function typingReserve(text: string): number {
  return Math.min(2500, [...text].length * 100);
}

function clampToViewport(point: Point, { viewportWidth, viewportHeight }: { viewportWidth: number; viewportHeight: number }): Point {
  return {
    x: Math.round(Math.min(Math.max(2, point.x), viewportWidth - 2) * 10) / 10,
    y: Math.round(Math.min(Math.max(2, point.y), viewportHeight - 2) * 10) / 10,
  };
}

function roundRect(rect: Rect): Rect {
  return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
}
