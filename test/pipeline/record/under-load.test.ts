import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { closeFrameControlledPage, openFrameControlledPage } from '../../../src/pipeline/browser/frame-control.js';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { fileArg, runTool } from '../../../src/pipeline/encode/run-tool.js';
import { recordScript } from '../../../src/pipeline/record/recorder.js';
import type { ActionScript, ScriptStep } from '../../../src/pipeline/types.js';
import { cpuBurners } from '../../helpers/cpu-burners.js';
import { captureRig } from '../../helpers/recording-rig.js';

// Issue 58: on a machine busy with other recordings, a recording skipped its last step and a frame that changed
// repeated the one before. A recording's frames are on its own clock, so what it shows must not depend on what
// else runs: here it is made beside a busy loop on every core (and one more), and compared frame by frame with the
// same script captured by screenshots inside each frame, which no load can move.

/** Scrolls that come to rest, one after another, over cards that fade in (as screencast-pictures.test.ts). */
function script(url: string): ActionScript {
  const steps: ScriptStep[] = [{ kind: 'wait', label: 'Opening', startMs: 0, durationMs: 300 }];
  const stops = [700, 1500, 2300, 3100, 1200, 0];
  stops.forEach((toY, k) => steps.push({ kind: 'scroll', label: `Scroll ${k + 1}`, toY, startMs: 300 + k * 800, durationMs: 600 }));
  steps.push({ kind: 'wait', label: 'Closing', startMs: 300 + stops.length * 800, durationMs: 300 });
  return { version: 1, url, viewport: 'desktop', durationMs: 600 + stops.length * 800, templateId: 'guided-tour', steps };
}

describe('a recording on a busy machine', () => {
  const rig = captureRig('showreel-under-load-', 'saas');
  cpuBurners(os.availableParallelism() + 1);

  async function record(pictures: 'screencast' | 'screenshots') {
    const page = await openFrameControlledPage(rig.browser, null);
    try {
      await page.setViewport({ width: 1440, height: 810, deviceScaleFactor: 0 });
      await page.goto(rig.url, { waitUntil: 'load' });
      // The cards fade in as they come into view, revealed from the scroll event (in the frame): the first frame of
      // a fade-in is one the screencast sends no picture for, where a late picture is most easily taken for none.
      await page.addStyleTag({ content: '.cookie-banner { display: none !important }' });
      await page.evaluate(`(() => {
        const cards = [...document.querySelectorAll('.js-reveal')];
        for (const card of cards) card.classList.remove('is-revealed', 'js-reveal');
        const reveal = () => {
          for (const card of cards) if (card.getBoundingClientRect().top < innerHeight * 0.9) card.style.opacity = '1';
        };
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
      return { result, grey: decoded.stdout };
    } finally {
      await closeFrameControlledPage(page);
    }
  }

  it('does every step, on time', async () => {
    const { result } = await record('screencast');
    assert.deepEqual(result.log.map((e) => [e.action, e.ok, e.error ?? null]), script(rig.url).steps.map((s) => [s.kind, true, null]));
    // On the frame clock each step starts at its planned frame, whatever the wall clock did meanwhile.
    assert.deepEqual(result.timeline.steps.map((s) => s.startMs), script(rig.url).steps.map((s) => s.startMs));
  });

  // Not yet so: one recording in three or four here still has a few frames that repeat the one before while the page
  // changes, with the screencast's pictures missed or late, and once with none missed (docs/decisions.md, issue 58).
  // Run, reported, and left out of the suite's verdict until the cause is found.
  it('repeats no frame in which the page changed', { todo: 'issue 58 item 5: pictures lost under load' }, async () => {
    const cast = await record('screencast');
    const shots = await record('screenshots');
    const size = 320 * 180;
    assert.equal(cast.grey.length, shots.grey.length);
    const frames = cast.grey.length / size;
    assert.equal(frames, 162);
    const difference = (x: Buffer, a: number, y: Buffer, b: number) => {
      let sum = 0;
      for (let i = 0; i < size; i++) sum += Math.abs(x[a * size + i]! - y[b * size + i]!);
      return sum / size;
    };
    // The same picture decodes the same; the next frame of a scroll or a fade differs by half a level or more.
    const same = 0.5;
    const repeated: number[] = [];
    for (let k = 1; k < frames; k++) {
      if (difference(cast.grey, k, cast.grey, k - 1) < same && difference(shots.grey, k, shots.grey, k - 1) >= same) repeated.push(k);
    }
    const moving = Array.from({ length: frames - 1 }, (_, k) => difference(shots.grey, k + 1, shots.grey, k) >= same).filter(Boolean).length;
    assert.ok(moving > 40, `the page moves in ${moving} frames`);
    assert.deepEqual(repeated, [], `frames that repeat the one before where the page changed (${cast.result.frameCapture?.missedPictures} missed pictures)`);
  });
});
