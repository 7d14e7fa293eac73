import type { Browser } from 'puppeteer-core';
import { analysePage } from '../../src/pipeline/analyse/analyse-page.js';
import { evaluateInPage } from '../../src/pipeline/analyse/in-page.js';
import { createCamera, FPS } from '../../src/pipeline/compose/camera.js';
import { captureSizeFor } from '../../src/pipeline/compose/compose.js';
import { computeLayout } from '../../src/pipeline/compose/layout.js';
import { isReadable, recordedScrollCurve } from '../../src/pipeline/compose/take-check.js';
import { resolveStyle } from '../../src/pipeline/compose/style.js';
import { OUTPUT_SIZES } from '../../src/pipeline/encode/video-encoder.js';
import { compileScript } from '../../src/pipeline/plan/compile.js';
import { CUT_GLIDE_MS, CUT_GLIDE_SCREENS } from '../../src/pipeline/record/steps.js';
import { planDemo } from '../../src/pipeline/plan/heuristic-planner.js';
import type { ActionScript, DemoPlan, InteractionTimeline, PageOutline, Rect } from '../../src/pipeline/types.js';
import { type Direction, directionOf } from './direction.js';

/**
 * Scores a story case without encoding a video: the page is analysed in Chromium (its outline and the document
 * rect of every section heading), the prompt is planned and compiled as the worker does, and the script is played
 * on paper — scroll positions through time, the interaction timeline the recorder reports for it — through the real
 * camera. A heading counts as readable in a frame when it lies wholly inside the viewport below the sticky header
 * and wholly inside the camera's (zoomed or not) view.
 */

export const VIEWPORT = { width: 1440, height: 810 };

export interface AnalysedSite {
  url: string;
  outline: PageOutline;
  /** element id → the document rect of its first h1–h3 */
  headings: Record<string, Rect>;
}

export async function analyseSite(browser: Browser, url: string, wanted: Array<{ key: string; text: string; tag?: string }> = []): Promise<AnalysedSite> {
  const page = await browser.newPage();
  try {
    await page.setViewport(VIEWPORT);
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    const { outline } = await analysePage(page, { timeoutMs: 30_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const headings = await evaluateInPage(page, (wantedHeadings: Array<{ key: string; text: string; tag?: string }>) => {
      const found: Record<string, { x: number; y: number; width: number; height: number }> = {};
      // The box of the heading's text, not of its element: a centred heading's block spans the whole container,
      // and a view that cuts its empty sides still shows every word.
      const docRect = (element: Element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const text = range.getBoundingClientRect();
        const r = text.width > 0 && text.height > 0 ? text : element.getBoundingClientRect();
        return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
      };
      for (const section of Array.from(document.querySelectorAll('[id]'))) {
        const heading = section.querySelector('h1, h2, h3');
        if (heading) found[section.id] = docRect(heading);
      }
      // The real set names its targets by the heading's visible text: the first visible element whose whole text it
      // is, a heading element (or the tag the case gives) before any other, the innermost of nested matches.
      const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
      const all = Array.from(document.body.querySelectorAll('*'));
      for (const want of wantedHeadings) {
        const target = norm(want.text);
        const matches = all.filter((element) => {
          const r = element.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) return false;
          // As rendered (a <br> between two sentences reads as a space), or as written.
          return norm(element.textContent ?? '') === target || (element instanceof HTMLElement && norm(element.innerText) === target);
        });
        // A heading's words are often a permalink inside it (<h1><a href="#x">Limitations</a></h1>): the innermost match
        // is then the link, and it ranks as the heading it sits in, not as the table of contents' link of that name.
        const rank = (element: Element) => {
          const heading = element.closest('h1, h2, h3, h4, h5, h6') ?? element;
          return (/^H[1-6]$/.test(heading.tagName) ? 0 : 2) + (want.tag && heading.tagName.toLowerCase() === want.tag.toLowerCase() ? 0 : 1);
        };
        const innermost = matches.filter((element) => !matches.some((other) => other !== element && element.contains(other)));
        innermost.sort((a, b) => rank(a) - rank(b));
        if (innermost[0]) found[want.key] = docRect(innermost[0]);
      }
      return found;
    }, wanted);
    return { url, outline, headings };
  } finally {
    await page.close();
  }
}

export interface CaseScore {
  plan: DemoPlan;
  /** seconds the heading was readable in total, and in its longest unbroken stretch */
  readableS: number;
  longestS: number;
  /** whether the video's last frame shows the overview (not zoomed in) */
  endsOnOverview: boolean;
  /** seconds the page rests with the heading partly or wholly under the sticky header (a shot framed wrong) */
  underHeaderS: number;
  /** seconds the heading is on the page's screen, below the header, but cut by the camera's zoom */
  croppedS: number;
  /** how many times the camera zooms in, and how many shots (stretches between scrolls) the video has */
  zoomIns: number;
  shots: number;
  /** opening, longest still stretch, fastest travel (direction.ts) */
  direction: Direction;
}

/** Plans and compiles the prompt for the page as the worker does (heuristic planner, desktop viewport). */
export function planCase(site: AnalysedSite, prompt: string, durationTarget: '10s' | '30s' = '10s'): { plan: DemoPlan; script: ActionScript } {
  const plan = planDemo({ prompt, outline: site.outline, durationTarget, template: { id: 'auto' }, mode: 'script' });
  return { plan, script: compileScript(plan, site.outline, { url: site.url, viewport: 'desktop' }) };
}

/** Scores the case on paper: the script's scroll positions and the timeline the recorder would report for it. */
export function scoreCase(site: AnalysedSite, prompt: string, expectId: string | string[], durationTarget: '10s' | '30s' = '10s'): CaseScore {
  const { plan, script } = planCase(site, prompt, durationTarget);
  const scrollAt = scrollCurve(script);
  return scoreTimeline(site, plan, timelineOf(script, site.outline, scrollAt), scrollAt, expectId);
}

/**
 * Scores a timeline (on paper, or as a recording reported it): for every output frame, whether the expected
 * section's heading is wholly inside the viewport at the page's scroll position and inside the camera's view.
 */
export function scoreTimeline(site: AnalysedSite, plan: DemoPlan, timeline: InteractionTimeline, scrollAt: (t: number) => number, expectId: string | string[]): CaseScore {
  // Several keys (a pricing table's plan names and prices): a frame counts when every one of them is readable.
  const keys = Array.isArray(expectId) ? expectId : [expectId];
  const rects = keys.map((key) => site.headings[key]);
  const heading = rects[0];
  const style = resolveStyle(null);
  const output = OUTPUT_SIZES['1080p'];
  const layout = computeLayout(output, captureSizeFor(null, '1080p', VIEWPORT), style);
  const camera = createCamera(layout, timeline, style, timeline.durationMs);
  let frames = 0;
  let run = 0;
  let longest = 0;
  let underHeader = 0;
  let cropped = 0;
  for (let frame = 0; frame < camera.frames; frame++) {
    const t = (frame * 1000) / FPS;
    const readable = rects.every((rect) => rect !== undefined && isReadable(rect, scrollAt(t), site.outline, camera, frame, output));
    if (heading && !readable) {
      const top = heading.y - scrollAt(t);
      const atRest = Math.abs(scrollAt(t) - scrollAt(t - 1000 / FPS)) < 0.5 && Math.abs(scrollAt(t) - scrollAt(t + 1000 / FPS)) < 0.5;
      const sticky = site.outline.stickyHeaderHeight;
      if (atRest && sticky > 0 && top < sticky - 1 && top + heading.height > 0) underHeader++;
      else if (top >= sticky - 1 && top + heading.height <= site.outline.viewport.height + 1 && !camera.at(frame).animating) cropped++;
    }
    if (process.env.EVAL_TRACE && frame % 6 === 0) {
      const crop = camera.at(frame).crop;
      console.error(`${(t / 1000).toFixed(1)}s scroll=${Math.round(scrollAt(t))} top=${heading ? Math.round(heading.y - scrollAt(t)) : '-'} crop=${crop.x},${crop.y} ${crop.width}w ${readable ? 'READABLE' : ''}`);
    }
    if (readable) {
      frames++;
      run++;
      longest = Math.max(longest, run);
    } else run = 0;
  }
  const last = camera.at(camera.frames - 1).crop;
  let zoomIns = 0;
  for (let frame = 1; frame < camera.frames; frame++) {
    if (camera.at(frame - 1).crop.width === output.width && camera.at(frame).crop.width < output.width) zoomIns++;
  }
  const scrollSteps = timeline.steps.filter((step) => step.kind === 'scroll').length;
  return {
    plan, readableS: frames / FPS, longestS: longest / FPS, endsOnOverview: last.width === output.width, underHeaderS: underHeader / FPS,
    croppedS: cropped / FPS, zoomIns, shots: scrollSteps + 1, direction: directionOf(timeline, scrollAt, camera, heading),
  };
}

/** The page's scroll position through a recorded timeline, and a heading's readability: as the service's own check. */
export { recordedScrollCurve };

/** The page's scroll position through the script: each scroll eases from where the page was to its target; a cut jumps. */
function scrollCurve(script: ActionScript): (t: number) => number {
  const scrolls: Array<{ start: number; end: number; from: number; to: number }> = [];
  let y = 0;
  for (const step of script.steps) {
    if (step.kind !== 'scroll') continue;
    if (step.cut) {
      // The recorder's cut: a jump to just short of the place, then a glide into it (record/steps.ts).
      const glide = Math.min(VIEWPORT.height * CUT_GLIDE_SCREENS, Math.abs(step.toY - y) / 2);
      const from = step.toY - Math.sign(step.toY - y) * glide;
      scrolls.push({ start: step.startMs, end: step.startMs + 1000 / FPS, from: y, to: from });
      scrolls.push({ start: step.startMs + 1000 / FPS, end: step.startMs + Math.min(CUT_GLIDE_MS, step.durationMs - 60), from, to: step.toY });
    } else scrolls.push({ start: step.startMs, end: step.startMs + step.durationMs, from: y, to: step.toY });
    y = step.toY;
  }
  return (t) => {
    let at = 0;
    for (const s of scrolls) {
      if (t >= s.end) at = s.to;
      else if (t > s.start) {
        const k = (t - s.start) / Math.max(1, s.end - s.start);
        return s.from + (s.to - s.from) * (k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2);
      } else break;
    }
    return at;
  };
}

/** What the recorder reports for the script: cursor arrivals, clicks, keys, scrolls, the targets it located. */
function timelineOf(script: ActionScript, outline: PageOutline, scrollAt: (t: number) => number): InteractionTimeline {
  const timeline: InteractionTimeline = {
    viewport: { width: VIEWPORT.width, height: VIEWPORT.height, deviceScaleFactor: 1 },
    durationMs: script.durationMs,
    cursor: [{ t: 0, x: VIEWPORT.width / 2, y: VIEWPORT.height / 2 }],
    clicks: [],
    keystrokes: [],
    scrolls: [],
    focus: [],
    steps: [],
  };
  script.steps.forEach((step, index) => {
    const end = step.startMs + step.durationMs;
    timeline.steps.push({ index, label: step.label, kind: step.kind, startMs: step.startMs, endMs: end });
    if (step.kind === 'scroll') {
      for (let t = step.startMs; t <= end; t += 100) timeline.scrolls.push({ t, y: Math.round(scrollAt(t)) });
      return;
    }
    if (step.kind === 'wait') return;
    const fixed = outline.stickyHeaderHeight > 0 && step.target.rect.y + step.target.rect.height <= outline.stickyHeaderHeight + 2;
    const rect = { ...step.target.rect, y: step.target.rect.y - (fixed ? 0 : scrollAt(step.startMs)) };
    const point = { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    timeline.focus.push({ t: step.startMs, rect, label: step.target.label });
    timeline.cursor.push({ t: step.kind === 'move' ? end : step.startMs, ...point });
    if (step.kind === 'click') timeline.clicks.push({ t: end, ...point });
    if (step.kind === 'type') {
      const gap = step.durationMs / Math.max(1, step.text.length);
      [...step.text].forEach((key, i) => timeline.keystrokes.push({ t: step.startMs + i * gap, key }));
    }
  });
  return timeline;
}
