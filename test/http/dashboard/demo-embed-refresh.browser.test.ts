import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { completeWithMedia, makeDemoMedia, startHostSite, type HostSite } from '../../embeds/embed-harness.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { finishJob } from '../../helpers/pipeline.js';
import { signInThroughForm } from '../../helpers/browser-sign-in.js';

/**
 * Issue 57, as a new user meets it in Chromium: the snippets on a ready demo's page play THAT demo wherever they are
 * pasted, for free (the sdk.js one used to start a new, charged recording of the page it sat on), and Refresh says
 * what it costs and asks, in the page, before it charges. Screenshots go to a temporary folder, printed at the end.
 */
describe('a demo page’s embed snippets and its Refresh, in Chromium', () => {
  let app: TestApp;
  let user: TestUser;
  let site: HostSite;
  let browser: Browser;
  let media: Awaited<ReturnType<typeof makeDemoMedia>>;
  let page: Page;
  let base: string;
  let shots: string;
  let projectId: string;
  let demoId: string;

  before(async () => {
    [app, site, media, browser] = await Promise.all([startTestApp(), startHostSite(), makeDemoMedia(), launchBrowser({ allowPrivate: true })]);
    user = await app.createUser({ credits: 10 });
    base = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    shots = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-i57-shots-'));
    // The project is the host site itself, and a publishable key for it exists: the very setup in which the old
    // snippet generated (and charged for) a demo of the page it was pasted into.
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Host', url: `${site.origin('127.0.0.1')}/` } })).body.id;
    await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', project_id: projectId, allowed_domains: ['127.0.0.1'] } });
    demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show the pricing', duration_target: '10s' } })).body.id;
    await completeWithMedia(app, demoId, media);

    page = await (await browser.createBrowserContext()).newPage();
    page.on('pageerror', (error) => assert.fail(`page error: ${String(error)}`));
    // No native dialog may stand in for the confirmation: one that opens fails the test.
    page.on('dialog', (dialog) => {
      void dialog.dismiss();
      assert.fail(`a native ${dialog.type()} dialog opened: ${dialog.message()}`);
    });
    await page.setViewport({ width: 1280, height: 900 });
    await signInThroughForm(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), site?.close(), media?.cleanup()]);
    if (shots) console.log(`issue 57 screenshots: ${shots}`);
  });

  const balance = async () => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;
  const demoCount = async () => Number((await app.sql<{ n: string }[]>`select count(*) as n from demos where project_id = ${projectId}`)[0]!.n);
  const valueOf = (selector: string) => page.$eval(selector, (el) => (el as HTMLTextAreaElement).value);
  const textOf = (selector: string) => page.$eval(selector, (el) => (el as HTMLElement).innerText);
  // checkVisibility: a closed <details> hides its content with content-visibility, which a box size does not show.
  const visible = (selector: string) => page.$eval(selector, (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true }));

  /** The iframe's frame once it has left about:blank (see test/embeds/browser.test.ts on why). */
  const frameOf = async (host: Page): Promise<Frame> => {
    await host.waitForFunction(() => document.querySelector('iframe'), { polling: 100, timeout: 15_000 });
    const handle = (await host.$('iframe'))!;
    const deadline = Date.now() + 15_000;
    for (;;) {
      const frame = await handle.contentFrame();
      if (frame && !['', 'about:blank'].includes(frame.url())) return frame;
      assert.ok(Date.now() < deadline, 'the iframe did not leave about:blank');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('the sdk.js snippet, pasted into a page of the site, plays this demo and costs nothing: no new demo, same balance', async () => {
    await page.goto(`${base}/app/demos/${demoId}`);
    const snippet = await valueOf('#embed-sdk');
    assert.match(snippet, new RegExp(`data-demo="${demoId}"`), 'the snippet names this demo');
    assert.doesNotMatch(snippet, /data-prompt|YOUR_PUBLISHABLE_KEY/, 'it asks for no new demo and needs no key');
    assert.match(await textOf('[data-embed-snippets]'), /Showing it costs nothing/);
    await (await page.$('[data-embed-snippets]'))!.screenshot({ path: path.join(shots, 'demo-embed-snippets.png') });

    const [creditsBefore, demosBefore] = [await balance(), await demoCount()];
    site.page('/pricing.html', `<!doctype html><html><head><title>Acme pricing</title></head>
<body style="font-family:sans-serif;margin:40px"><h1>Pricing</h1><div style="width:640px">
${snippet}
</div></body></html>`);
    const host = await (await browser.createBrowserContext()).newPage();
    await host.setViewport({ width: 800, height: 520 });
    const asked: string[] = [];
    host.on('request', (request) => void asked.push(new URL(request.url()).pathname));
    await host.goto(`${site.origin('127.0.0.1')}/pricing.html`);
    const frame = await frameOf(host);
    assert.equal(new URL(frame.url()).pathname, `/embed/${demoId}`, 'the iframe is this demo’s player');
    await frame.waitForFunction(() => {
      const video = document.querySelector('video');
      return video !== null && video.readyState >= 2;
    }, { polling: 100, timeout: 30_000 });
    await frame.evaluate(() => document.querySelector('video')!.play().catch(() => undefined));
    await frame.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, { polling: 100, timeout: 30_000 });
    const size = await host.$eval('[data-showreel]', (el) => ({ width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height }));
    assert.equal(Math.round((size.width / size.height) * 100) / 100, 1.78, 'a 16:9 player');
    await host.screenshot({ path: path.join(shots, 'host-page-sdk-snippet.png') });

    assert.ok(!asked.includes('/api/v1/embed/generate'), `nothing asked for a generation (${asked.join(', ')})`);
    assert.equal(await demoCount(), demosBefore, 'no new demo');
    assert.equal(await balance(), creditsBefore, 'nothing charged');
    await host.close();
  });

  it('the iframe snippet plays it too, and carries no allowfullscreen beside allow="fullscreen"', async () => {
    const snippet = await valueOf('#embed-iframe');
    assert.match(snippet, new RegExp(`^<iframe src="${base}/embed/${demoId}"`));
    assert.doesNotMatch(snippet, /allowfullscreen/);
    assert.match(await valueOf('#embed-runtime'), new RegExp(`embed-url .*--project ${projectId} --payload '\\{"demoId":"${demoId}"\\}'`));
  });

  it('Refresh shows its cost and asks in the page; Cancel charges nothing; confirming charges once and starts it', async () => {
    await page.goto(`${base}/app/demos/${demoId}`);
    const creditsBefore = await balance();
    assert.equal(await textOf('[data-refresh] > summary'), 'Refresh…');
    assert.equal(await visible('[data-refresh] .confirm-box'), false, 'nothing is asked before the button is pressed');

    await page.click('[data-refresh] > summary');
    assert.equal(await visible('[data-refresh] .confirm-box'), true);
    const box = await textOf('[data-refresh] .confirm-box');
    assert.match(box, /Re-record this demo from the live page for 1 credit\?/);
    assert.match(box, new RegExp(`Your balance: ${creditsBefore} credits`));
    assert.match(await textOf('[data-refresh-submit]'), /^Refresh for 1 credit$/);
    await page.screenshot({ path: path.join(shots, 'demo-refresh-confirm.png') });
    await page.setViewport({ width: 390, height: 844 });
    await page.$eval('[data-refresh]', (el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(shots, 'demo-refresh-confirm-390.png') });
    await page.setViewport({ width: 1280, height: 900 });

    await page.click('[data-close-details]');
    assert.equal(await visible('[data-refresh] .confirm-box'), false, 'Cancel closes it');
    assert.equal(await balance(), creditsBefore, 'asking charged nothing');
    assert.equal((await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body.refreshHistory.length, 0, 'and queued nothing');

    await page.click('[data-refresh] > summary');
    await Promise.all([page.waitForNavigation(), page.click('[data-refresh-submit]')]);
    assert.match(await textOf('main'), /Refresh started/);
    assert.equal(await balance(), creditsBefore - 1, 'confirming charged the 1 credit it said');
    const history = (await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body.refreshHistory;
    assert.deepEqual(history.map((h: { triggered_by: string; credits_charged: number }) => [h.triggered_by, h.credits_charged]), [['manual', 1]]);
    await page.screenshot({ path: path.join(shots, 'demo-refresh-started.png'), fullPage: true });

    // The worker re-records it (the page looked the same): the history says it re-recorded and charged, as asked.
    await finishJob(app.sql, demoId, history[0].id, { changes: [] });
    await page.goto(`${base}/app/demos/${demoId}`);
    const row = await page.$eval('tr[data-history]', (el) => (el.textContent ?? '').replace(/\s+/g, ' '));
    assert.match(row, /Refresh\s+Re‑recorded · 1 credit charged\s+The page looked the same; re‑recorded as asked/);
    await (await page.$('tr[data-history]'))!.evaluate((el) => el.closest('section')!.scrollIntoView());
    await (await page.$('tr[data-history]'))!.evaluate((el) => el.closest('section')!.setAttribute('data-shot', ''));
    await (await page.$('[data-shot]'))!.screenshot({ path: path.join(shots, 'demo-history.png') });
  });
});
