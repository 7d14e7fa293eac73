import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { launchBrowser } from '../../src/pipeline/browser/launch.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { completeWithMedia, makeDemoMedia, runSnippet, startHostSite, type HostSite } from './embed-harness.js';

/**
 * Embeds as a visitor sees them: real Chromium, host pages served by the test on their own origins, the service on
 * another. A "playing" video is one whose currentTime moves.
 */
describe('embeds in Chromium', () => {
  let app: TestApp;
  let user: TestUser;
  let site: HostSite;
  let browser: Browser;
  let media: Awaited<ReturnType<typeof makeDemoMedia>>;
  let projectId: string;
  let secret: string;
  let readyId: string;

  before(async () => {
    [app, site, media, browser] = await Promise.all([startTestApp(), startHostSite(), makeDemoMedia(), launchBrowser()]);
    user = await app.createUser({ credits: 50 });
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Host', url: `${site.origin('127.0.0.1')}/` } });
    projectId = project.body.id;
    secret = project.body.signing_secret;
    const upload = await fetch(`${app.url}/api/v1/demos/local-upload?project_id=${projectId}&prompt=${encodeURIComponent('A <b>ready</b> demo')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'video/mp4' },
      body: await fs.readFile(media.video),
    });
    readyId = ((await upload.json()) as { id: string }).id;
  });
  after(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), site?.close(), media?.cleanup()]);
  });

  const newPage = async (): Promise<Page> => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error));
    return page;
  };
  const frameOf = async (page: Page, index = 0): Promise<Frame> => {
    await page.waitForFunction((i) => document.querySelectorAll('iframe')[i], {}, index);
    const handle = await page.$$('iframe');
    const frame = await handle[index]!.contentFrame();
    assert.ok(frame);
    return frame;
  };
  const waitPlaying = (frame: Frame) =>
    frame.waitForFunction(() => {
      const v = document.querySelector('video');
      return v !== null && !v.paused && v.currentTime > 0.2;
    }, { timeout: 20_000 });

  it('plays a runtime URL signed by the documented Node snippet, in an iframe on another origin', async () => {
    const url = await runSnippet('js', { SHOWREEL_URL: app.url, SHOWREEL_PROJECT_ID: projectId, SHOWREEL_SIGNING_SECRET: secret }, { demoId: readyId, autoplay: true });
    site.page('/runtime.html', `<!doctype html><title>Runtime</title><div style="width:640px;aspect-ratio:16/9"><iframe src="${url}" style="width:100%;height:100%;border:0" allow="autoplay"></iframe></div>`);
    const page = await newPage();
    await page.goto(`${site.origin('localhost')}/runtime.html`);
    const frame = await frameOf(page);
    await waitPlaying(frame);
    assert.equal(await frame.evaluate(() => document.querySelector('video')!.muted), true, 'autoplay only muted');
    await page.close();
  });

  it('shows the 401 {error} of a tampered URL instead of a player (expired and pre-rotation URLs: runtime.test.ts)', async () => {
    const url = await runSnippet('js', { SHOWREEL_URL: app.url, SHOWREEL_PROJECT_ID: projectId, SHOWREEL_SIGNING_SECRET: secret }, { demoId: readyId });
    const tampered = url.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    const page = await newPage();
    const response = await page.goto(tampered);
    assert.equal(response?.status(), 401);
    assert.match(await page.evaluate(() => document.body.innerText), /signature/);
    assert.equal(await page.$('video'), null);
    await page.close();
  });
});
