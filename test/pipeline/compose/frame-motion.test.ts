import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLICK, type ComposeFixture, isCaptureBlue, isWhite, near, REST, type RGB, startComposeFixture } from './compose-fixture.js';

// No title bar: its white and its green traffic light would be mistaken for the square and the cursor.
const calm = { windowAnimation: { intro: false, outro: false }, fade: { inMs: 0, outMs: 0 }, mockup: 'minimal' } as const;
const green = (p: RGB) => p[1] > 170 && p[0] < 110 && p[2] < 110;

describe('what moves in a composed video', () => {
  let fixture: ComposeFixture;
  before(async () => {
    fixture = await startComposeFixture();
  });
  after(() => fixture.close());

  it('zooms in on the click, magnified around it, eased in rather than jumping', async () => {
    const noCursor = { ...calm, cursor: { style: 'none' }, clickEffect: { style: 'none' }, background: '#ffcc00' } as const;
    const flat = await fixture.render({ ...noCursor, zoom: { enabled: false } });
    const zoomed = await fixture.render({ ...noCursor, zoom: { enabled: true, intensity: 2, transitionMs: 600 } });
    const squareWidth = async (video: typeof flat, t: number) => {
      const { box } = (await video.frame(t)).find(isWhite);
      assert.ok(box, `the white square is on screen at ${t}s`);
      return { width: box.x1 - box.x0 + 1, cx: (box.x0 + box.x1) / 2, cy: (box.y0 + box.y1) / 2 };
    };
    const base = await squareWidth(flat, CLICK.t / 1000);
    const atClick = await squareWidth(zoomed, CLICK.t / 1000);
    assert.ok(Math.abs(atClick.width / base.width - 2) < 0.2, `twice as large at the click: ${base.width} → ${atClick.width}`);
    // Around the click: the clicked square stays on screen, nearer the middle than it was.
    const distance = (p: { cx: number; cy: number }) => Math.hypot(p.cx - 640, p.cy - 360);
    assert.ok(distance(atClick) < distance(base), 'the view moved towards the click');

    // The zoom is complete before the click (a lead-in), and grows over several frames.
    const widths: number[] = [];
    for (let t = 0.5; t <= 1.55; t += 1 / 15) widths.push((await squareWidth(zoomed, t)).width);
    assert.equal(widths[0], base.width, 'no zoom before the lead-in');
    assert.ok(widths.at(-1)! >= atClick.width - 2, 'fully zoomed just before the click');
    for (let i = 1; i < widths.length; i++) assert.ok(widths[i]! >= widths[i - 1]! - 1, `never shrinks on the way in: ${widths}`);
    const steps = widths.slice(1).map((w, i) => w - widths[i]!);
    assert.ok(Math.max(...steps) < (atClick.width - base.width) * 0.6, `no jump: ${widths}`);
    assert.ok(widths.filter((w) => w > base.width + 1 && w < atClick.width - 1).length >= 3, `intermediate sizes: ${widths}`);

    // And back out at the end.
    assert.equal((await squareWidth(zoomed, 3.8)).width, base.width);
  });

  it('draws the cursor in its colour where the timeline puts it, the same size at zoom 1 and 2', async () => {
    const video = await fixture.render({
      ...calm,
      background: '#ffcc00',
      cursor: { style: 'dot', color: '#00ff00', size: 40 },
      clickEffect: { style: 'none' },
      zoom: { enabled: true, intensity: 2, transitionMs: 300 },
    });
    const { content } = video.layout;
    const resting = (await video.frame(0.4)).find(green);
    assert.ok(resting.box, 'a green cursor at rest');
    const expected = { x: content.x + (REST.x * content.width) / 1280, y: content.y + (REST.y * content.height) / 720 };
    const centre = { x: (resting.box.x0 + resting.box.x1) / 2, y: (resting.box.y0 + resting.box.y1) / 2 };
    assert.ok(Math.hypot(centre.x - expected.x, centre.y - expected.y) < 4, `at ${JSON.stringify(centre)}, expected ${JSON.stringify(expected)}`);
    const zoomed = (await video.frame(2)).find(green);
    assert.ok(zoomed.box);
    const size = (b: NonNullable<typeof zoomed.box>) => b.x1 - b.x0 + 1;
    assert.ok(Math.abs(size(zoomed.box) - size(resting.box)) <= 2, `same size: ${size(resting.box)} and ${size(zoomed.box)} px`);
    // The size is in 1080p pixels, scaled to 720p (the green dot inside its white ring).
    const expected720 = 40 * (720 / 1080);
    assert.ok(size(resting.box) >= expected720 * 0.75 && size(resting.box) <= expected720 + 1, `${size(resting.box)} px for size 40`);
  });

  it('shows every cursor style', async () => {
    for (const style of ['arrow', 'crosshair', 'circle'] as const) {
      const video = await fixture.render({ ...calm, background: '#ffcc00', cursor: { style, color: '#00ff00', size: 48 }, clickEffect: { style: 'none' }, zoom: { enabled: false } });
      const found = (await video.frame(0.4)).find(green);
      assert.ok(found.count > 20, `${style}: ${found.count} green pixels`);
    }
    const none = await fixture.render({ ...calm, background: '#ffcc00', cursor: { style: 'none', color: '#00ff00' }, zoom: { enabled: false } });
    assert.equal((await none.frame(0.4)).find(green).count, 0);
  });

  it('draws a click effect at the click, after it and only then', async () => {
    for (const style of ['pulse', 'ripple', 'glow'] as const) {
      const video = await fixture.render({
        ...calm,
        cursor: { style: 'none' },
        clickEffect: { style, color: '#ff00ff', scale: 2 },
        zoom: { enabled: false },
      });
      const { content } = video.layout;
      const at = { x: content.x + (CLICK.x * content.width) / 1280, y: content.y + (CLICK.y * content.height) / 720 };
      const around = { x: Math.round(at.x - 70), y: Math.round(at.y - 70), width: 140, height: 140 };
      const magenta = (p: RGB) => p[0] > 90 && p[1] < 70 && p[2] > 150;
      const before = (await video.frame(CLICK.t / 1000 - 0.2)).find(magenta, around);
      const afterClick = (await video.frame(CLICK.t / 1000 + 0.15)).find(magenta, around);
      const later = (await video.frame(CLICK.t / 1000 + 1.2)).find(magenta, around);
      assert.equal(before.count, 0, `${style}: nothing before the click`);
      assert.ok(afterClick.count > 40, `${style}: ${afterClick.count} effect pixels after the click`);
      assert.equal(later.count, 0, `${style}: gone a second later`);
    }
  });

  it('fades in from and out to black or white', async () => {
    for (const [color, dark] of [['black', true], ['white', false]] as const) {
      const video = await fixture.render({ windowAnimation: { intro: false }, fade: { inMs: 600, outMs: 600, color } });
      const first = (await video.frame(0)).meanLuma();
      const last = (await video.frame(3.95)).meanLuma();
      const middle = (await video.frame(2)).meanLuma();
      if (dark) assert.ok(first < 20 && last < 20, `black: first ${first}, last ${last}`);
      else assert.ok(first > 235 && last > 235, `white: first ${first}, last ${last}`);
      assert.ok(middle > 25 && middle < 230, `the middle is the video (${middle})`);
    }
  });

  it('raises and scales the window in (and out), smaller in the first frames', async () => {
    const video = await fixture.render({
      background: '#ffcc00',
      mockup: 'minimal',
      fade: { inMs: 0, outMs: 0 },
      zoom: { enabled: false },
      cursor: { style: 'none' },
      windowAnimation: { intro: true, outro: true, introDurationMs: 800, outroDurationMs: 600 },
    });
    const blueWidth = async (t: number) => {
      const { box } = (await video.frame(t)).find(isCaptureBlue);
      assert.ok(box);
      return { width: box.x1 - box.x0, top: box.y0 };
    };
    const first = await blueWidth(0);
    const settled = await blueWidth(2);
    const last = await blueWidth(3.95);
    assert.ok(first.width < settled.width * 0.92, `smaller at first: ${first.width} vs ${settled.width}`);
    assert.ok(first.top > settled.top, 'and lower: it rises');
    assert.ok(last.width < settled.width * 0.95, `smaller at the end: ${last.width}`);
    assert.ok(Math.abs(settled.width - video.layout.content.width) <= 2);
    assert.ok(near((await video.frame(0)).pixel(4, 4), [255, 204, 0]), 'over the background');
  });

  it('overlays a debug HUD with the step, time, frame and template', async () => {
    const region = { x: 0, y: 0, width: 420, height: 70 };
    const plain = await fixture.render({ ...calm, background: '#336699', zoom: { enabled: false } });
    const hud = await fixture.render({ ...calm, background: '#336699', zoom: { enabled: false }, debugHud: true });
    const textPixels = (await hud.frame(1)).find(isWhite, region).count;
    // The box darkens the background (#336699) behind the text.
    const darkBox = (await hud.frame(1)).find((p) => p[0] < 35 && p[2] < 100, region).count;
    assert.equal((await plain.frame(1)).find(isWhite, region).count, 0);
    assert.ok(textPixels > 150, `HUD text (${textPixels} px)`);
    assert.ok(darkBox > 2000, `HUD box (${darkBox} px)`);
    // The frame counter changes: the HUD of two frames differs.
    const a = await hud.frame(1);
    const b = await hud.frame(2.5);
    let differing = 0;
    for (let y = 0; y < 70; y++) for (let x = 0; x < 420; x++) if (!near(a.pixel(x, y), b.pixel(x, y), 60)) differing++;
    assert.ok(differing > 30, 'the counters move');
  });
});
