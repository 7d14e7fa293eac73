import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { type ComposeFixture, isCaptureBlue, near, type RGB, startComposeFixture } from './compose-fixture.js';

const run = promisify(execFile);
/** Everything that moves switched off, so one frame shows the still layout. */
const still = { windowAnimation: { intro: false, outro: false }, fade: { inMs: 0, outMs: 0 }, zoom: { enabled: false } } as const;

describe('the frame around the recording', () => {
  let fixture: ComposeFixture;
  before(async () => {
    fixture = await startComposeFixture();
  });
  after(() => fixture.close());

  it('fills the padding with a solid background colour, corners included', async () => {
    const video = await fixture.render({ ...still, background: '#ff0000', padding: 0.1, mockup: 'minimal' });
    const frame = await video.frame(1);
    for (const [x, y] of [[4, 4], [1275, 4], [4, 715], [1275, 715]] as const) {
      assert.ok(near(frame.pixel(x, y), [255, 0, 0]), `corner (${x}, ${y}) is ${frame.pixel(x, y)}`);
    }
    const { content } = video.layout;
    assert.ok(content.x >= 120 && content.width <= 1280 * 0.8 + 2, 'the recording is inset by the padding');
    assert.ok(isCaptureBlue(frame.pixel(content.x + content.width / 2, content.y + content.height / 2)), 'the recording is in the middle');
  });

  it('draws a gradient at its angle, and an image background from its bytes', async () => {
    const gradient = await fixture.render({ ...still, background: { from: '#000000', to: '#ffffff', angle: 90 }, padding: 0.15 });
    const g = await gradient.frame(1);
    assert.ok(g.pixel(6, 360)[0] < 40, `left edge ${g.pixel(6, 360)}`);
    assert.ok(g.pixel(1273, 360)[0] > 215, `right edge ${g.pixel(1273, 360)}`);

    const { ffmpeg } = await ffmpegBinaries();
    const { stdout } = await run(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x10c040:s=64x64', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', '-'], {
      encoding: 'buffer',
    });
    const requested: string[] = [];
    const image = await fixture.render(
      { ...still, background: { imageUrl: 'https://images.example/green.png' }, padding: 0.12 },
      {
        loadImage: async (url) => {
          requested.push(url);
          return { bytes: stdout as unknown as Buffer, type: 'png' };
        },
      },
    );
    assert.deepEqual(requested, ['https://images.example/green.png']);
    const i = await image.frame(1);
    assert.ok(near(i.pixel(5, 5), [16, 192, 64]), `image corner ${i.pixel(5, 5)}`);
  });

  it('is the recording alone, full bleed, with mockup none and no padding', async () => {
    const video = await fixture.render({ ...still, mockup: 'none' });
    const frame = await video.frame(1);
    for (const [x, y] of [[2, 2], [1277, 2], [2, 717], [1277, 717]] as const) assert.ok(isCaptureBlue(frame.pixel(x, y)), `(${x}, ${y}) is ${frame.pixel(x, y)}`);
  });

  it('draws a light or dark macOS title bar with traffic lights, and rounds the corners', async () => {
    const background: RGB = [255, 204, 0];
    for (const [mockup, bar] of [['macos-light', 'light'], ['macos-dark', 'dark']] as const) {
      const video = await fixture.render({ ...still, mockup, padding: 0.1, background: '#ffcc00' });
      const frame = await video.frame(1);
      const { window, content, titleBarHeight } = video.layout;
      assert.ok(titleBarHeight > 0 && content.y === window.y + titleBarHeight);
      const middle = frame.pixel(window.x + window.width / 2, window.y + titleBarHeight / 2);
      if (bar === 'light') assert.ok(middle.every((c) => c > 200), `${mockup} title bar is ${middle}`);
      else assert.ok(middle.every((c) => c < 80), `${mockup} title bar is ${middle}`);
      const unit = 720 / 1080;
      const red = frame.pixel(window.x + (14 + 6) * unit, window.y + titleBarHeight / 2);
      assert.ok(red[0] > 200 && red[1] < 140, `the first traffic light is red, not ${red}`);
      // The window's bottom corners are rounded: the very corner pixel is background, a little inside is recording.
      const corner = frame.pixel(content.x, content.y + content.height - 1);
      assert.ok(!isCaptureBlue(corner), `${mockup}: the bottom-left corner pixel is not the recording (${corner})`);
      assert.ok(isCaptureBlue(frame.pixel(content.x + 12, content.y + content.height - 12)));
      // The shadow darkens the background under the window.
      const below = frame.pixel(window.x + window.width / 2, window.y + window.height + 6);
      assert.ok(below[0] < background[0] - 15, `a shadow under the window (${below})`);
    }
  });

  it('keeps the minimal window to rounded corners and a shadow, without a title bar', async () => {
    const video = await fixture.render({ ...still, mockup: 'minimal', padding: 0.1, background: '#ffcc00' });
    const frame = await video.frame(1);
    const { window, content } = video.layout;
    assert.equal(window.y, content.y);
    assert.ok(isCaptureBlue(frame.pixel(content.x + content.width / 2, content.y + 2)), 'the recording starts at the top of the window');
    for (const [x, y] of [[content.x, content.y], [content.x + content.width - 1, content.y], [content.x, content.y + content.height - 1]]) {
      assert.ok(!isCaptureBlue(frame.pixel(x!, y!)), `corner (${x}, ${y}) is rounded off`);
    }
    const none = await fixture.render({ ...still, mockup: 'none', padding: 0.1, background: '#ffcc00' });
    const square = await none.frame(1);
    const c = none.layout.content;
    assert.ok(isCaptureBlue(square.pixel(c.x + 1, c.y + c.height - 2)), 'mockup none keeps square corners');
  });

  it('puts a portrait mobile recording in a tall window with background on both sides', async () => {
    const video = await fixture.render({ ...still, background: '#ffcc00' }, { capture: 'portrait' });
    const frame = await video.frame(1);
    const { content } = video.layout;
    assert.ok(content.height > content.width, 'a tall window');
    assert.ok(near(frame.pixel(content.x / 2, 360), [255, 204, 0]), 'background on the left');
    assert.ok(near(frame.pixel(content.x + content.width + (1280 - content.x - content.width) / 2, 360), [255, 204, 0]), 'and on the right');
    assert.ok(isCaptureBlue(frame.pixel(content.x + content.width / 2, content.y + content.height * 0.7)));
  });

  it('renders WebM (VP9) as well as MP4, every frame of the capture', async () => {
    const video = await fixture.render({ ...still, background: '#ff0000', padding: 0.1 }, { format: 'webm' });
    const info = await probeVideo(video.file);
    assert.equal(info.codec, 'vp9');
    assert.equal(info.width, 1280);
    assert.ok(Math.abs((info.durationMs ?? 0) - 4000) <= 100, `duration ${info.durationMs}`);
    assert.ok(near((await video.frame(1)).pixel(4, 4), [255, 0, 0]));
  });

  it('falls back to the default colours for colours it cannot read, and never lets them into the page', async () => {
    const fallback = await fixture.render({ ...still, padding: 0.1 });
    const odd = await fixture.render({ ...still, padding: 0.1, background: 'notacolour', cursor: { color: 'red;} body{display:none' } });
    const [a, b] = [await fallback.frame(1), await odd.frame(1)];
    for (const [x, y] of [[4, 4], [1275, 715]] as const) assert.ok(near(a.pixel(x, y), b.pixel(x, y), 40), `(${x}, ${y}): ${b.pixel(x, y)}`);
    const { content } = odd.layout;
    assert.ok(isCaptureBlue(b.pixel(content.x + content.width / 2, content.y + content.height / 2)), 'the recording is still drawn');
  });

  it('looks finished with no presentation at all: gradient, light window, room around it', async () => {
    const video = await fixture.render(null);
    const frame = await video.frame(3.4); // after the zoom on the click, before the fade
    const corner = frame.pixel(4, 4);
    assert.ok(!isCaptureBlue(corner) && Math.max(...corner) > 60, `a background at the corner (${corner})`);
    assert.ok(!near(frame.pixel(4, 4), frame.pixel(1275, 715), 20), 'a gradient, not a flat colour');
    const { window, titleBarHeight } = video.layout;
    assert.ok(titleBarHeight > 0 && frame.pixel(window.x + window.width / 2, window.y + titleBarHeight / 2).every((c) => c > 200));
  });
});
