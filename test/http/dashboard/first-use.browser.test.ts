import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { reportDemoProgress, startDemoJob } from '../../../src/demos/index.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { deriveUploadPreviews } from '../../../src/pipeline/derive-upload.js';
import { inTransaction } from '../../../src/platform/command.js';
import { createLogger } from '../../../src/platform/logger.js';
import { createLocalStorage } from '../../../src/platform/storage/index.js';
import { analyticsWhen, newViewId, sendBeacon } from '../../analytics/analytics-harness.js';
import { completeWithMedia, makeDemoMedia } from '../../embeds/embed-harness.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { signInThroughForm } from '../../helpers/browser-sign-in.js';

/**
 * Issue 57's rough edges, as a new user meets them in Chromium: each screen says what it can do in plain words and
 * links only to controls that exist. Screenshots go to a temporary folder, printed at the end.
 */
describe('the dashboard a new user walks through, in Chromium', () => {
  let app: TestApp;
  let user: TestUser;
  let browser: Browser;
  let media: Awaited<ReturnType<typeof makeDemoMedia>>;
  let page: Page;
  let base: string;
  let shots: string;
  let projectId: string;

  before(async () => {
    [app, media, browser] = await Promise.all([startTestApp(), makeDemoMedia(), launchBrowser({ allowPrivate: true })]);
    user = await app.createUser({ credits: 10 });
    base = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    shots = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-first-use-shots-'));
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Flowboard', url: 'https://flowboard.example/' } })).body.id;
    page = await (await browser.createBrowserContext()).newPage();
    page.on('pageerror', (error) => assert.fail(`page error: ${String(error)}`));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.setViewport({ width: 1280, height: 900 });
    await signInThroughForm(page, base, user);
  });
  after(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), media?.cleanup()]);
    if (shots) console.log(`first-use screenshots: ${shots}`);
  });

  const textOf = (selector: string) => page.$eval(selector, (el) => (el as HTMLElement).innerText ?? '');
  const shoot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

  it('Usage says why there is no auto top-off when this service sells no credits, and links nowhere', async () => {
    await page.goto(`${base}/app/usage`);
    assert.equal(await textOf('[data-topoff]'), 'No auto top-off: this service sells no credits (an administrator grants them).');
    assert.equal(await page.$('[data-topoff] a'), null, 'no link to a control the Credits page does not have');
    await page.goto(`${base}/app/credits`);
    assert.equal(await page.$('#auto-topoff'), null, 'indeed: Credits has no auto top-off form here');
    await page.goto(`${base}/app/usage`);
    await shoot('usage');
  });

  const upload = async (file: string) => {
    await page.goto(`${base}/app/demos/upload`);
    await page.type('#u-prompt', 'Onboarding walkthrough');
    const input = await page.$('#u-file');
    await (input as unknown as { uploadFile(file: string): Promise<void> }).uploadFile(file);
  };

  it('after an upload, says the thumbnail is being made instead of a 404 poster, then shows it when the worker has', async () => {
    const missing: string[] = [];
    // A picture or link that 404s; the page's own HEAD check for whether the thumbnail is made yet is no such load.
    const watch = (response: { status(): number; url(): string; request(): { method(): string } }) =>
      void (response.status() === 404 && response.request().method() !== 'HEAD' && missing.push(response.url()));
    page.on('response', watch);
    await upload(media.video);
    await Promise.all([page.waitForNavigation({ timeout: 30_000 }), page.click('form[data-upload] button[type=submit]')]);
    assert.match(await textOf('.notice'), /Uploaded and published/);
    assert.match(await textOf('[data-previews-pending]'), /^The video is ready to play and share\. Its thumbnail and GIF are being made/);
    assert.equal(await page.$eval('video[data-player]', (v) => v.getAttribute('poster')), null, 'no poster that is not there yet');
    assert.equal(await page.$eval('[data-previews-link]', (el) => (el as HTMLElement).offsetParent), null, 'no GIF or thumbnail link to a 404');
    await page.waitForFunction(() => (document.querySelector('video[data-player]') as HTMLVideoElement).readyState >= 2, { timeout: 10_000 });
    await shoot('upload-preparing');

    // The worker's job: the thumbnail and GIF made from the video.
    const demoId = new URL(page.url()).pathname.split('/').pop()!;
    await deriveUploadPreviews({ sql: app.sql, storage: createLocalStorage(path.join(app.dataDir, 'media')), logger: createLogger('silent') }, demoId);
    await page.waitForSelector('[data-previews-pending]', { hidden: true, timeout: 10_000 });
    assert.match(await page.$eval('video[data-player]', (v) => (v as HTMLVideoElement).poster), new RegExp(`/thumb/${demoId}\\.png\\?v=1$`));
    assert.match(await textOf('.links'), /GIF · Thumbnail/);
    page.off('response', watch);
    assert.deepEqual(missing.filter((url) => url.includes('/thumb/') || url.includes('/gif/')), [], 'the page asked for no thumbnail before it existed');
    await shoot('upload-ready');
  });

  it('says plainly, in an error box, that a file named .mp4 is not a video', async () => {
    const fake = path.join(path.dirname(media.video), 'holiday.mp4');
    await fs.writeFile(fake, 'These are my notes, not a video.\n'.repeat(50));
    await fs.chmod(fake, 0o644);
    await upload(fake);
    await page.click('form[data-upload] button[type=submit]');
    await page.waitForSelector('[data-upload-error]', { visible: true, timeout: 10_000 });
    assert.equal(
      await textOf('[data-upload-error]'),
      'This file is not an MP4 video: its contents are something else, whatever its name says. Choose another file and try again.',
    );
    assert.equal(await page.$eval('[data-upload-error]', (el) => el.getAttribute('role')), 'alert');
    await shoot('upload-not-a-video');
  });

  /** A ready demo (version 1, with real media) of the project. */
  const readyDemo = async () => {
    const { id } = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Show the pricing', duration_target: '5s' } })).body;
    await completeWithMedia(app, id, media);
    return id as string;
  };
  const latestJob = async (demoId: string) => (await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${demoId}`)[0]!.latest_job_id;

  it('says what a restyle does while it runs, not "Analysing the page", and drops "Restyle started" once it is ready', async () => {
    const demoId = await readyDemo();
    assert.equal((await app.api(`/api/v1/demos/${demoId}/restyle`, { key: user.key, body: { presentation: { cursor: { size: 40 } } } })).status, 202);
    const jobId = await latestJob(demoId);
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, demoId, jobId, 1, { actor: 'pipeline' });
      await reportDemoProgress(tx, demoId, jobId, 'loading', 0.05, { actor: 'pipeline' });
    });
    await page.goto(`${base}/app/demos/${demoId}?done=restyling`);
    assert.match(await textOf('.notice'), /Restyle started/);
    assert.equal(await textOf('[data-progress] h2'), 'Restyling your demo');
    assert.match(await textOf('[data-progress-step]'), /^Opening the page to play the recorded tour again/);
    assert.equal(await textOf('.page-head .badge'), 'Preparing');
    await page.waitForSelector('[data-progress][data-channel="websocket"]', { timeout: 10_000 });
    await inTransaction(app.sql, (tx) => reportDemoProgress(tx, demoId, jobId, 'loading', 0.1, { actor: 'pipeline' }));
    await page.waitForFunction(() => /\(10%\)/.test(document.querySelector('[data-progress-step]')?.textContent ?? ''), { polling: 100, timeout: 10_000 });
    assert.equal(await textOf('[data-progress-step]'), 'Opening the page to play the recorded tour again (10%)', 'the live line too');
    assert.doesNotMatch(await textOf('main'), /Analys/);
    await shoot('restyle-running');

    const reloaded = page.waitForNavigation({ timeout: 20_000 });
    await completeWithMedia(app, demoId, media);
    await reloaded;
    assert.equal(await textOf('.page-head .badge'), 'Ready');
    assert.equal(await page.$('.notice'), null, 'no "Restyle started" over a ready demo');
    assert.match(page.url(), /done=restyling/, 'the same address, reloaded');
    await shoot('restyle-done');
  });

  it('drops "Refresh started" too once the refreshed demo is ready', async () => {
    const demoId = await readyDemo();
    assert.equal((await app.api(`/api/v1/demos/${demoId}/refresh`, { key: user.key, method: 'POST' })).status, 202);
    await page.goto(`${base}/app/demos/${demoId}?done=refreshing`);
    assert.match(await textOf('.notice'), /Refresh started/);
    assert.equal(await textOf('[data-progress] h2'), 'Recording the new version');
    const reloaded = page.waitForNavigation({ timeout: 20_000 });
    await completeWithMedia(app, demoId, media);
    await reloaded;
    assert.equal(await page.$('.notice'), null);
  });

  it('shows only the controls of the chosen kind of background, and every choice in words', async () => {
    const demoId = await readyDemo();
    await page.goto(`${base}/app/demos/${demoId}/restyle`);
    const visible = () =>
      page.$$eval('#f-bg_colour, #f-bg_from, #f-bg_to, #f-bg_angle, #f-bg_image, #f-bg_file', (fields) => fields.filter((f) => (f as HTMLElement).offsetParent !== null).map((f) => f.id));
    for (const [kind, controls] of [
      ['colour', ['f-bg_colour']],
      ['gradient', ['f-bg_from', 'f-bg_to', 'f-bg_angle']],
      ['image', ['f-bg_image', 'f-bg_file']],
    ] as const) {
      await page.click(`input[name=bg_kind][value=${kind}]`);
      assert.deepEqual(await visible(), controls, `${kind}: its controls alone`);
    }
    await page.click('input[name=bg_kind][value=gradient]');
    const options = (id: string) => page.$$eval(`#${id} option`, (list) => list.map((o) => o.textContent));
    assert.deepEqual(await options('f-mockup'), ['Mac window, light', 'Mac window, dark', 'Plain frame', 'No frame']);
    assert.deepEqual(await options('f-cursor_style'), ['Arrow', 'Dot', 'Ring', 'Crosshair', 'Hidden']);
    assert.deepEqual(await options('f-click_style'), ['Ripple', 'Pulse', 'Glow', 'None']);
    await page.select('#f-mockup', 'macos-dark');
    assert.match(await textOf('[data-changes]'), /Window frame: Mac window, light → Mac window, dark/);
    assert.doesNotMatch(await textOf('form[data-restyle]'), /macos|ripple|arrow/);
    await shoot('restyle-form');
  });

  it('History: triggers in words, a restore listed, frames side by side; playing an older version says which', async () => {
    const demoId = await readyDemo();
    assert.equal((await app.api(`/api/v1/demos/${demoId}/restyle`, { key: user.key, body: { presentation: { cursor: { size: 40 } } } })).status, 202);
    await completeWithMedia(app, demoId, media);
    await page.goto(`${base}/app/demos/${demoId}`);
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/versions/1/restore"] button')]);
    assert.match(await textOf('.notice'), /Version restored/);

    const rows = await page.$$eval('tr[data-history]', (list) => list.map((row) => [...row.querySelectorAll('td')].slice(1, 4).map((td) => (td as HTMLElement).innerText.trim())));
    assert.deepEqual(rows, [
      ['Restore', 'v1 made current again · free', 'Nothing recorded: v2 is kept under Versions'],
      ['Restyle', 'Re\u2011recorded · 1 credit charged', 'New look, same page'],
    ]);
    const linesOfReRecorded = await page.$eval('tr[data-history]:not([data-restored]) td[data-result]', (td) => {
      const text = td.firstChild!;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, 'Re‑recorded'.length);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    assert.equal(linesOfReRecorded, 1, '"Re‑recorded" does not break at its hyphen');
    const boxes = await page.$$eval('tr[data-restored] .frames img', (images) => images.map((img) => img.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left, right: r.right })));
    assert.equal(boxes.length, 2);
    assert.ok(Math.abs(boxes[0]!.top - boxes[1]!.top) < 1 && boxes[1]!.left > boxes[0]!.right, `before and after side by side: ${JSON.stringify(boxes)}`);
    await shoot('history');

    assert.equal(await page.$eval('[data-watching]', (el) => (el as HTMLElement).hidden), true, 'nothing to say while the current version plays');
    await page.$eval('video[data-player]', (video) => void ((video as HTMLVideoElement).muted = true));
    await page.click('[data-play-version="2"]');
    await page.waitForSelector('[data-watching]', { visible: true });
    assert.match(await textOf('[data-watching]'), /^You are watching v2 \(Restyle, \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\. Your share link and embeds show v1\./);
    assert.match(await page.$eval('video[data-player]', (v) => (v as HTMLVideoElement).currentSrc), /\?v=2$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot('watching-v2');
    await page.click('[data-watch-current]');
    await page.waitForSelector('[data-watching]', { hidden: true });
    await page.waitForFunction(() => /\?v=1$/.test((document.querySelector('video[data-player]') as HTMLVideoElement).currentSrc), { polling: 100, timeout: 5000 });
  });

  it('Who watched: "No views yet" when empty; then figures in the right number, a chart with dates and a scale, drop-off as bars', async () => {
    const demoId = await readyDemo();
    await page.goto(`${base}/app/demos/${demoId}`);
    assert.equal(await textOf('[data-no-views]'), 'No views yet. When someone opens the share page or one of the embeds, the visit shows here within a minute.');
    assert.equal(await page.$('[data-chart]'), null, 'no empty chart');
    await page.$eval('[data-analytics]', (el) => el.scrollIntoView());
    await page.screenshot({ path: path.join(shots, 'analytics-empty.png') });

    // One viewer, one view watched to 60 %.
    const view = newViewId();
    for (const beacon of [{ event: 'load' }, { event: 'play' }, ...[10, 20, 30, 40, 50, 60].map((value) => ({ event: 'progress', value })), { event: 'watched', value: 4 }]) {
      assert.equal((await sendBeacon(app, { demo: demoId, view, surface: 'share', ...beacon })).status, 202);
    }
    await analyticsWhen(app, user.key, demoId, (body) => body.views === 1 && body.average_seconds_watched > 0);
    await page.reload();
    assert.match(await textOf('[data-figures]'), /^1 view · 1 unique viewer · 1 play · 0 % watched to the end/);
    const ticks = await page.$$eval('[data-chart] [data-tick]', (list) => list.map((t) => t.textContent));
    assert.ok(ticks.length >= 2 && ticks.every((t) => /^\d{1,2} [A-Z][a-z]{2}$/.test(t ?? '')), `dates under the chart: ${ticks.join(', ')}`);
    assert.match(await textOf('[data-analytics] .legend'), /Views\s+Plays\s+per day/);
    assert.deepEqual(await page.$$eval('[data-dropoff] text.value', (list) => list.map((t) => t.textContent)), ['100%', '100%', '100%', '100%', '100%', '100%', '0%', '0%', '0%', '0%']);
    await page.$eval('[data-analytics]', (el) => el.scrollIntoView());
    await page.screenshot({ path: path.join(shots, 'analytics.png') });
  });

  it('New demo: one column with the upload link beside the text, every tour style readable, a blank prompt said to be required', async () => {
    await page.goto(`${base}/app/demos/new`);
    const form = await page.$eval('form[action="/app/demos"]', (el) => el.getBoundingClientRect().width);
    const main = await page.$eval('main', (el) => el.getBoundingClientRect().width);
    assert.ok(form > 700, `the form is wide (${Math.round(form)} of ${Math.round(main)} px)`);
    const link = await page.$eval('[data-upload-instead]', (el) => el.getBoundingClientRect().top);
    const heading = await page.$eval('h1', (el) => el.getBoundingClientRect().bottom);
    const top = await page.$eval('form[action="/app/demos"]', (el) => el.getBoundingClientRect().top);
    assert.ok(link > heading && link < top, 'the upload link is in the sentence under the heading, not beside it at the far right');
    // Every choice of "Style of tour" fits its select, so none is cut off.
    const widest = await page.$eval('#d-template', (select) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.style.position = 'absolute';
      document.body.appendChild(probe);
      const widths = [...(select as HTMLSelectElement).options].map((o) => ((probe.textContent = o.textContent), probe.getBoundingClientRect().width));
      probe.remove();
      return { text: Math.max(...widths), box: select.getBoundingClientRect().width };
    });
    assert.ok(widest.text + 40 < widest.box, `the longest tour style (${Math.round(widest.text)} px) fits its select (${Math.round(widest.box)} px)`);
    await shoot('new-demo');

    await page.type('#d-prompt', '   ');
    await Promise.all([page.waitForNavigation(), page.click('form[action="/app/demos"] button[type=submit]')]);
    assert.equal(await textOf('form[action="/app/demos"] .error'), 'The prompt is required.');
    const api = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: ' \t ' } });
    assert.equal(api.status, 400);
    assert.deepEqual(api.body, { error: 'The prompt is required.' });
  });

  it('Keys: allowed domains only for a publishable key, which is not told to be kept like a password', async () => {
    await page.goto(`${base}/app/keys`);
    const domainsShown = () => page.$eval('#k-domains', (el) => (el as HTMLElement).offsetParent !== null);
    assert.equal(await domainsShown(), false, 'a live key (the default) has no allowed domains');
    await shoot('keys-form-live');
    await page.select('#k-type', 'publishable');
    assert.equal(await domainsShown(), true);
    await page.type('#k-name', 'Website');
    await page.type('#k-domains', 'flowboard.example');
    await Promise.all([page.waitForNavigation(), page.click('form[action="/app/keys"] button[type=submit]')]);
    const note = await textOf('.new-key');
    assert.match(note, /Your new publishable key “Website”/);
    assert.match(note, /not a secret: it only works from its allowed domains/);
    assert.doesNotMatch(note, /password/);
    await shoot('keys-publishable-created');

    // Domains typed, then a live key chosen: the live key is made, without them.
    await page.select('#k-type', 'publishable');
    await page.type('#k-domains', 'typed.example');
    await page.select('#k-type', 'live');
    await page.type('#k-name', 'Server');
    await Promise.all([page.waitForNavigation(), page.click('form[action="/app/keys"] button[type=submit]')]);
    assert.match(await textOf('.new-key'), /Your new live key “Server”[\s\S]*Store it like a password/);
    const keys = (await app.api('/api/v1/api-keys', { key: user.key })).body.keys as Array<{ name: string; allowed_domains: string | null }>;
    assert.equal(keys.find((k) => k.name === 'Server')!.allowed_domains, null);
  });
});
