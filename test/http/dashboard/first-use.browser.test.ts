import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { makeDemoMedia } from '../../embeds/embed-harness.js';
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
});
