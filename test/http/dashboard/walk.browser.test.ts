import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { completeWithMedia, makeDemoMedia } from '../../embeds/embed-harness.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.js';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * A new user walks the dashboard in real Chromium: sign up, a project on a fixture site, a demo whose progress
 * arrives over the WebSocket until it is ready (the test stands in for the worker: it stores real media and
 * completes the job, which notifies like the pipeline does), play it, restyle it, upload a recording, a key made and
 * revoked, a pack bought, a device approved and another denied; a form posted from another site is refused.
 * Screenshots of the main pages at 1280 and 390 px go to a temporary folder, printed at the end.
 */
describe('the dashboard in Chromium', () => {
  let app: TestApp;
  let sites: FixtureServer;
  let browser: Browser;
  let media: Awaited<ReturnType<typeof makeDemoMedia>>;
  let page: Page;
  let base: string;
  let shots: string;
  const email = 'walker@example.com';
  const visited: Record<string, string> = {};

  before(async () => {
    [app, sites, media, browser] = await Promise.all([startTestApp(), startFixtureServer(), makeDemoMedia(), launchBrowser({ allowPrivate: true })]);
    // The service's public origin (PUBLIC_URL): the origin its forms must come from.
    base = new URL((await app.api('/api/v1/device/code', { body: { client_name: 'probe', scope: 'write' } })).body.verification_uri).origin;
    shots = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-dashboard-shots-'));
    page = await (await browser.createBrowserContext()).newPage();
    page.on('pageerror', (error) => assert.fail(`page error: ${String(error)}`));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.setViewport({ width: 1280, height: 900 });
  });
  after(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), sites?.close(), media?.cleanup()]);
    if (shots) console.log(`dashboard screenshots: ${shots}`);
  });

  const submit = async (selector: string) => {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  };
  const textOf = (selector: string) => page.$eval(selector, (el) => el.textContent ?? '');
  const remember = (name: string) => void (visited[name] = new URL(page.url()).pathname + new URL(page.url()).search);

  it('signs up and lands on the first steps', async () => {
    await page.goto(`${base}/app/`);
    assert.match(page.url(), /\/app\/sign-in\?next=/);
    await submit('a[href^="/app/sign-up"]');
    await page.type('#email', email);
    await page.type('#password', 'a long passphrase');
    await submit('button[type=submit]');
    assert.equal(new URL(page.url()).pathname, '/app/');
    assert.match(await textOf('main'), /Welcome to Showreel/);
    remember('welcome');
  });

  let demoPath = '';
  it('creates a project on a fixture site and a demo, and follows its progress live to ready, then plays it', async () => {
    await page.type('#p-name', 'SaaS site');
    await page.type('#p-url', sites.url('saas'));
    await submit('form[action="/app/projects"] button[type=submit]');
    assert.match(await textOf('.notice'), /Project created/);
    remember('project');
    await submit('a[href^="/app/demos/new"]');
    remember('new-demo');
    await page.type('#d-prompt', 'Show the pricing');
    await page.select('#d-duration', '5s');
    await submit('form[action="/app/demos"] button[type=submit]');
    demoPath = new URL(page.url()).pathname;
    const demoId = demoPath.split('/').pop()!;
    await page.waitForSelector('[data-progress][data-channel="websocket"]', { timeout: 10_000 });
    assert.match(await textOf('[data-progress-step]'), /Queued: waiting for a worker/);
    await page.screenshot({ path: path.join(shots, 'demo-progress-1280.png') });

    const reloaded = page.waitForNavigation({ timeout: 20_000 });
    await completeWithMedia(app, demoId, media);
    await reloaded;
    await page.waitForSelector('video[data-player]');
    const played = await page.$eval('video[data-player]', async (video) => {
      const v = video as HTMLVideoElement;
      v.muted = true;
      await v.play();
      await new Promise((resolve) => setTimeout(resolve, 800));
      return v.currentTime;
    });
    assert.ok(played > 0.2, `the video plays (currentTime ${played})`);
    assert.match(await page.$eval('#share-url', (el) => (el as HTMLInputElement).value), new RegExp(`/share/${demoId}$`));
    assert.match(await page.$eval('#embed-iframe', (el) => (el as HTMLTextAreaElement).value), /^<iframe src="[^"]+\/embed\//);
    remember('demo');
  });

  it('previews a restyle before sending it, then restyles', async () => {
    await submit('a[href$="/restyle"]');
    remember('restyle');
    await page.click('input[name=bg_kind][value=gradient]');
    await page.select('#f-mockup', 'macos-light');
    await page.$eval('#f-padding', (el) => {
      (el as HTMLInputElement).value = '0.2';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const preview = await page.$eval('[data-preview]', (el) => ({
      background: getComputedStyle(el).backgroundImage,
      inset: getComputedStyle(el.querySelector('.pv-window')!).top,
      bar: getComputedStyle(el.querySelector('.pv-bar')!).backgroundColor,
    }));
    assert.match(preview.background, /linear-gradient/);
    assert.equal(preview.bar, 'rgb(230, 231, 235)', 'the light mockup bar');
    assert.ok(parseFloat(preview.inset) > 40, `the padding shows (${preview.inset})`);
    await submit('form[data-restyle] button[type=submit]');
    assert.match(await textOf('.notice'), /Restyle started/);
    assert.ok(await page.$('[data-progress]'), 'the new recording shows its progress');
  });

  it('falls back to polling when the WebSocket cannot open, and still shows the new version when it is ready', async () => {
    const tab = await page.browserContext().newPage();
    tab.on('pageerror', (error) => assert.fail(`page error: ${String(error)}`));
    await tab.evaluateOnNewDocument(() => {
      // A network that refuses WebSockets (some proxies): construction fails.
      (window as unknown as { WebSocket: unknown }).WebSocket = function () {
        throw new Error('WebSockets are blocked here');
      };
    });
    await tab.goto(`${base}${demoPath}`);
    await tab.waitForSelector('[data-progress][data-channel="polling"]', { timeout: 10_000 });
    const reloaded = tab.waitForNavigation({ timeout: 20_000 });
    await completeWithMedia(app, demoPath.split('/').pop()!, media);
    await reloaded;
    await tab.waitForSelector('video[data-player]');
    assert.equal(await tab.$('[data-progress]'), null);
    const triggers = await tab.$$eval('tr[data-history] td:nth-child(2)', (cells) => cells.map((cell) => cell.textContent));
    assert.deepEqual(triggers, ['Restyle'], 'the history lists the restyle');
    await tab.close();
  });

  it('uploads a local recording, published ready', async () => {
    await page.goto(`${base}/app/demos/upload`);
    remember('upload');
    await page.type('#u-prompt', 'Onboarding walkthrough');
    const input = await page.$('#u-file');
    await (input as unknown as { uploadFile(file: string): Promise<void> }).uploadFile(media.video);
    await Promise.all([page.waitForNavigation({ timeout: 30_000 }), page.click('form[data-upload] button[type=submit]')]);
    assert.match(await textOf('.notice'), /Uploaded and published/);
    await page.waitForSelector('video[data-player]');
  });

  it('creates a key shown once with a Copy button, and revokes it', async () => {
    await page.goto(`${base}/app/keys`);
    await page.type('#k-name', 'Laptop');
    await submit('form[action="/app/keys"] button[type=submit]');
    const key = await page.$eval('#new-key', (el) => (el as HTMLInputElement).value);
    assert.equal((await app.api('/api/v1/usage', { key })).status, 200);
    await page.click('[data-copy="new-key"]');
    await page.waitForFunction(() => document.querySelector('[data-copy="new-key"]')?.textContent === 'Copied', { polling: 100 });
    await page.screenshot({ path: path.join(shots, 'key-created-1280.png'), fullPage: true });
    await submit('form[action$="/revoke"] button');
    assert.match(await textOf('.notice'), /revoked/);
    assert.equal((await app.api('/api/v1/usage', { key })).status, 401);
    remember('keys');
  });

  it('says that this service sells no credits, with no buy button (SHOWREEL_PAYMENTS=none, issue 34)', async () => {
    await page.goto(`${base}/app/credits`);
    assert.match(await textOf('[data-no-payments]'), /sells no credits: payments are not configured here\. An administrator grants credits/);
    assert.equal(await page.$('form[action="/app/credits/purchase"]'), null);
    remember('credits');
    visited.usage = '/app/usage';
    visited.projects = '/app/projects';
  });

  it('approves a device code whose token then works as a bearer key, and denies another', async () => {
    const grant = (await app.api('/api/v1/device/code', { body: { client_name: 'walker laptop', scope: 'write' } })).body;
    await page.goto(grant.verification_uri_complete);
    assert.match(await textOf('main'), /walker laptop/);
    remember('device');
    await submit('button[value=approve]');
    assert.match(await textOf('h1'), /Device approved/);
    const token = await app.api('/api/v1/device/token', { body: { device_code: grant.device_code, grant_type: GRANT_TYPE } });
    assert.equal(token.status, 200);
    const usage = await app.api('/api/v1/usage', { key: token.body.access_token });
    assert.equal(usage.body.account.email, email);

    const other = (await app.api('/api/v1/device/code', { body: { client_name: 'stranger', scope: 'write' } })).body;
    await page.goto(other.verification_uri_complete);
    await submit('button[value=deny]');
    assert.match(await textOf('h1'), /Device denied/);
    const refused = await app.api('/api/v1/device/token', { body: { device_code: other.device_code, grant_type: GRANT_TYPE } });
    assert.deepEqual(refused.body, { error: 'access_denied' });
  });

  it('refuses a form posted from another site', async () => {
    await page.goto(`${base}/app/credits`);
    const csrf = await page.$eval('input[name=csrf]', (el) => (el as HTMLInputElement).value);
    const balance = await textOf('[data-balance]');
    // Even holding the token, a page on another origin (the fixture site) cannot buy: no cookie (SameSite=Lax) or
    // a foreign Origin, either way refused.
    await page.goto(sites.url('saas'));
    const answer = await page.evaluate(async (action, token) => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = action;
      for (const [name, value] of [['csrf', token], ['packId', '100']]) {
        const input = document.createElement('input');
        input.name = name!;
        input.value = value!;
        form.appendChild(input);
      }
      document.body.appendChild(form);
      form.submit();
      return null;
    }, `${base}/app/credits/purchase`, csrf);
    assert.equal(answer, null);
    await page.waitForNavigation().catch(() => undefined);
    assert.match(await page.content(), /"error"/);
    await page.goto(`${base}/app/credits`);
    assert.equal(await textOf('[data-balance]'), balance, 'nothing was bought');
  });

  it('writes screenshots of the main pages at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: width === 390 ? 844 : 900 });
      for (const [name, where] of Object.entries({ ...visited, demo: demoPath })) {
        await page.goto(`${base}${where}`);
        await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 1, `${name} at ${width} px does not scroll sideways (${overflow} px)`);
      }
    }
    const signIn = await (await browser.createBrowserContext()).newPage();
    await signIn.setViewport({ width: 390, height: 844 });
    await signIn.goto(`${base}/app/sign-in`);
    await signIn.screenshot({ path: path.join(shots, 'sign-in-390.png') });
    assert.ok((await fs.readdir(shots)).length >= 18);
  });
});
