import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { renderOutputs } from '../../../src/pipeline/encode/render-outputs.js';
import { locateTarget, recordScript, type RecordResult } from '../../../src/pipeline/record/recorder.js';
import type { ActionScript, ScriptStep, Target } from '../../../src/pipeline/types.js';
import { gifFrameCount, pngDimensions } from '../../../src/platform/media-signatures.js';

const run = promisify(execFile);

/** Solid section colours, so a decoded frame tells which section is on screen. */
const COLORS = {
  hero: [230, 57, 70],
  features: [42, 157, 143],
  pricing: [29, 78, 216],
  footer: [244, 162, 97],
} as const;
const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

// A tall page, no external assets: hero 0–640, features 640–1540, pricing (input + button) 1540–2440, footer
// 2440–3340. Smooth scroll-behavior on purpose: the recorder's eased scroll must not fight it.
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Recorder fixture</title><style>
html { scroll-behavior: smooth; }
body { margin: 0; font: 20px/1.4 sans-serif; color: #111; }
section { box-sizing: border-box; height: 900px; padding: 48px 64px; }
#hero { height: 640px; background: ${hex(COLORS.hero)}; }
#features { background: ${hex(COLORS.features)}; }
#pricing { background: ${hex(COLORS.pricing)}; }
#footer { background: ${hex(COLORS.footer)}; }
h1, h2 { margin: 0 0 24px; font-size: 56px; color: #fff; }
.cards { display: flex; gap: 24px; }
.card { width: 260px; height: 140px; background: #fff; border-radius: 12px; padding: 16px; box-sizing: border-box; }
form { display: flex; gap: 16px; margin: 0 0 32px; }
input, button { font-size: 24px; padding: 12px 20px; border-radius: 8px; border: 2px solid #111; }
button { background: #ffd60a; cursor: pointer; }
</style></head><body>
<section id="hero"><h1>Ship demos faster</h1><div class="cards"><div class="card">Record</div><div class="card">Edit</div><div class="card">Share</div></div></section>
<section id="features"><h2>Features</h2><div class="cards"><div class="card">Fast</div><div class="card">Clean</div></div></section>
<section id="pricing"><h2>Pricing</h2>
  <form onsubmit="return false"><input id="email" type="email" placeholder="you@example.com" autocomplete="off">
  <button id="cta" type="button" onclick="this.textContent = 'Thanks!'; window.clicks = (window.clicks || 0) + 1">Start free</button></form>
  <div class="cards"><div class="card">Free</div><div class="card">Pro</div></div></section>
<section id="footer"><h2>Footer</h2><div class="cards"><div class="card">About</div></div></section>
</body></html>`;

function target(selector: string, rect = { x: 0, y: 0, width: 10, height: 10 }, fallbackSelectors: string[] = []): Target {
  return { label: selector, selector, fallbackSelectors, rect };
}

const TYPED = 'hi@showreel.dev';

/** 5 s: scroll, move, type, hover, click, a click on a target that is gone, wait. */
function mainScript(url: string): ActionScript {
  const steps: ScriptStep[] = [
    { kind: 'wait', label: 'Opening', startMs: 0, durationMs: 300 },
    { kind: 'scroll', label: 'To the features', toY: 640, startMs: 300, durationMs: 900 },
    // The primary selector is stale; the fallback finds the field (the page scrolls to it).
    { kind: 'move', label: 'To the email field', target: target('#old-email', undefined, ['input[type=email]']), startMs: 1200, durationMs: 800 },
    { kind: 'type', label: 'Type an address', target: target('#email'), text: TYPED, startMs: 2000, durationMs: 1300 },
    { kind: 'hover', label: 'Hover the CTA', target: target('#cta'), startMs: 3300, durationMs: 450 },
    { kind: 'click', label: 'Click the CTA', target: target('#cta'), startMs: 3750, durationMs: 500 },
    { kind: 'click', label: 'A button that is gone', target: target('#gone', { x: 64, y: 2700, width: 300, height: 60 }), startMs: 4250, durationMs: 550 },
    { kind: 'wait', label: 'Closing', startMs: 4800, durationMs: 200 },
  ];
  return { version: 1, url, viewport: 'desktop', durationMs: 5000, templateId: 'guided-tour', steps };
}

interface Frame {
  width: number;
  height: number;
  rgb: Buffer;
}

async function frameAt(file: string, seconds: number): Promise<Frame> {
  const { ffmpeg } = await ffmpegBinaries();
  const { stdout } = await run(ffmpeg, ['-v', 'error', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const info = await probeVideo(file);
  assert.equal(stdout.length, info.width * info.height * 3, `one whole frame at ${seconds}s`);
  return { width: info.width, height: info.height, rgb: stdout };
}

/** Share of (sampled) pixels within `tolerance` of a colour. */
function share(frame: Frame, rgb: readonly number[], tolerance = 40): number {
  let hits = 0;
  let total = 0;
  for (let i = 0; i < frame.rgb.length; i += 3 * 13) {
    total++;
    if (Math.abs(frame.rgb[i]! - rgb[0]!) + Math.abs(frame.rgb[i + 1]! - rgb[1]!) + Math.abs(frame.rgb[i + 2]! - rgb[2]!) <= tolerance) hits++;
  }
  return hits / total;
}

/** Share of the most common colour (quantised), to catch blank frames. */
function dominantShare(frame: Frame): number {
  const counts = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < frame.rgb.length; i += 3 * 13) {
    const key = ((frame.rgb[i]! >> 4) << 8) | ((frame.rgb[i + 1]! >> 4) << 4) | (frame.rgb[i + 2]! >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    total++;
  }
  return Math.max(...counts.values()) / total;
}

/** Mean absolute difference per channel, 0–255. */
function difference(a: Frame, b: Frame): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.rgb.length; i += 7) {
    sum += Math.abs(a.rgb[i]! - b.rgb[i]!);
    n++;
  }
  return sum / n;
}

describe('recorder', () => {
  let browser: Browser;
  let server: http.Server;
  let url: string;
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-record-'));
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await launchBrowser({ allowPrivate: true });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function openPage(): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720, deviceScaleFactor: 1 });
    await page.goto(url, { waitUntil: 'load' });
    return page;
  }

  it('aims the cursor at a heading\'s words, not at the middle of the box that spans its section', async () => {
    const page = await openPage();
    try {
      const heading = await locateTarget(page, target('#features h2'));
      const box = await page.$eval('#features h2', (h) => h.getBoundingClientRect().toJSON() as { x: number; width: number });
      assert.ok(heading, 'the heading is found');
      assert.equal(Math.round(heading.aim.x), Math.round(box.x), 'the words start where the heading does');
      assert.ok(heading.aim.width < box.width / 3, `"Features" is narrower than its ${box.width} px box: ${heading.aim.width} px`);
      assert.equal(heading.rect.width, box.width, 'the camera still frames the whole heading');
      const button = await locateTarget(page, target('#cta'));
      const buttonBox = await page.$eval('#cta', (b) => b.getBoundingClientRect().width);
      assert.equal(button!.aim.width, buttonBox, 'a button is aimed at as a whole');
    } finally {
      await page.close();
    }
  });

  describe('a 5 s MP4 at 720p', () => {
    let page: Page;
    let result: RecordResult;
    let video: string;
    const progress: number[] = [];
    const script = () => mainScript(url);

    before(async () => {
      page = await openPage();
      video = path.join(dir, 'main.mp4');
      result = await recordScript(page, script(), { format: 'mp4', resolution: '720p', outFile: video, onProgress: (f) => progress.push(f) });
    });
    after(() => page?.close());

    it('is an H.264 1280x720 video at 30 fps lasting the script’s duration', async () => {
      const info = await probeVideo(video);
      assert.equal(info.codec, 'h264');
      assert.equal(info.container, 'mp4');
      assert.deepEqual([info.width, info.height], [1280, 720]);
      assert.ok(info.fps !== null && Math.abs(info.fps - 30) < 0.5, `${info.fps} fps`);
      assert.ok(Math.abs(info.durationMs! - 5000) <= 500, `${info.durationMs} ms`);
      assert.equal(result.frames, 150);
      assert.equal(result.durationMs, 5000);
      assert.ok(result.captureFps > 5, `captured ${result.captureFps} fps before resampling`);
      assert.deepEqual(result.screencast.frameSize, { width: 1280, height: 720 });
      assert.equal(result.screencast.framesWritten, 150);
      // A realtime capture cannot be shorter than its video; how much longer depends on the machine, not the code.
      assert.ok(result.timings.captureMs >= 5000, `capture took ${result.timings.captureMs} ms`);
      assert.equal(progress.at(-1), 1);
    });

    it('shows the page really moving: the sections scrolled to are on screen, and no frame is blank', async () => {
      const start = await frameAt(video, 0.1);
      const features = await frameAt(video, 1.3);
      const pricing = await frameAt(video, 2.8);
      const end = await frameAt(video, 4.9);
      assert.ok(share(start, COLORS.hero) > 0.5, 'the hero at the start');
      assert.ok(share(features, COLORS.features) > 0.6, `features after the scroll (${share(features, COLORS.features)})`);
      assert.ok(share(pricing, COLORS.pricing) > 0.5, 'pricing while typing');
      assert.ok(share(end, COLORS.footer) > 0.5, 'the footer, where the missing target was planned');
      assert.ok(difference(start, end) > 40, `start and end differ (${difference(start, end)})`);
      for (const t of [0.5, 2, 3.5]) {
        const frame = await frameAt(video, t);
        assert.ok(dominantShare(frame) < 0.97, `frame at ${t}s is not all one colour`);
      }
    });

    it('logs every step with its times, and a missing target as not ok without stopping', () => {
      const { log } = result;
      assert.equal(log.length, script().steps.length);
      for (const [i, entry] of log.entries()) {
        assert.equal(entry.index, i);
        assert.equal(entry.action, script().steps[i]!.kind);
        assert.ok(entry.startMs >= 0 && entry.endMs >= entry.startMs && entry.endMs <= 5100, JSON.stringify(entry));
        assert.equal(typeof entry.ok, 'boolean');
      }
      const failed = log.filter((e) => !e.ok);
      assert.equal(failed.length, 1, JSON.stringify(failed));
      assert.equal(failed[0]!.index, 6);
      assert.equal(failed[0]!.target, '#gone');
      assert.match(failed[0]!.error ?? '', /not found/);
      assert.ok(log[7]!.ok, 'the step after it ran');
    });

    it('keeps to the planned timings', () => {
      const { steps } = result.timeline;
      assert.equal(steps.length, 8);
      for (const [i, step] of steps.entries()) {
        const planned = script().steps[i]!;
        assert.equal(step.index, i);
        assert.equal(step.kind, planned.kind);
        assert.equal(step.label, planned.label);
        assert.ok(step.startMs >= planned.startMs && step.startMs - planned.startMs < 250, `step ${i} started at ${step.startMs}, planned ${planned.startMs}`);
        assert.ok(step.endMs >= step.startMs);
        if (i > 0) assert.ok(step.startMs >= steps[i - 1]!.endMs - 1, 'boundaries do not overlap');
      }
      assert.ok(Math.abs(steps.at(-1)!.endMs - 5000) < 100);
    });

    it('records the interaction timeline: cursor, click on the button, keystrokes, scrolls, focus', async () => {
      const { timeline } = result;
      assert.deepEqual(timeline.viewport, { width: 1280, height: 720, deviceScaleFactor: 1 });
      assert.equal(timeline.durationMs, 5000);

      assert.ok(timeline.cursor.length >= 10, `${timeline.cursor.length} cursor samples`);
      for (const [i, c] of timeline.cursor.entries()) {
        assert.ok(c.x >= 0 && c.x <= 1280 && c.y >= 0 && c.y <= 720, JSON.stringify(c));
        if (i > 0) assert.ok(c.t >= timeline.cursor[i - 1]!.t);
      }

      assert.equal(timeline.keystrokes.map((k) => k.key).join(''), TYPED);
      assert.equal(await page.$eval('#email', (el) => (el as HTMLInputElement).value), TYPED);

      // The page saw exactly the planned clicks: the CTA, once (the type step clicks the field, which is fine).
      assert.equal(await page.evaluate(() => (window as unknown as { clicks?: number }).clicks), 1);
      assert.equal(await page.$eval('#cta', (el) => el.textContent), 'Thanks!');
      // Where the button was (document coordinates; its text, hence its width, changed on the click).
      const button = await page.$eval('#cta', (el) => {
        const r = el.getBoundingClientRect();
        return { x: r.left + window.scrollX, y: r.top + window.scrollY, height: r.height };
      });
      const click = timeline.clicks.find((c) => c.t >= 3750 && c.t < 4250);
      assert.ok(click, JSON.stringify(timeline.clicks));
      const scrollAt = (t: number) => timeline.scrolls.filter((s) => s.t <= t).at(-1)!.y;
      // Focus rectangles are the target in viewport coordinates at that moment.
      const ctaFocus = timeline.focus.filter((f) => f.label === '#cta' && f.t <= click.t).at(-1);
      assert.ok(ctaFocus, JSON.stringify(timeline.focus));
      assert.ok(Math.abs(ctaFocus.rect.x - button.x) <= 1, JSON.stringify({ ctaFocus, button }));
      assert.ok(Math.abs(ctaFocus.rect.y + scrollAt(ctaFocus.t) - button.y) <= 1, JSON.stringify({ ctaFocus, button }));
      assert.ok(Math.abs(ctaFocus.rect.height - button.height) <= 1);
      const { rect } = ctaFocus;
      assert.ok(click.x >= rect.x && click.x <= rect.x + rect.width, `click x ${click.x} in ${JSON.stringify(rect)}`);
      assert.ok(click.y >= rect.y && click.y <= rect.y + rect.height, `click y ${click.y} in ${JSON.stringify(rect)}`);
      assert.equal(scrollAt(click.t), scrollAt(ctaFocus.t), 'no scroll between focus and click');
      // The pointer held on the button before the click rests on its lower right, clear of its words.
      const resting = timeline.cursor.filter((c) => c.t >= 3300 && c.t < 3750).at(-1);
      assert.ok(resting, JSON.stringify(timeline.cursor.slice(-20)));
      assert.ok(resting.x > rect.x + rect.width * 0.65 && resting.x <= rect.x + rect.width, `hover x ${resting.x} in ${JSON.stringify(rect)}`);
      assert.ok(resting.y > rect.y + rect.height * 0.55 && resting.y <= rect.y + rect.height, `hover y ${resting.y} in ${JSON.stringify(rect)}`);

      assert.equal(timeline.scrolls[0]!.t, 0);
      assert.ok(timeline.scrolls.some((s) => Math.abs(s.y - 640) < 2), 'scrolled to the features');
      assert.ok(timeline.scrolls.length >= 10, 'every scroll sample');
      assert.ok(timeline.scrolls.at(-1)!.y > 2300, 'ended at the footer');
      assert.ok(timeline.focus.some((f) => f.label === '#old-email'), 'the fallback selector resolved the target');
    });

    it('renders the GIF and PNG thumbnail from the video', async () => {
      const outputs = await renderOutputs({ videoFile: video, durationMs: result.durationMs });
      assert.equal(outputs.video, video);
      const png = await fs.readFile(outputs.thumbnail);
      assert.deepEqual(pngDimensions(png), { width: 1280, height: 720 });
      const gif = await fs.readFile(outputs.gif);
      assert.equal(gif.readUInt16LE(6), 720);
      const frames = gifFrameCount(gif) ?? 0;
      assert.ok(frames >= 50 && frames <= 70, `${frames} GIF frames at ~12 fps`);
      assert.equal(outputs.gifInfo.frames, frames);
    });
  });

  it('records WebM (VP9) too', async () => {
    const page = await openPage();
    try {
      const video = path.join(dir, 'short.webm');
      const script: ActionScript = {
        version: 1,
        url,
        viewport: 'desktop',
        durationMs: 2000,
        templateId: 'plain-scroll',
        steps: [{ kind: 'scroll', label: 'Down', toY: 1540, startMs: 0, durationMs: 1500 }],
      };
      const result = await recordScript(page, script, { format: 'webm', resolution: '720p', outFile: video });
      const info = await probeVideo(video);
      assert.equal(info.codec, 'vp9');
      assert.equal(info.container, 'webm');
      assert.deepEqual([info.width, info.height], [1280, 720]);
      assert.ok(Math.abs((info.durationMs ?? 0) - 2000) <= 200, `${info.durationMs} ms`);
      assert.equal(result.frames, 60);
      const end = await frameAt(video, 1.9);
      assert.ok(share(end, COLORS.pricing) > 0.5, 'scrolled to pricing');
      assert.ok(share(await frameAt(video, 0.1), COLORS.hero) > 0.5);
    } finally {
      await page.close();
    }
  });

  it('does not scroll again to a section the plan has just brought in, only to one hidden under a pinned header', async () => {
    // Features starts at 640. A plan scrolls a section to 16 px below the top (outline-query's SCROLL_MARGIN), then
    // moves to it: a second, stop-and-go scroll there read as a hitch.
    const arrive = (toY: number): ActionScript => ({
      version: 1, url, viewport: 'desktop', durationMs: 2000, templateId: 'section-focus',
      steps: [
        { kind: 'scroll', label: 'To the features', toY, startMs: 0, durationMs: 900 },
        { kind: 'move', label: 'Focus on the features', target: target('#features'), startMs: 900, durationMs: 600 },
        { kind: 'wait', label: 'Dwell', startMs: 1500, durationMs: 500 },
      ],
    });
    // After the arrival the page stays at 624. On a loaded machine the arrival's own last sample can be timed just
    // after it (seen: "622 624"): that is the same scroll ending, still rising to 624, not a second one.
    const staysAt624 = (after: number[]) => after.every((y, i) => y >= 600 && y <= 624 && (i === 0 || y >= after[i - 1]!)) && (after.length === 0 || after.at(-1) === 624);
    const scrollsAfterArrival = async (page: Page, toY: number) => {
      const result = await recordScript(page, arrive(toY), { format: 'mp4', resolution: '720p', outFile: path.join(dir, `arrive-${toY}.mp4`) });
      return result.timeline.scrolls.filter((s) => s.t >= 900).map((s) => Math.round(s.y));
    };
    const plain = await openPage();
    try {
      const after = await scrollsAfterArrival(plain, 640 - 16);
      assert.ok(staysAt624(after), `stays at 624: ${after.join(' ')}`);
    } finally {
      await plain.close();
    }
    const pinned = await openPage();
    try {
      await pinned.evaluate(() => {
        const header = document.createElement('header');
        header.style.cssText = 'position: fixed; top: 0; left: 0; right: 0; height: 96px; background: #222; z-index: 9';
        document.body.prepend(header);
      });
      const after = await scrollsAfterArrival(pinned, 640 - 16);
      assert.ok(after.some((y) => y < 600), `scrolls the section out from under the header: ${after.join(' ')}`);
    } finally {
      await pinned.close();
    }
    // A tall section whose heading sits well below its top: once the heading is clear of the header, the section's
    // top may stay under it (pricing-focus stops there to show the heading with the buttons further down).
    const padded = await openPage();
    try {
      await padded.evaluate(() => {
        const header = document.createElement('header');
        header.style.cssText = 'position: fixed; top: 0; left: 0; right: 0; height: 96px; background: #222; z-index: 9';
        document.body.prepend(header);
        (document.querySelector('#features') as HTMLElement).style.paddingTop = '160px';
      });
      const after = await scrollsAfterArrival(padded, 640 - 16);
      assert.ok(staysAt624(after), `stays at 624: ${after.join(' ')}`);
    } finally {
      await padded.close();
    }
  });

  it('hovers a button near the bottom edge where it is, but scrolls to give a click there room', async () => {
    // 720 px tall viewport scrolled to 624: the button's bottom is 30 px above the edge, on screen but within the
    // click's comfort margin. A hover that scrolled there took a section's heading off screen mid-shot.
    const nearEdge = (kind: 'hover' | 'click'): ActionScript => ({
      version: 1, url, viewport: 'desktop', durationMs: 2400, templateId: 'section-focus',
      steps: [
        { kind: 'scroll', label: 'To the features', toY: 624, startMs: 0, durationMs: 900 },
        { kind, label: 'The low button', target: target('#low'), startMs: 900, durationMs: 1000 },
        { kind: 'wait', label: 'Dwell', startMs: 1900, durationMs: 500 },
      ],
    } as ActionScript);
    const scrollsAfterArrival = async (kind: 'hover' | 'click') => {
      const page = await openPage();
      try {
        await page.evaluate(() => {
          const button = document.createElement('button');
          button.id = 'low';
          button.textContent = 'Low';
          button.style.cssText = 'position: absolute; left: 200px; top: 1274px; height: 40px; width: 120px';
          document.body.append(button);
        });
        const result = await recordScript(page, nearEdge(kind), { format: 'mp4', resolution: '720p', outFile: path.join(dir, `edge-${kind}.mp4`) });
        return result.timeline.scrolls.filter((s) => s.t >= 900).map((s) => Math.round(s.y));
      } finally {
        await page.close();
      }
    };
    const hovered = await scrollsAfterArrival('hover');
    assert.ok(hovered.every((y) => y === 624), `stays at 624: ${hovered.join(' ')}`);
    const clicked = await scrollsAfterArrival('click');
    assert.ok(clicked.some((y) => y > 650), `scrolls the button up from the edge: ${clicked.join(' ')}`);
  });

  it('never skips a step for lack of time: one that starts with nothing left is done at once', async () => {
    // The last step starts 40 ms before the end, as it did when a busy machine made the steps before it overrun
    // (issue 58: "the recording had no time left for this step"): the button is still clicked, and the log says so.
    const page = await openPage();
    try {
      await page.evaluate(() => document.querySelector('#pricing')!.scrollIntoView());
      const script: ActionScript = {
        version: 1,
        url,
        viewport: 'desktop',
        durationMs: 1000,
        templateId: 'guided-tour',
        steps: [
          { kind: 'wait', label: 'Look', startMs: 0, durationMs: 960 },
          { kind: 'click', label: 'Click the CTA', target: target('#cta'), startMs: 960, durationMs: 40 },
        ],
      };
      const result = await recordScript(page, script, { format: 'mp4', resolution: '720p', outFile: path.join(dir, 'late.mp4') });
      assert.deepEqual(result.log.map((e) => [e.action, e.ok, e.error ?? null]), [['wait', true, null], ['click', true, null]]);
      assert.equal(await page.evaluate(() => (window as { clicks?: number }).clicks ?? 0), 1, 'the late click was made');
      assert.equal(result.timeline.clicks.length, 1);
    } finally {
      await page.close();
    }
  });

  it('types over what a field already holds, as a person selects it first', async () => {
    const page = await openPage();
    try {
      await page.evaluate(() => {
        const email = document.querySelector<HTMLInputElement>('#email')!;
        email.value = 'saved@example.com';
        email.scrollIntoView({ block: 'center' });
      });
      const script: ActionScript = {
        version: 1,
        url,
        viewport: 'desktop',
        durationMs: 2500,
        templateId: 'guided-tour',
        steps: [{ kind: 'type', label: 'Type an address', target: target('#email'), text: 'dana@example.com', startMs: 0, durationMs: 2500 }],
      };
      const result = await recordScript(page, script, { format: 'mp4', resolution: '720p', outFile: path.join(dir, 'over.mp4') });
      assert.ok(result.log.every((entry) => entry.ok), JSON.stringify(result.log));
      assert.equal(await page.$eval('#email', (el) => (el as HTMLInputElement).value), 'dana@example.com');
    } finally {
      await page.close();
    }
  });

  it('takes the pointer off a field once it has typed into it, so the value reads whole', async () => {
    const page = await openPage();
    try {
      await page.evaluate(() => document.querySelector('#email')!.scrollIntoView({ block: 'center' }));
      const script: ActionScript = {
        version: 1,
        url,
        viewport: 'desktop',
        durationMs: 3000,
        templateId: 'guided-tour',
        steps: [{ kind: 'type', label: 'Type an address', target: target('#email'), text: 'dana@example.com', startMs: 0, durationMs: 3000 }],
      };
      const result = await recordScript(page, script, { format: 'mp4', resolution: '720p', outFile: path.join(dir, 'aside.mp4') });
      assert.ok(result.log.every((entry) => entry.ok), JSON.stringify(result.log));
      assert.equal(await page.$eval('#email', (el) => (el as HTMLInputElement).value), 'dana@example.com');
      const field = await page.$eval('#email', (el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      });
      const typedAt = result.timeline.keystrokes.at(-1)!.t;
      const last = result.timeline.cursor.at(-1)!;
      assert.ok(last.t >= typedAt, 'the pointer moved after the last key');
      const inside = last.x >= field.left && last.x <= field.right && last.y >= field.top && last.y <= field.bottom;
      assert.ok(!inside, `the pointer rests off the field (${last.x}, ${last.y} against ${JSON.stringify(field)})`);
      assert.ok(last.y - field.bottom < 40 && last.x >= field.left && last.x <= field.right, 'and just below it, not far away');
    } finally {
      await page.close();
    }
  });

  it('stops when aborted and removes the partial file', async () => {
    const page = await openPage();
    try {
      const video = path.join(dir, 'aborted.mp4');
      const controller = new AbortController();
      const script: ActionScript = {
        version: 1,
        url,
        viewport: 'desktop',
        durationMs: 5000,
        templateId: 'plain-scroll',
        steps: [
          { kind: 'wait', label: 'Wait', startMs: 0, durationMs: 3000 },
          { kind: 'scroll', label: 'Down', toY: 1540, startMs: 3000, durationMs: 2000 },
        ],
      };
      const started = Date.now();
      setTimeout(() => controller.abort(new Error('the worker is shutting down')), 600);
      await assert.rejects(recordScript(page, script, { format: 'mp4', resolution: '720p', outFile: video, signal: controller.signal }), /shutting down/);
      assert.ok(Date.now() - started < 2500, 'stopped during the wait, not at its end');
      await assert.rejects(fs.stat(video), { code: 'ENOENT' });

      // A page that goes away (closed, crashed) fails the recording rather than filming a dead page.
      const doomed = await openPage();
      const other = path.join(dir, 'closed.mp4');
      setTimeout(() => void doomed.close(), 600);
      await assert.rejects(recordScript(doomed, script, { format: 'mp4', resolution: '720p', outFile: other }), /closed/);
      await assert.rejects(fs.stat(other), { code: 'ENOENT' });
    } finally {
      await page.close();
    }
  });

  it('asks the agent for each next step until it says stop', async () => {
    const page = await openPage();
    try {
      const video = path.join(dir, 'agent.mp4');
      const script: ActionScript = {
        version: 1,
        url,
        viewport: 'desktop',
        // Room for three agent turns even on a loaded machine (2.5 s ran out before the click under load).
        durationMs: 4000,
        templateId: 'guided-tour',
        steps: [{ kind: 'wait', label: 'Look', startMs: 0, durationMs: 200 }],
      };
      const planned: ScriptStep[] = [
        { kind: 'scroll', label: 'Agent scroll', toY: 1540, startMs: 0, durationMs: 700 },
        { kind: 'click', label: 'Agent click', target: target('#cta'), startMs: 0, durationMs: 700 },
      ];
      const seen: Array<{ index: number; remainingMs: number; previous: string; ok: boolean }> = [];
      const result = await recordScript(page, script, {
        format: 'mp4',
        resolution: '720p',
        outFile: video,
        nextAgentStep: async (context) => {
          seen.push({ index: context.index, remainingMs: context.remainingMs, previous: context.previous.label, ok: context.result.ok });
          // It re-observes the page before deciding.
          await page.evaluate(() => document.title);
          return planned.shift() ?? null;
        },
      });
      assert.deepEqual(seen.map((s) => [s.index, s.previous, s.ok]), [[1, 'Look', true], [2, 'Agent scroll', true], [3, 'Agent click', true]]);
      assert.ok(seen[0]!.remainingMs > seen[1]!.remainingMs && seen[1]!.remainingMs > seen[2]!.remainingMs);
      assert.deepEqual(result.steps.map((s) => s.label), ['Look', 'Agent scroll', 'Agent click']);
      assert.ok(result.steps[1]!.startMs >= 200, 'agent steps carry their actual start');
      assert.deepEqual(result.log.map((e) => e.ok), [true, true, true]);
      assert.equal(await page.evaluate(() => (window as unknown as { clicks?: number }).clicks), 1);
      assert.equal(result.timeline.clicks.length, 1);
      const info = await probeVideo(video);
      assert.ok(Math.abs((info.durationMs ?? 0) - 4000) <= 250, `${info.durationMs} ms`);
    } finally {
      await page.close();
    }
  });
});
