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
 * Issue 57: a demo asked for with `endCard: {enabled: true}` and nothing else closes on a card that names the product
 * as its page does (Flowboard's title: "Flowboard — Project planning…") and links to the demo's page.
 */
describe('a recorded demo with an end card', () => {
  const rig = recordingRig('showreel-end-card-');

  it('closes on the page’s own name and its address, taken from the page', async () => {
    const url = rig.sites.url('saas');
    const presentation = { endCard: { enabled: true } };
    const workDir = path.join(rig.work, 'saas');
    const outFile = path.join(workDir, 'demo.mp4');
    await fs.mkdir(workDir, { recursive: true });
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(presentation, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('5s') } as const;
    const produced = await rig.browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(url, { waitUntil: 'load' });
      return produceRecording(
        page,
        { url, prompt: 'Show the pricing plans', viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '5s', mode: 'script', template: { id: 'auto' }, presentation, outFile, workDir },
        heuristicPlanner(),
        () => undefined,
      );
    });
    const { ffmpeg } = await ffmpegBinaries();
    // The card is in from the last 30 % (at least 1.5 s) plus its 0.4 s fade-in, before the 0.4 s fade out.
    const at = produced.composed.durationMs / 1000 - 0.6;
    const png = path.join(workDir, 'card.png');
    await run(ffmpeg, ['-v', 'error', '-y', '-ss', at.toFixed(3), '-i', outFile, '-frames:v', '1', png]);
    const words = (await ocrLines(png)).map((line) => line.text).join('\n');
    assert.match(words, /Flowboard/, `the page's name: ${words}`);
    assert.doesNotMatch(words, /Project planning your whole team/, 'only the name, not the whole title');
    assert.match(words, new RegExp(url.replace(/^https?:\/\//, '').replace(/\/$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the demo’s page as its address');
  });
});
