import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { closeFrameControlledPage, openFrameControlledPage } from '../../../src/pipeline/browser/frame-control.js';
import { viewportFor } from '../../../src/pipeline/browser/viewports.js';
import { createCamera } from '../../../src/pipeline/compose/camera.js';
import { captureSizeFor, composeVideo } from '../../../src/pipeline/compose/compose.js';
import { computeLayout } from '../../../src/pipeline/compose/layout.js';
import { resolveStyle } from '../../../src/pipeline/compose/style.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { measureSmoothness } from '../../../src/pipeline/encode/smoothness.js';
import { OUTPUT_SIZES } from '../../../src/pipeline/encode/video-encoder.js';
import { recordScript } from '../../../src/pipeline/record/recorder.js';
import { saasDemoScript } from './saas-demo-script.js';
import { captureRig } from '../../helpers/recording-rig.js';

// The finished video, as a visitor watches it: a demo of the saas fixture (cheap to paint, unlike glasshouse, which
// the frame-capture test and the bench use) recorded frame by frame and composed with the default presentation, so
// the camera zooms on a hover and the FAQ opens in a single frame. Decoded and measured as smoothness.py does.
const FPS = 30;


describe('a composed demo, decoded', () => {
  const rig = captureRig('showreel-smooth-', 'saas');

  it('shows a new picture on every frame of its scrolls, zooms and dissolves: no stall inside motion', async () => {
    const page = await openFrameControlledPage(rig.browser, null);
    try {
      const viewport = viewportFor('desktop', '720p');
      await page.setViewport({ width: viewport.width, height: viewport.height, deviceScaleFactor: 0 });
      await page.goto(rig.url, { waitUntil: 'load' });
      // As the analysis stage does before recording: the cookie banner is dismissed (it hides 350 ms later).
      await page.evaluate(() => document.querySelector<HTMLElement>('.cookie-banner__accept')?.click());
      await new Promise((resolve) => setTimeout(resolve, 600));
      const clean = path.join(rig.work, 'clean.mkv');
      const frame = await page.evaluate('({ width: innerWidth * devicePixelRatio, height: innerHeight * devicePixelRatio })');
      const recorded = await recordScript(page, saasDemoScript(rig.url), {
        format: 'capture',
        resolution: '720p',
        outFile: clean,
        captureSize: captureSizeFor(null, '720p', frame as { width: number; height: number }),
      });
      assert.equal(recorded.captureMode, 'frames');
      assert.deepEqual(recorded.log.map((e) => e.ok), [true, true, true, true, true, true], JSON.stringify(recorded.log));
      const video = path.join(rig.work, 'demo.mp4');
      await composeVideo({
        cleanFile: clean, timeline: recorded.timeline, presentation: null, format: 'mp4', resolution: '720p', outFile: video, page, workDir: rig.work,
      });

      const measured = await measureSmoothness(video);
      const pattern = measured.moving.map((m, k) => (m ? (measured.stalled[k] ? 'S' : 'm') : '.')).join('');
      // Inside each scroll, from its first sample to its last, no frame repeats the one before.
      const frameOf = (t: number) => Math.round((t * FPS) / 1000);
      for (const step of recorded.timeline.steps.filter((s) => s.kind === 'scroll')) {
        const samples = recorded.timeline.scrolls.filter((s) => s.t >= step.startMs && s.t <= step.endMs);
        assert.ok(samples.length > 20, `${samples.length} scroll samples in ${step.label}`);
        for (let f = frameOf(samples[0]!.t); f <= frameOf(samples.at(-1)!.t); f++) {
          assert.ok(!measured.stalled[f - 1], `frame ${f} of "${step.label}" repeats the one before: ${pattern}`);
        }
      }
      // The camera zoomed (on the hover), so its moves were measured too.
      const info = await probeVideo(clean);
      const style = resolveStyle(null);
      const camera = createCamera(computeLayout(OUTPUT_SIZES['720p'], { width: info.width, height: info.height }, style), recorded.timeline, style, recorded.timeline.durationMs);
      assert.ok(camera.actions.length >= 1, 'the camera zooms');
      // And over the whole video, smoothness.py's figure is within the bench's target.
      assert.ok(measured.movingFrames > 60, `${measured.movingFrames} moving frames`);
      assert.ok(measured.stallRatio <= 0.02, `stall ratio ${measured.stallRatio} (${measured.stalls} of ${measured.movingFrames}): ${pattern}`);
    } finally {
      await closeFrameControlledPage(page);
    }
  });
});
