import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCamera, FPS } from '../../../src/pipeline/compose/camera.js';
import { zoomActions } from '../../../src/pipeline/compose/shots.js';
import { computeLayout } from '../../../src/pipeline/compose/layout.js';
import { resolveStyle } from '../../../src/pipeline/compose/style.js';
import type { InteractionTimeline } from '../../../src/pipeline/types.js';

function timeline(overrides: Partial<InteractionTimeline>): InteractionTimeline {
  return {
    viewport: { width: 1280, height: 720, deviceScaleFactor: 1 },
    durationMs: 12_000,
    cursor: [{ t: 0, x: 640, y: 400 }],
    clicks: [],
    keystrokes: [],
    scrolls: [],
    focus: [],
    steps: [],
    ...overrides,
  };
}

function zoomCurve(t: InteractionTimeline, presentation = {}) {
  const style = resolveStyle({ windowAnimation: { intro: false }, zoom: { enabled: true, intensity: 2, transitionMs: 500 }, ...presentation });
  const layout = computeLayout({ width: 1920, height: 1080 }, { width: 1920, height: 1080 }, style);
  const camera = createCamera(layout, t, style, t.durationMs);
  return { camera, zoom: Array.from({ length: camera.frames }, (_, i) => 1920 / camera.at(i).crop.width) };
}

/** The number of times the zoom goes from (nearly) 1 to above 1.5. */
function zoomIns(zoom: number[]): number {
  let count = 0;
  let out = true;
  for (const z of zoom) {
    if (out && z > 1.5) {
      count++;
      out = false;
    } else if (z < 1.02) out = true;
  }
  return count;
}

describe('the camera', () => {
  it('shares one zoom between actions close in time, and pans between them instead of pumping', () => {
    const { zoom, camera } = zoomCurve(timeline({ clicks: [{ t: 2000, x: 200, y: 200 }, { t: 3200, x: 1000, y: 500 }, { t: 4300, x: 600, y: 300 }] }));
    assert.equal(zoomIns(zoom), 1);
    const during = [2000, 3200, 4300].map((t) => camera.at(Math.round((t * FPS) / 1000)).crop);
    assert.ok(during.every((c) => Math.abs(1920 / c.width - 2) < 0.05), 'fully zoomed at every click');
    assert.ok(during[0]!.x < during[1]!.x, 'the view pans to the second click');
  });

  it('moves on every frame of a zoom or pan, its first and last three steps by less than a pixel on screen', () => {
    // The default look at 720p (1.6×): a whole pixel of crop there moves the picture 1.6 px, which on a dense page
    // the eye (and smoothness.py) sees as motion, so the held view beside it would look stuck while the view moves.
    const style = resolveStyle({ windowAnimation: { intro: false } });
    const layout = computeLayout({ width: 1280, height: 720 }, { width: 1280, height: 720 }, style);
    const t = timeline({ clicks: [{ t: 2000, x: 300, y: 250 }, { t: 3100, x: 900, y: 500 }, { t: 3600, x: 930, y: 510 }] });
    const camera = createCamera(layout, t, style, t.durationMs);
    const crops = Array.from({ length: camera.frames }, (_, i) => camera.at(i).crop);
    // How far the picture moves on screen from one frame to the next: the crop's edge that moves most, zoomed.
    const onScreen = (i: number) => {
      const [a, b] = [crops[i - 1]!, crops[i]!];
      const edges = [b.x - a.x, b.x + b.width - a.x - a.width, b.y - a.y, b.y + b.height - a.y - a.height];
      return Math.max(...edges.map(Math.abs)) * (1280 / Math.min(a.width, b.width));
    };
    // Stretches of consecutive frames whose crop changes: each is one move, with no held frame inside it.
    const moves: number[][] = [];
    for (let i = 1; i < crops.length; i++) {
      const step = onScreen(i);
      if (step === 0) continue;
      if (i > 1 && onScreen(i - 1) > 0 && moves.length > 0) moves.at(-1)!.push(step);
      else moves.push([step]);
    }
    const shown = moves.map((m) => m.map((step) => step.toFixed(2)).join(' ')).join(' | ');
    assert.ok(moves.length >= 3, `${moves.length} moves (in, pans, out): ${shown}`);
    for (const move of moves) {
      assert.ok(move.length >= 8, `each move takes its time, no jump: ${shown}`);
      assert.ok([...move.slice(0, 3), ...move.slice(-3)].every((step) => step <= 0.85), `a move's ends: ${move.map((s) => s.toFixed(2)).join(' ')}`);
      // and speeds up and slows down smoothly: no step more than 4× the one before or after it.
      for (let k = 1; k < move.length; k++) {
        const [before, after] = [move[k - 1]!, move[k]!];
        assert.ok(after <= 4 * before && before <= 4 * after, `steps ${k - 1} and ${k} of ${move.map((s) => s.toFixed(2)).join(' ')}`);
      }
    }
  });

  it('does not pan between two actions while the page scrolls, nor stay zoomed: it zooms out before, and in again', () => {
    const clicks = [{ t: 2000, x: 300, y: 250 }, { t: 3400, x: 1100, y: 600 }];
    const still = zoomCurve(timeline({ clicks })).zoom;
    const scrolled = zoomCurve(timeline({ clicks, scrolls: [{ t: 0, y: 0 }, { t: 2700, y: 300 }, { t: 2800, y: 600 }] })).zoom;
    assert.equal(zoomIns(still), 1);
    assert.equal(zoomIns(scrolled), 2);
    // and is back on the whole window by the time the page starts to scroll
    assert.equal(scrolled[Math.round(2.7 * FPS)], 1);
  });

  it('zooms separately on actions far apart, and is back at 1 in between', () => {
    const { zoom } = zoomCurve(timeline({ clicks: [{ t: 1500, x: 200, y: 200 }, { t: 8000, x: 1000, y: 500 }] }));
    assert.equal(zoomIns(zoom), 2);
    assert.equal(zoom[Math.round(5.2 * FPS)], 1);
  });

  it('is at full zoom a little before the click, with no frame-to-frame jump', () => {
    const { zoom } = zoomCurve(timeline({ clicks: [{ t: 3000, x: 640, y: 360 }] }));
    assert.ok(zoom[Math.round(2.9 * FPS)]! > 1.97, 'zoomed in before the click');
    assert.ok(zoom[Math.round(1.5 * FPS)]! === 1, 'not zoomed long before');
    const steps = zoom.slice(1).map((z, i) => Math.abs(z - zoom[i]!));
    assert.ok(Math.max(...steps) < 0.25, `largest step ${Math.max(...steps)} of a 1 → 2 zoom`);
    const easing = zoom.filter((z) => z > 1 && z < 2).length;
    assert.ok(easing >= 20, `${easing} frames on the way in and out (500 ms each way)`);
  });

  it('follows typing on the field being typed into, and waits for the window intro to finish', () => {
    const field = { x: 900, y: 500, width: 200, height: 40 };
    const t = timeline({
      focus: [{ t: 300, rect: field, label: 'Email' }],
      clicks: [{ t: 500, x: 950, y: 515 }],
      keystrokes: Array.from({ length: 10 }, (_, i) => ({ t: 800 + i * 90, key: 'a' })),
    });
    const actions = zoomActions(t);
    assert.deepEqual(actions.map((a) => a.kind), ['type'], 'the click into the field is part of the typing');
    assert.equal(actions[0]!.x, 1000);
    const { zoom, camera } = zoomCurve(t, { windowAnimation: { intro: true, introDurationMs: 1000 } });
    assert.ok(camera.introFrames === 30);
    assert.ok(zoom.slice(0, 30).every((z) => z === 1), 'no zoom while the window rises');
    assert.ok(Math.max(...zoom) > 1.9);
  });

  it('keeps the form\'s title in view while it zooms on the field being typed into', () => {
    const title = { x: 560, y: 180, width: 160, height: 40 };
    const field = { x: 480, y: 420, width: 320, height: 40 };
    const frame = { x: 480, y: 180, width: 320, height: 280 };
    const typing = (withFrame: boolean) => timeline({
      focus: [{ t: 1000, rect: field, label: 'Email', ...(withFrame ? { frame } : {}) }],
      clicks: [{ t: 1300, x: 640, y: 440 }],
      keystrokes: Array.from({ length: 20 }, (_, i) => ({ t: 1600 + i * 90, key: 'a' })),
    });
    const seen = (withFrame: boolean) => {
      const { camera, zoom } = zoomCurve(typing(withFrame));
      const top = camera.fromViewport({ x: title.x, y: title.y });
      const frames = Array.from({ length: camera.frames }, (_, i) => i).filter((i) => zoom[i]! > 1.2);
      const titleCut = frames.filter((i) => camera.at(i).crop.y > top.y + 1);
      return { zoomed: frames.length, titleCut: titleCut.length };
    };
    const alone = seen(false);
    assert.ok(alone.titleCut > 0, 'a zoom on the field alone cuts the title off (the defect this guards)');
    const framed = seen(true);
    assert.ok(framed.zoomed > 30, `the typing is still zoomed on (${framed.zoomed} frames)`);
    assert.equal(framed.titleCut, 0, 'the title stays in view through the zoom');
  });

  it('keeps the filled form in view while it points at its button after the typing', () => {
    const title = { x: 560, y: 180, width: 160, height: 40 };
    const field = { x: 480, y: 420, width: 320, height: 40 };
    const frame = { x: 480, y: 180, width: 320, height: 280 };
    const button = { x: 480, y: 520, width: 140, height: 44 };
    const t = timeline({
      cursor: [{ t: 0, x: 640, y: 400 }, { t: 4400, x: 550, y: 542 }],
      focus: [{ t: 1000, rect: field, label: 'Email', frame }, { t: 4000, rect: button, label: 'Send message' }],
      clicks: [{ t: 1300, x: 640, y: 440 }],
      keystrokes: Array.from({ length: 20 }, (_, i) => ({ t: 1600 + i * 90, key: 'a' })),
      steps: [
        { index: 0, label: 'Type into "Email"', kind: 'type', startMs: 1000, endMs: 3500 },
        { index: 1, label: 'Point at "Send message"', kind: 'hover', startMs: 4000, endMs: 6000 },
        { index: 2, label: 'Hold on the filled form', kind: 'wait', startMs: 6000, endMs: 9000 },
      ],
    });
    const { camera } = zoomCurve(t);
    const top = camera.fromViewport({ x: title.x, y: title.y });
    const bottom = camera.fromViewport({ x: button.x, y: button.y + button.height });
    for (const ms of [4600, 5500, 7000]) {
      const crop = camera.at(Math.round((ms * FPS) / 1000)).crop;
      assert.ok(crop.y <= top.y + 1 && crop.y + crop.height >= bottom.y - 1, `the title and the button in view at ${ms} ms: ${JSON.stringify(crop)}`);
    }
  });

  it('zooms on a focused section only as far as it stays whole, and on one that fills the view only as far as the page fills the frame', () => {
    const focused = (rect: { x: number; y: number; width: number; height: number }) =>
      timeline({
        cursor: [{ t: 0, x: 640, y: 400 }, { t: 2600, x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 }],
        focus: [{ t: 2000, rect, label: 'Pricing' }],
        steps: [
          { index: 0, label: 'Move to the pricing cards', kind: 'move', startMs: 2000, endMs: 2700 },
          { index: 1, label: 'Dwell on "Pricing"', kind: 'wait', startMs: 2700, endMs: 5000 },
        ],
      });
    const card = zoomCurve(focused({ x: 240, y: 160, width: 800, height: 400 }));
    const peak = Math.max(...card.zoom);
    assert.ok(peak > 1.25 && peak < 1.65, `an 800 px wide card keeps whole, with a margin, at ${peak.toFixed(2)}x (intensity 2)`);
    assert.ok(card.zoom.slice(Math.round(2.7 * FPS), 5 * FPS).some((z) => z > 1.25), 'zoomed while the plan dwells');
    const crop = card.camera.at(Math.round(3 * FPS)).crop;
    const topLeft = card.camera.fromViewport({ x: 240, y: 160 });
    const bottomRight = card.camera.fromViewport({ x: 1040, y: 560 });
    assert.ok(crop.x <= topLeft.x && crop.y <= topLeft.y && crop.x + crop.width >= bottomRight.x && crop.y + crop.height >= bottomRight.y, 'the card is whole');
    // A section filling the view: the gentle push-in that fills the frame with the page, nothing of the page cut.
    const section = zoomCurve(focused({ x: 0, y: 0, width: 1280, height: 700 }));
    const page = { x: section.camera.fromViewport({ x: 0, y: 0 }), end: section.camera.fromViewport({ x: 1280, y: 720 }) };
    assert.ok(Math.max(...section.zoom) > 1.15, `a visible push-in, to ${Math.max(...section.zoom).toFixed(2)}x`);
    section.zoom.forEach((_, frame) => {
      const view = section.camera.at(frame).crop;
      assert.ok(view.x <= page.x.x + 1 && view.y <= page.x.y + 1 && view.x + view.width >= page.end.x - 1 && view.y + view.height >= page.end.y - 1, `the whole page in view at frame ${frame}`);
    });
  });

  it('pushes in once per shot of a two-beat video, slowly, holds while the beat is read, and is out before the page travels', () => {
    // As the recorder reports a plan of two beats: a cut to each section, the cursor to its heading, a long read.
    const wide = { x: 0, y: 80, width: 1280, height: 520 };
    const t = timeline({
      durationMs: 10_000,
      cursor: [{ t: 0, x: 640, y: 400 }, { t: 1700, x: 640, y: 120 }, { t: 5700, x: 640, y: 130 }],
      scrolls: [{ t: 1000, y: 0 }, { t: 1033, y: 1500 }, { t: 5000, y: 1500 }, { t: 5033, y: 3100 }],
      focus: [{ t: 1500, rect: wide, label: 'Meet the guides' }, { t: 5500, rect: wide, label: 'Plan your climb' }],
      steps: [
        { index: 0, label: 'Settle on the page', kind: 'wait', startMs: 0, endMs: 1000 },
        { index: 1, label: 'Scroll to "Meet the guides"', kind: 'scroll', startMs: 1000, endMs: 1500 },
        { index: 2, label: 'Focus on "Meet the guides"', kind: 'move', startMs: 1500, endMs: 1700 },
        { index: 3, label: 'Read "Meet the guides"', kind: 'wait', startMs: 1700, endMs: 5000 },
        { index: 4, label: 'Scroll to "Plan your climb"', kind: 'scroll', startMs: 5000, endMs: 5500 },
        { index: 5, label: 'Focus on "Plan your climb"', kind: 'move', startMs: 5500, endMs: 5700 },
        { index: 6, label: 'Read "Plan your climb"', kind: 'wait', startMs: 5700, endMs: 10_000 },
      ],
    });
    const { camera, zoom } = zoomCurve(t, { zoom: { enabled: true } }); // the default look's intensity
    const frame = (ms: number) => Math.round((ms * FPS) / 1000);
    assert.equal(zoomIns(zoom.map((z) => (z > 1.1 ? 2 : 1))), 2, 'one push-in for each beat');
    for (const shot of [{ from: 1700, to: 5000 }, { from: 5700, to: 10_000 }]) {
      const inside = zoom.slice(frame(shot.from), frame(shot.to));
      // Slow: the push takes more than half a second to come in.
      const rising = inside.filter((z, i) => i > 0 && z > inside[i - 1]!).length;
      assert.ok(rising >= FPS / 2, `the push-in takes ${rising} frames`);
    }
    // Out before travelling: the whole window at each scroll.
    assert.equal(zoom[frame(5000)], 1, 'back on the whole window when the page travels');
    assert.equal(zoom.at(-1), 1, 'and at the end');
    assert.equal(camera.actions.length, 2);
  });

  it("comes back to the whole window as a flow's link opens the next page, and pushes in again on the page it arrives on", () => {
    // As a flow records it (issue 56): a click on a menu's link, held while the link is followed; the next page comes
    // in at 4.4 s (each leg starts with a scroll sample), its first part is framed and read to the end.
    const banner = { x: 0, y: 0, width: 1280, height: 330 };
    const t = timeline({
      durationMs: 13_000,
      cursor: [{ t: 0, x: 640, y: 400 }, { t: 3000, x: 520, y: 140 }, { t: 5400, x: 640, y: 160 }],
      clicks: [{ t: 3600, x: 520, y: 140 }],
      scrolls: [{ t: 0, y: 0 }, { t: 4400, y: 0 }],
      focus: [{ t: 3000, rect: { x: 430, y: 125, width: 260, height: 40 }, label: 'Trainer' }, { t: 4900, rect: banner, label: 'Trainer' }],
      steps: [
        { index: 0, label: 'Look at the page', kind: 'wait', startMs: 0, endMs: 2500 },
        { index: 1, label: 'Move to "Trainer"', kind: 'move', startMs: 2500, endMs: 3000 },
        { index: 2, label: 'Open "Trainer"', kind: 'navigate', startMs: 3000, endMs: 4400 },
        { index: 3, label: 'Arrive on the page', kind: 'wait', startMs: 4400, endMs: 4900 },
        { index: 4, label: 'Arrive on "Trainer"', kind: 'move', startMs: 4900, endMs: 5400 },
        { index: 5, label: 'Read "Trainer"', kind: 'wait', startMs: 5400, endMs: 13_000 },
      ],
    });
    const { zoom } = zoomCurve(t, { zoom: { enabled: true } });
    const frame = (ms: number) => Math.round((ms * FPS) / 1000);
    assert.ok(zoom[frame(3700)]! > 1.1, 'the click on the link is zoomed on');
    assert.equal(zoom[frame(4400)], 1, 'the next page comes in on the whole window');
    const arrival = zoom.slice(frame(5400), frame(12_000));
    const rising = arrival.filter((z, i) => i > 0 && z > arrival[i - 1]!).length;
    assert.ok(rising >= FPS * 2, `the arrival is pushed in on slowly (${rising} frames rising)`);
  });

  it('keeps the zoom inside the frame for a click in a corner', () => {
    const { camera } = zoomCurve(timeline({ clicks: [{ t: 3000, x: 2, y: 2 }] }));
    const crop = camera.at(Math.round(3 * FPS)).crop;
    assert.ok(crop.x >= 0 && crop.y >= 0 && crop.x + crop.width <= 1920 && crop.y + crop.height <= 1080);
  });

  it('does not zoom when zoom is disabled', () => {
    const { zoom } = zoomCurve(timeline({ clicks: [{ t: 3000, x: 640, y: 360 }] }), { zoom: { enabled: false } });
    assert.ok(zoom.every((z) => z === 1));
  });
  it('never ends zoomed in: an action at the very end is back on the whole window before the last frames', () => {
    const t = timeline({ durationMs: 6000, clicks: [{ t: 5600, x: 640, y: 360 }, { t: 4800, x: 300, y: 200 }].sort((a, b) => a.t - b.t) });
    const { zoom } = zoomCurve(t);
    assert.ok(zoom.slice(-Math.round(0.6 * FPS)).every((z) => z === 1), 'the last 0.6 s show the overview');
    assert.equal(zoom.at(-1), 1);
  });

  it('holds a zoom about 2 s per action, even when the plan dwells longer', () => {
    const rect = { x: 500, y: 300, width: 200, height: 60 };
    const t = timeline({
      cursor: [{ t: 0, x: 640, y: 400 }, { t: 1200, x: 600, y: 330 }],
      focus: [{ t: 1000, rect, label: 'Buy' }],
      steps: [{ index: 0, label: 'Hover "Buy"', kind: 'hover', startMs: 1000, endMs: 9000 }],
    });
    const { zoom } = zoomCurve(t);
    const zoomedMs = (zoom.filter((z) => z > 1.9).length * 1000) / FPS;
    assert.ok(zoomedMs <= 2200, `fully zoomed for ${zoomedMs} ms`);
  });

  it('stays on what was just done while the plan holds on it: the last tick of a list, held 3.6 s', () => {
    const box = { x: 500, y: 300, width: 40, height: 40 };
    const t = timeline({
      cursor: [{ t: 0, x: 640, y: 400 }, { t: 1800, x: 520, y: 320 }],
      clicks: [{ t: 2000, x: 520, y: 320 }],
      focus: [{ t: 1000, rect: box, label: 'Tick off' }],
      steps: [
        { index: 0, label: 'Tick off "call grandma"', kind: 'click', startMs: 1000, endMs: 2200 },
        { index: 1, label: 'Hold on the list', kind: 'wait', startMs: 2200, endMs: 5800 },
        { index: 2, label: 'End', kind: 'wait', startMs: 5800, endMs: 9000 },
      ],
    });
    const { zoom } = zoomCurve(t);
    for (const ms of [3000, 4500, 5400]) {
      const z = zoom[Math.round((ms * FPS) / 1000)]!;
      assert.ok(z > 1.5, `still zoomed on the list at ${ms} ms (×${z.toFixed(2)})`);
    }
  });

  it('a zoom on a button inside a focused section keeps the section heading in the view', () => {
    const sectionTop = { x: 256, y: 80, width: 768, height: 380 };
    const button = { x: 1000, y: 600, width: 160, height: 48 };
    const t = timeline({
      cursor: [{ t: 0, x: 640, y: 400 }, { t: 1400, x: 640, y: 270 }, { t: 3400, x: 1080, y: 624 }],
      focus: [{ t: 1000, rect: sectionTop, label: 'Pricing' }, { t: 3000, rect: button, label: 'Get Pro' }],
      steps: [
        { index: 0, label: 'Focus on "Pricing"', kind: 'move', startMs: 1000, endMs: 1500 },
        { index: 1, label: 'Dwell on "Pricing"', kind: 'wait', startMs: 1500, endMs: 2800 },
        { index: 2, label: 'Hover "Get Pro"', kind: 'hover', startMs: 3000, endMs: 4500 },
      ],
    });
    const { camera, zoom } = zoomCurve(t);
    assert.ok(camera.actions.length <= 1, 'the section and the button it hovers are one shot, at most one zoom');
    assert.ok(zoomIns(zoom.map((z) => (z > 1.1 ? 2 : z))) <= 1, 'zoomed in once at most');
    for (const ms of [1600, 3500, 4200]) {
      const frame = Math.round((ms * FPS) / 1000);
      const crop = camera.at(frame).crop;
      const topLeft = camera.fromViewport({ x: 256, y: 80 });
      const right = camera.fromViewport({ x: 256 + 768, y: 80 }).x;
      assert.ok(crop.y <= topLeft.y && crop.x <= topLeft.x + 1 && crop.x + crop.width >= right - 1, `heading whole at ${ms} ms: ${JSON.stringify(crop)}`);
    }
  });

  it('keeps the section heading in view on the frame clock too, where the focus comes a fraction of a millisecond before its rounded step', () => {
    // As a 30 fps recording stamps it (tw-freshcart, 1080p): the scroll ends and the move to the section starts at
    // 1867 ms, the focus is reported at 1866.67 ms; then four hovers on the cards' small "Add" buttons.
    const frame = (n: number) => (n * 1000) / 30;
    const section = { x: 0, y: 16, width: 1280, height: 700 };
    const buttons = [160, 420, 680, 940].map((x) => ({ x, y: 400, width: 70, height: 28 }));
    const t = timeline({
      durationMs: 10_000,
      scrolls: [{ t: frame(32), y: 0 }, { t: frame(50), y: 1500 }],
      focus: [
        { t: frame(56), rect: section, label: 'Popular Products' },
        ...buttons.map((rect, i) => ({ t: frame(125 + i * 35), rect, label: 'Add' })),
      ],
      steps: [
        { index: 0, label: 'Scroll to "Popular Products"', kind: 'scroll', startMs: 1067, endMs: 1867 },
        { index: 1, label: 'Focus on "Popular Products"', kind: 'move', startMs: 1867, endMs: 2267 },
        { index: 2, label: 'Dwell on "Popular Products"', kind: 'wait', startMs: 2267, endMs: 3100 },
        ...buttons.map((_, i) => ({ index: 3 + i, label: 'Hover "Add"', kind: 'hover' as const, startMs: Math.round(frame(125 + i * 35)), endMs: Math.round(frame(125 + i * 35 + 30)) })),
        { index: 7, label: 'Dwell on "Popular Products"', kind: 'wait', startMs: 8733, endMs: 9467 },
      ],
    });
    const { camera } = zoomCurve(t);
    assert.ok(camera.actions.length <= 1, `the section and its hovers are one shot: ${camera.actions.length} zooms`);
    const headingTop = camera.fromViewport({ x: 0, y: 16 }).y;
    for (let ms = 2500; ms <= 9000; ms += 250) {
      const crop = camera.at(Math.round((ms * FPS) / 1000)).crop;
      assert.ok(crop.y <= headingTop + 1, `the heading is in view at ${ms} ms: ${JSON.stringify(crop)}`);
    }
  });

  it('a hover on a heading as wide as the page is not zoomed so far that its words are cut', () => {
    const heading = { x: 40, y: 200, width: 1200, height: 56 };
    const t = timeline({
      cursor: [{ t: 0, x: 640, y: 400 }, { t: 1400, x: 640, y: 228 }],
      focus: [{ t: 1000, rect: heading, label: 'Heading "Made possible by"' }],
      steps: [{ index: 0, label: 'Trace the heading "Made possible by"', kind: 'hover', startMs: 1000, endMs: 3000 }],
    });
    const { camera } = zoomCurve(t);
    const left = camera.fromViewport({ x: heading.x, y: heading.y });
    const right = camera.fromViewport({ x: heading.x + heading.width, y: heading.y });
    for (let frame = 0; frame < camera.frames; frame++) {
      const crop = camera.at(frame).crop;
      assert.ok(crop.x <= left.x + 1 && crop.x + crop.width >= right.x - 1, `the heading whole at frame ${frame}: ${JSON.stringify(crop)}`);
    }
  });
});
