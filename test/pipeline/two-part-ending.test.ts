import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize } from '../../src/pipeline/produce-recording.js';
import { ocrLines } from '../helpers/ocr.js';
import { heuristicPlanner, recordingRig } from '../helpers/recording-rig.js';

const run = promisify(execFile);

/**
 * "Show X, then end on Y": the video ends on Y. Recorded from the prompt on two fixture pages, composed in the
 * default look, and read by OCR in the last frame before the fade to black: Y's heading is there, and the service's
 * own check of the take says it ended on Y.
 */
describe('a two-part prompt that says where to end', () => {
  const rig = recordingRig('showreel-ending-');
  const planner = heuristicPlanner();

  const cases = [
    { site: 'nightfall', prompt: 'Show the product, then end on the signup', heading: 'Start building tonight' },
    { site: 'harbourline', prompt: 'Show people how to get to the conference building, and finish on the map and hotel recommendations', heading: 'Finding your way to the waterfront' },
  ];

  for (const c of cases) {
    it(`"${c.prompt}" ends on "${c.heading}", readable in its last frame`, async () => {
      const workDir = path.join(rig.work, c.site);
      const outFile = path.join(workDir, 'demo.mp4');
      const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
      const produced = await rig.browsers.withPage(pageOptions, async (page, ctx) => {
        await fs.mkdir(workDir, { recursive: true });
        await ctx.goto(rig.sites.url(c.site), { waitUntil: 'load' });
        return produceRecording(
          page,
          { url: rig.sites.url(c.site), prompt: c.prompt, viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile, workDir },
          planner,
          () => undefined,
        );
      });
      assert.equal(produced.check?.ending?.section, c.heading, 'the take check names the section it ended on');
      assert.equal(produced.check?.ending?.readableShare, 1);

      // The last frame before the default fade to black (400 ms), read at twice the size: at 720p tesseract misreads a
      // large bold heading now and then, which a viewer reads at a glance.
      const { ffmpeg } = await ffmpegBinaries();
      const png = path.join(workDir, 'last.png');
      const at = produced.recording.durationMs / 1000 - 0.5;
      await run(ffmpeg, ['-v', 'error', '-y', '-ss', at.toFixed(3), '-i', outFile, '-frames:v', '1', '-vf', 'scale=iw*2:-1:flags=lanczos', png]);
      const read = (await ocrLines(png)).map((line) => line.text.toLowerCase());
      assert.ok(read.some((line) => line.includes(c.heading.toLowerCase())), `"${c.heading}" in the last frame; read: ${JSON.stringify(read)}`);
    });
  }
});
