import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../../src/pipeline/encode/ffmpeg-binaries.js';
import { pageWorkBudgetMs, produceRecording, recordingCaptureSize } from '../../../src/pipeline/produce-recording.js';
import { startHostSite, type HostSite } from '../../embeds/embed-harness.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { ocrLines } from '../../helpers/ocr.js';
import { heuristicPlanner, recordingRig } from '../../helpers/recording-rig.js';

const run = promisify(execFile);

/**
 * Issue 57: a product page that carries Showreel's own embed (sdk.js with a publishable key, a placeholder) is
 * recorded as the page, without the embed. In the recorder's browser sdk.js stands down — it asks for no demo, so
 * the recording neither starts (and charges) a demo of itself nor shows the embed's "still being recorded" box — and
 * any `data-showreel` placeholder is hidden, even one sdk.js never touched. Recorded through the browser pool and the
 * real recording steps, read back by OCR.
 */
describe('recording a page that carries a Showreel embed', () => {
  const rig = recordingRig('showreel-recorded-embed-');
  const planner = heuristicPlanner();
  let app: TestApp;
  let user: TestUser;
  let site: HostSite;
  let projectId: string;
  let pubKey: string;

  before(async () => {
    [app, site] = await Promise.all([startTestApp(), startHostSite()]);
    user = await app.createUser({ credits: 5 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Northwind', url: `${site.origin('127.0.0.1')}/` } })).body.id;
    pubKey = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', project_id: projectId, allowed_domains: ['127.0.0.1'] } })).body.key;
  });
  after(async () => {
    await Promise.all([app?.stop(), site?.close()]);
  });

  const section = (title: string, text: string) =>
    `<section style="padding:56px 0;border-top:1px solid #e5e7eb"><h2 style="font-size:34px;margin:0 0 12px">${title}</h2><p style="font-size:20px;max-width:760px;line-height:1.5">${text}</p></section>`;
  /**
   * A product page with our embed in its hero: the documented sdk.js tag and a placeholder asking for a demo of this
   * page, whose own text (what a page shows before sdk.js fills it, or when sdk.js stands down) is dark and large,
   * so OCR would read it if it were in the video.
   */
  const productPage = () => `<!doctype html><html><head><meta charset="utf-8"><title>Northwind Ledger</title>
<script src="${app.url}/sdk.js" data-showreel-key="${pubKey}" data-project="${projectId}" async></script></head>
<body style="margin:0;font-family:system-ui,sans-serif;color:#111;background:#fff"><main style="max-width:980px;margin:0 auto;padding:40px 32px">
<h1 style="font-size:52px;margin:0 0 16px">Northwind Ledger</h1>
<p style="font-size:22px">Bookkeeping for small teams, closed every month on time.</p>
<div data-showreel data-prompt="Show the product tour" style="display:flex;align-items:center;justify-content:center;aspect-ratio:16/9;background:#0c0d11;color:#fff;font-size:40px;border-radius:12px;margin:24px 0">Embedded demo placeholder</div>
${section('Features', 'Bank feeds, receipts matched as they arrive, and a close checklist your accountant can follow.')}
${section('Pricing', 'One plan for teams up to twenty people, billed monthly. Cancel any time.')}
${section('Customers', 'Four hundred studios and shops close their books with Northwind every month.')}
</main></body></html>`;

  const balance = async () => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;
  const demoCount = async () => Number((await app.sql<{ n: string }[]>`select count(*) as n from demos where project_id = ${projectId}`)[0]!.n);

  it('records the page without the embed: no demo asked for, nothing charged, no placeholder in any frame', async () => {
    site.page('/', productPage());
    const url = `${site.origin('127.0.0.1')}/`;
    const [creditsBefore, demosBefore] = [await balance(), await demoCount()];
    const workDir = path.join(rig.work, 'northwind');
    const outFile = path.join(workDir, 'demo.mp4');
    await fs.mkdir(workDir, { recursive: true });
    const asked: string[] = [];
    const pageOptions = { viewport: 'desktop', resolution: '720p', allowPrivate: true, captureSize: recordingCaptureSize(null, '720p', 'desktop'), timeoutMs: pageWorkBudgetMs('10s') } as const;

    const { inPage, produced } = await rig.browsers.withPage(pageOptions, async (page, ctx) => {
      page.on('request', (request) => void asked.push(new URL(request.url()).pathname));
      await ctx.goto(url, { waitUntil: 'load' });
      // sdk.js has run (it defines window.Showreel either way) and stood down.
      await page.waitForFunction(() => (window as { Showreel?: unknown }).Showreel, { polling: 50, timeout: 10_000 });
      const inPage = await page.evaluate(() => {
        const placeholder = document.querySelector('[data-showreel]') as HTMLElement;
        return {
          flag: (window as { __showreelRecording?: unknown }).__showreelRecording,
          standingDown: (window as { Showreel?: { recording?: boolean } }).Showreel?.recording,
          display: getComputedStyle(placeholder).display,
          iframes: document.querySelectorAll('iframe').length,
        };
      });
      const produced = await produceRecording(
        page,
        { url, prompt: 'Show the features', viewport: 'desktop', format: 'mp4', resolution: '720p', durationTarget: '10s', mode: 'script', template: { id: 'auto' }, presentation: null, outFile, workDir },
        planner,
        () => undefined,
      );
      return { inPage, produced };
    });
    assert.deepEqual(inPage, { flag: true, standingDown: true, display: 'none', iframes: 0 });
    assert.ok(asked.includes('/sdk.js'), 'the page loaded sdk.js');
    assert.ok(!asked.includes('/api/v1/embed/generate'), `sdk.js asked for no demo (${asked.filter((p) => p.startsWith('/api')).join(', ')})`);
    assert.equal(await demoCount(), demosBefore, 'no demo of the page was started');
    assert.equal(await balance(), creditsBefore, 'nothing was charged');

    // Three frames of the video, read at twice the size: the page's own words are there, the embed's are not.
    const { ffmpeg } = await ffmpegBinaries();
    const seconds = produced.recording.durationMs / 1000;
    const read: string[] = [];
    for (const at of [0.8, seconds / 2, seconds - 0.6]) {
      const png = path.join(workDir, `frame-${at.toFixed(1)}.png`);
      await run(ffmpeg, ['-v', 'error', '-y', '-ss', at.toFixed(3), '-i', outFile, '-frames:v', '1', '-vf', 'scale=iw*2:-1:flags=lanczos', png]);
      read.push(...(await ocrLines(png)).map((line) => line.text.toLowerCase()));
    }
    assert.ok(read.some((line) => /northwind|features|bookkeeping/.test(line)), `the page is in the video; read: ${JSON.stringify(read)}`);
    assert.ok(!read.some((line) => /placeholder|loading demo|being recorded|could not be shown/.test(line)), `no embed in the video; read: ${JSON.stringify(read)}`);
    if (process.env.I57_SHOTS) await fs.cp(workDir, process.env.I57_SHOTS, { recursive: true });
  });
});
