import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { captionFrames, placeCaption } from '../../../src/pipeline/compose/caption-layer.js';
import { createCamera } from '../../../src/pipeline/compose/camera.js';
import { computeLayout } from '../../../src/pipeline/compose/layout.js';
import { resolveStyle } from '../../../src/pipeline/compose/style.js';
import type { Caption } from '../../../src/pipeline/story-text/types.js';
import type { InteractionTimeline } from '../../../src/pipeline/types.js';

/**
 * Where a burned-in caption sits (issue 36): a 1280x720 page with a 64 px sticky navigation, recorded in the default
 * window (title bar, background around it) into a 720p video. A caption 50 px high, 32 px margins, as 720p draws it.
 */
const output = { width: 1280, height: 720 };
const size = { height: 50, margin: 32 };
const NAV = 64;

function cameraFor(overrides: Partial<InteractionTimeline> = {}, presentation = {}) {
  const timeline: InteractionTimeline = {
    viewport: { width: 1280, height: 720, deviceScaleFactor: 1 },
    durationMs: 10_000,
    cursor: [{ t: 0, x: 640, y: 400 }],
    clicks: [],
    keystrokes: [],
    scrolls: [],
    focus: [],
    steps: [],
    ...overrides,
  };
  const style = resolveStyle(presentation);
  const layout = computeLayout(output, { width: 1280, height: 720 }, style);
  return { camera: createCamera(layout, timeline, style, timeline.durationMs), layout };
}
const caption = (avoid: Caption['avoid'] = null): Caption => ({ startMs: 3000, endMs: 5000, lines: ['Pricing: from $9 to $49'], avoid });

describe('placing a burned-in caption', () => {
  it('puts a caption asked for at the top inside the page, below the window’s title bar and the page’s sticky navigation', () => {
    const { camera, layout } = cameraFor();
    assert.ok(layout.titleBarHeight > 0 && layout.window.y > 0, 'the default style draws a window with a title bar');
    const placed = placeCaption(caption(), 'top', size, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 });
    assert.equal(placed.edge, 'top');
    for (const frame of captionFrames(caption(), camera)) {
      const navBottom = camera.project(frame, camera.fromViewport({ x: 0, y: NAV })).y;
      assert.ok(placed.y >= navBottom, `frame ${frame}: the caption's top (${placed.y}) is below the navigation's foot (${navBottom})`);
    }
    assert.ok(placed.y > layout.content.y, 'below the title bar');
    // Without a sticky header it still keeps off the title bar: the page's own top is the limit.
    const bare = placeCaption(caption(), 'top', size, camera, output, { stickyHeaderHeight: 0, viewportHeight: 720 });
    assert.ok(bare.y >= layout.content.y && bare.y < placed.y, `${bare.y} between ${layout.content.y} and ${placed.y}`);
    // At the bottom nothing changes: a margin above the frame's foot.
    assert.deepEqual(placeCaption(caption(), 'bottom', size, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 }), { edge: 'bottom', y: output.height - size.margin - size.height });
  });

  it('moves to the other edge when the focused section reaches into the top band below the navigation, and stays when it does not', () => {
    const { camera } = cameraFor();
    // A section starting right under the navigation: the band below the nav would cover its heading.
    assert.equal(placeCaption(caption({ x: 100, y: NAV + 8, width: 1080, height: 300 }), 'top', size, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 }).edge, 'bottom');
    // A section in the lower half leaves the top band free.
    assert.equal(placeCaption(caption({ x: 100, y: 400, width: 1080, height: 200 }), 'top', size, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 }).edge, 'top');
    // And the other way round: a section at the foot of the page sends a bottom caption to the top.
    const low = placeCaption(caption({ x: 100, y: 420, width: 1080, height: 300 }), 'bottom', size, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 });
    assert.equal(low.edge, 'top');
    assert.ok(low.y >= camera.project(110, camera.fromViewport({ x: 0, y: NAV })).y);
  });

  it('goes below the window, onto the background, when the focused section fills the page’s whole view', () => {
    const { camera, layout } = cameraFor();
    // Pricing taller than the view: from under the navigation to past the view's foot. No band in the page is clear.
    const placed = placeCaption(caption({ x: 0, y: NAV + 16, width: 1280, height: 1400 }), 'top', size, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 });
    const windowFoot = layout.content.y + layout.content.height;
    assert.deepEqual(placed, { edge: 'bottom', y: windowFoot }, 'on the background the style leaves below the window');
    assert.ok(placed.y + size.height <= output.height, 'and still in the frame');
    // A caption taller than that margin covers as little of the section's foot as it can, never its heading.
    const tall = placeCaption(caption({ x: 0, y: NAV + 16, width: 1280, height: 1400 }), 'top', { ...size, height: 85 }, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 });
    assert.deepEqual(tall, { edge: 'bottom', y: output.height - 85 - size.margin / 4 });
  });

  it('keeps to the bottom when a tall header leaves no top band above the frame’s middle', () => {
    const { camera } = cameraFor();
    assert.equal(placeCaption(caption(), 'top', size, camera, output, { stickyHeaderHeight: 400, viewportHeight: 720 }).edge, 'bottom');
  });

  it('ignores the window flying in: a caption from 0 s is placed where the page settles, not where the window starts', () => {
    const { camera } = cameraFor();
    assert.ok(camera.introFrames > 0 && camera.at(0).animating, 'the default window flies in');
    const early = { ...caption(), startMs: 0, endMs: 2500 };
    const placed = placeCaption(early, 'top', size, camera, output, { stickyHeaderHeight: NAV, viewportHeight: 720 });
    const settledNav = camera.project(camera.introFrames + 1, camera.fromViewport({ x: 0, y: NAV })).y;
    assert.equal(placed.edge, 'top');
    assert.ok(placed.y >= settledNav && placed.y < settledNav + size.margin, `${placed.y} just below ${settledNav}`);
  });
});
