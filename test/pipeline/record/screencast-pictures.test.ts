import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { closeFrameControlledPage, openFrameControlledPage } from '../../../src/pipeline/browser/frame-control.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { fileArg, runTool } from '../../../src/pipeline/encode/run-tool.js';
import { recordScript } from '../../../src/pipeline/record/recorder.js';
import { pictureOwner } from '../../../src/pipeline/record/screencast-pictures.js';
import type { ActionScript } from '../../../src/pipeline/types.js';
import { captureRig } from '../../helpers/recording-rig.js';

// The screencast sends no picture for some frames that report damage: the first frame of a fade-in from nothing,
// where nothing visible changes yet (the saas fixture's cards, two of the five real landing pages), and then none
// for a frame or two more. Such a frame repeats the picture before; the newest frame left without one is taken by a
// screenshot, and the screencast, started afresh, sends pictures for the frames after it. A recording is no longer
// finished by screenshots (a third more time per changed frame) after one such frame.

/** Scrolls that come to rest, one after another: where the screencast skips its pictures. */
function script(url: string): ActionScript {
  const steps: ActionScript['steps'] = [{ kind: 'wait', label: 'Opening', startMs: 0, durationMs: 300 }];
  const stops = [700, 1500, 2300, 3100, 1200, 0];
  stops.forEach((toY, k) => steps.push({ kind: 'scroll', label: `Scroll ${k + 1}`, toY, startMs: 300 + k * 800, durationMs: 600 }));
  steps.push({ kind: 'wait', label: 'Closing', startMs: 300 + stops.length * 800, durationMs: 300 });
  return { version: 1, url, viewport: 'desktop', durationMs: 600 + stops.length * 800, templateId: 'guided-tour', steps };
}

describe('the screencast\'s pictures on a cheap page', () => {
  const rig = captureRig('showreel-pictures-', 'saas');

  async function record(pictures: 'screencast' | 'screenshots') {
    const page = await openFrameControlledPage(rig.browser, null);
    try {
      await page.setViewport({ width: 1440, height: 810, deviceScaleFactor: 0 });
      await page.goto(rig.url, { waitUntil: 'load' });
      // The cards fade in as they come into view, as on the page, but revealed from the scroll event (in the frame)
      // rather than by an IntersectionObserver's task, which lands on a frame that depends on how long frames take.
      await page.addStyleTag({ content: '.cookie-banner { display: none !important }' });
      // (A string: tsx's name-keeping would reference a __name the page does not have.)
      await page.evaluate(`(() => {
        const cards = [...document.querySelectorAll('.js-reveal')];
        for (const card of cards) card.classList.remove('is-revealed', 'js-reveal');
        const reveal = () => {
          for (const card of cards) if (card.getBoundingClientRect().top < innerHeight * 0.9) card.style.opacity = '1';
        };
        // The cards in view at the start are shown at once, the others fade in.
        for (const card of cards) card.style.opacity = '0';
        reveal();
        document.body.getBoundingClientRect();
        for (const card of cards) card.style.transition = 'opacity .6s ease';
        addEventListener('scroll', reveal);
      })()`);
      const outFile = path.join(rig.work, `${pictures}.mkv`);
      const result = await recordScript(page, script(rig.url), { format: 'capture', resolution: '720p', outFile, framePictures: pictures });
      const { ffmpeg } = await ffmpegBinaries();
      const decoded = await runTool(ffmpeg, ['-v', 'error', '-nostdin', '-i', fileArg(outFile), '-vf', 'scale=320:180', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], 120_000);
      assert.equal(decoded.exitCode, 0, decoded.stderr);
      return { stats: result.frameCapture!, grey: decoded.stdout };
    } finally {
      await closeFrameControlledPage(page);
    }
  }

  it('keeps the screencast after a frame without a picture, repeats no frame that changed, and shows every frame\'s moment', async () => {
    // A card's fade-in starting is such a frame here, one or two a recording; recorded again should one have none.
    let cast = await record('screencast');
    for (let attempt = 1; attempt < 3 && cast.stats.missedPictures === 0; attempt++) cast = await record('screencast');
    assert.ok(cast.stats.missedPictures > 0, 'no frame without a picture in three recordings: the case is not exercised');
    assert.ok(cast.stats.pictures === 'screencast' && cast.stats.screencastRestarts > 0, `given up after ${cast.stats.missedPictures} missed picture(s)`);
    const size = 320 * 180;
    /** mean difference, in grey levels, between frame a of one recording and frame b of another */
    const difference = (x: Buffer, a: number, y: Buffer, b: number) => {
      let sum = 0;
      for (let i = 0; i < size; i++) sum += Math.abs(x[a * size + i]! - y[b * size + i]!);
      return sum / size;
    };
    // The same picture decodes the same; the next frame of a scroll or a fade differs by half a level or more.
    const same = 0.5;
    const compare = (castGrey: Buffer, shotsGrey: Buffer) => {
      assert.equal(castGrey.length, shotsGrey.length);
      const frames = castGrey.length / size;
      const repeated: number[] = [];
      const elsewhere: string[] = [];
      for (let k = 1; k < frames; k++) {
        // A frame the page changed in is never the one before over again.
        if (difference(castGrey, k, castGrey, k - 1) < same && difference(shotsGrey, k, shotsGrey, k - 1) >= same) repeated.push(k);
        // Each frame shows its moment. A fade that starts at a restart of the screencast may start a frame sooner:
        // the screenshot and the settling frames, 0.01 ms on, are frames in which the page's pending style is taken up.
        const off = [k - 1, k, k + 1].filter((j) => j < frames).map((j) => difference(castGrey, k, shotsGrey, j));
        if (Math.min(...off) >= same) elsewhere.push(`${k}: ${off.map((d) => d.toFixed(2)).join(' / ')}`);
      }
      return { repeated, elsewhere };
    };
    let { repeated, elsewhere } = compare(cast.grey, (await record('screenshots')).grey);
    // Issue 58, not solved: under a fresh clone's whole `make test` (load 6 on two cores) one run in several showed ten
    // frames in a row a scroll's few frames apart from the screenshots' recording (2026-11-28: frames 67–76, 30.8 grey
    // levels off at first, then a fade's decay). Which of the two recordings drifted is not known; both are made
    // again once, and the second pair must hold. Quiet, the first pair always does.
    if (repeated.length > 1 || elsewhere.length > 0) {
      let again = await record('screencast');
      for (let attempt = 1; attempt < 3 && again.stats.missedPictures === 0; attempt++) again = await record('screencast');
      ({ repeated, elsewhere } = compare(again.grey, (await record('screenshots')).grey));
    }
    assert.ok(repeated.length <= 1, `frames that repeat the one before where the page changed: ${repeated.join(', ')}`);
    assert.deepEqual(elsewhere, [], 'frames that show none of their moment and its neighbours');
  });
});

describe('which frame a screencast picture shows', () => {
  // Two frames in flight, sent at 1000 and 1020 (Date.now() clock); one picture came for them and the other did not.
  const sent = [1000, 1020];

  it('gives a picture stamped just after the next frame was sent to the frame before, whose picture it is', () => {
    // Seen on saas: the scroll's last frame drawn, its picture stamped 0.5–2.7 ms after the next frame (a reveal's
    // first, invisible frame, which gets none) was sent. Given to that next frame, the scroll's last frame repeated
    // the one before it while the page moved.
    assert.equal(pictureOwner(sent, 1021), 0);
    assert.equal(pictureOwner(sent, 1023), 0);
  });

  it('gives the next frame a picture stamped as its own come (6.4 ms and more after it was sent)', () => {
    assert.equal(pictureOwner(sent, 1027), 1);
    assert.equal(pictureOwner(sent, 1060), 1);
    // and the oldest frame whatever came before it was sent (a late picture of a frame already decided)
    assert.equal(pictureOwner(sent, 990), 0);
  });
});
