import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createBrowserPool, type BrowserPool } from '../../src/pipeline/browser/pool.js';
import { ffmpegBinaries } from '../../src/pipeline/encode/ffmpeg-binaries.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize } from '../../src/pipeline/produce-recording.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { ocrLines } from '../helpers/ocr.js';
import { heuristicPlanner } from '../helpers/recording-rig.js';

const run = promisify(execFile);

/**
 * Issue 56: "What time does the cafe open on Saturdays?" on a café's home page. No link says "hours"; its menu's
 * "Visit" page lists them. The demo reads the linked pages first, clicks "Visit", and ends on the opening hours.
 */
describe('a demo that goes to the page holding the answer, though no link names it', () => {
  let sites: FixtureServer;
  let browsers: BrowserPool;
  let work: string;
  const requests: Array<{ method: string; url: string }> = [];

  before(async () => {
    sites = await startFixtureServer({ onRequest: (method, url) => requests.push({ method, url }) });
    browsers = createBrowserPool({ size: 1 });
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-linked-flow-'));
  });
  after(async () => {
    await browsers?.close();
    await sites?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('clicks "Visit" and holds the opening hours, changing nothing on the site', async () => {
    const outFile = path.join(work, 'demo.mp4');
    const url = `${sites.url('flow-cafe')}index.html`;
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;
    const { produced, endUrl } = await browsers.withPage(pageOptions, async (page, ctx) => {
      await ctx.goto(url, { waitUntil: 'load' });
      const made = await produceRecording(
        page,
        { url, prompt: 'What time does the cafe open on Saturdays?', viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile, workDir: work },
        heuristicPlanner(),
        () => undefined,
      );
      return { produced: made, endUrl: page.url() };
    });
    assert.match(endUrl, /visit\.html$/, 'the recording ended on the Visit page');
    const navigate = produced.script.steps.find((step) => step.kind === 'navigate');
    assert.ok(navigate && navigate.kind === 'navigate', 'the stored script clicks a link');
    assert.equal(navigate.target.label.toLowerCase(), 'visit');
    assert.deepEqual(produced.warnings ?? [], [], 'nothing is reported missing');
    assert.deepEqual(requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD'), [], 'the site saw no request that changes anything');

    const { ffmpeg } = await ffmpegBinaries();
    const png = path.join(work, 'end.png');
    await run(ffmpeg, ['-v', 'error', '-y', '-ss', (produced.recording.durationMs / 1000 - 1.2).toFixed(3), '-i', outFile, '-frames:v', '1', '-vf', 'scale=iw*2:-1:flags=lanczos', png]);
    const read = (await ocrLines(png)).map((line) => line.text.toLowerCase()).join('\n');
    // The heading's first words: the cursor may rest on its last ("we're open" read as "we're gpen").
    assert.match(read, /come on in/, `the hours' heading is on screen at the end; read: ${read}`);
    assert.match(read, /saturday 8:00 to 16:00/, `and the Saturday hours under it; read: ${read}`);
  });
});
