import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { composeVariants } from '../../../src/pipeline/compose/compose-variant.js';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { type Produced, produceRecording, recordingCaptureSize } from '../../../src/pipeline/produce-recording.js';
import { browserProcesses } from '../../helpers/processes.js';
import { readableFrames } from '../../helpers/ocr-frames.js';
import { picturePsnr } from '../../helpers/video-frames.js';
import { heuristicPlanner, recordingRig } from '../../helpers/recording-rig.js';

/**
 * Issue 59, aspect variants: one recording of a fixture page, composed for 16:9 (the demo's video), 9:16 and 1:1.
 * A viewer of the vertical or square cut sees the beat's heading whenever the 16:9 video lets them read it: checked
 * by OCR on the three, each read at the scale that shows the page at the same size. Then the variants are made again
 * afterwards from the capture and the 16:9 layers alone, and no browser starts for them.
 */
const OCR_FPS = 2;

describe('aspect variants of a recorded demo', () => {
  const rig = recordingRig('showreel-aspect-');
  let produced: Produced;
  let outFile: string;

  it('makes a 9:16 and a 1:1 cut of the same recording, the same length, beside the video, with their GIF and thumbnail', async () => {
    outFile = path.join(rig.work, 'demo.mp4');
    const presentation = { aspect: ['16:9', '9:16', '1:1'] } as const;
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop') } as const;
    produced = await rig.browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(rig.sites.url('saas'), { waitUntil: 'load' });
      return produceRecording(
        page,
        {
          url: rig.sites.url('saas'), prompt: 'Show the pricing plans', viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script',
          template: { id: 'auto' }, outFile, presentation: { aspect: [...presentation.aspect] },
        },
        heuristicPlanner(),
        () => undefined,
      );
    });
    const main = await probeVideo(outFile);
    assert.deepEqual([main.width, main.height], [1280, 720]);
    assert.deepEqual(produced.composed.variants.map((v) => v.aspect), ['9:16', '1:1']);
    for (const [variant, size] of [[produced.composed.variants[0]!, [720, 1280]], [produced.composed.variants[1]!, [720, 720]]] as const) {
      assert.equal(variant.outFile, outFile.replace('.mp4', `-${variant.aspect.replace(':', 'x')}.mp4`));
      const info = await probeVideo(variant.outFile);
      assert.deepEqual([info.width, info.height], size, variant.aspect);
      assert.ok(Math.abs((info.durationMs ?? 0) - (main.durationMs ?? 0)) <= 40, `${variant.aspect} lasts as long as the video`);
      assert.ok(variant.gif && variant.gif.width * variant.gif.height <= 640 * 360 * 1.1, `${variant.aspect} GIF ${variant.gif?.width}×${variant.gif?.height}`);
      assert.equal(variant.thumbnail?.width, size[0]);
    }
  });

  it('shows the beat\'s heading in the 9:16 and the 1:1 cut whenever it is readable in the 16:9 video', async () => {
    const sections = new Map(produced.outline!.sections.map((s) => [s.id, s.heading]));
    const headings = [...new Set((produced.plan?.story?.beats ?? []).flatMap((b) => (b.kind === 'section' && b.sectionId ? [sections.get(b.sectionId) ?? null] : [])))]
      .filter((h): h is string => h !== null);
    assert.ok(headings.length >= 1, 'the demo frames at least one section with a heading');
    const wide = await readableFrames(outFile, headings, { fps: OCR_FPS, scale: 1.5 });
    for (const variant of produced.composed.variants) {
      // The same page pixels as the 16:9 video's at 1.5×: the variant's frame is narrower by 720/1280.
      const cut = await readableFrames(variant.outFile, headings, { fps: OCR_FPS, scale: (1.5 * 1280) / variant.width });
      headings.forEach((heading, h) => {
        const readIn16x9 = wide[h]!.flatMap((read, i) => (read ? [i] : []));
        assert.ok(readIn16x9.length >= 2, `"${heading}" is readable in the 16:9 video (${readIn16x9.length} frames)`);
        // A frame's OCR can miss a word the next frame reads (codec noise, a half-drawn frame): a frame counts when it or a neighbour reads it.
        const missing = readIn16x9.filter((i) => ![i - 1, i, i + 1].some((k) => cut[h]![k]));
        assert.deepEqual(missing.map((i) => i / OCR_FPS), [], `${variant.aspect}: "${heading}" not in frame at these seconds though the 16:9 shows it`);
      });
    }
  });

  it('makes the variants again from the capture and the 16:9 layers alone, starting no browser', async () => {
    const before = browserProcesses();
    const seen = new Set<number>();
    const watch = setInterval(() => {
      for (const pid of browserProcesses()) if (!before.has(pid)) seen.add(pid);
    }, 50);
    const again = path.join(rig.work, 'again-9x16.mp4');
    let made;
    try {
      made = await composeVariants({
        cleanFile: path.join(rig.work, 'clean.mkv'), timeline: produced.recording.timeline, presentation: null, resolution: '720p', format: 'mp4',
        layers: produced.composed.layers, variants: [{ aspect: '9:16', outFile: again }], workDir: path.join(rig.work, 'again'),
      });
    } finally {
      clearInterval(watch);
    }
    assert.deepEqual([...seen], [], 'no browser process started');
    assert.equal(made[0]!.outFile, again);
    // The same capture, layers and plan: the same video as the one the job made, picture for picture. (Compared by
    // PSNR, not bytes: the encoder's output differed by a few bits in one run of three on a fresh clone.)
    const first = produced.composed.variants[0]!.outFile;
    assert.equal((await probeVideo(again)).durationMs, (await probeVideo(first)).durationMs);
    const psnr = await picturePsnr(again, first);
    assert.ok(psnr.average >= 45, `the pictures are the job's (PSNR ${psnr.average} dB)`);
  });
});
