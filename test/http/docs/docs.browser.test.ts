import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * A developer opens /docs in real Chromium: Redoc, served from this service, renders the served OpenAPI document,
 * and nothing is fetched from anywhere else (no CDN, no web font, no logo).
 */
describe('the API reference at /docs in Chromium', () => {
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser({ allowPrivate: true })]);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('renders every operation from the served document, with every request to this service alone', async () => {
    const page = await (await browser.createBrowserContext()).newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => void requests.push(request.url()));
    page.on('pageerror', (error) => void problems.push(`page error: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await page.setViewport({ width: 1280, height: 900 });
    const response = await page.goto(`${app.url}/docs`, { waitUntil: 'networkidle0' });
    assert.equal(response?.status(), 200);

    // An operation's heading, a request example and a response example, as Redoc draws them.
    await page.waitForFunction(() => [...document.querySelectorAll('h2')].some((h) => h.textContent?.trim() === 'Create a project'), { polling: 100, timeout: 30_000 });
    const text = await page.evaluate(() => document.body.innerText);
    assert.match(text, /Showreel API/);
    assert.match(text, /Request samples/);
    assert.match(text, /Response samples/);
    assert.match(text, /Acme store/, 'the request example of Create a project');
    for (const tag of ['Projects', 'Demos', 'Credits', 'API keys', 'Usage', 'Backgrounds', 'Embeds']) {
      assert.ok(await page.$(`[data-item-id="tag/${tag.replace(/ /g, '-')}"]`), `the sidebar lists ${tag}`);
    }
    const document = (await app.api('/api/v1/openapi.json')).body;
    const operations = Object.values<Record<string, { summary: string }>>(document.paths).flatMap((item) => Object.values(item));
    const headings = await page.$$eval('h2', (hs) => hs.map((h) => h.textContent?.trim()));
    for (const operation of operations) assert.ok(headings.includes(operation.summary), `"${operation.summary}" is rendered`);

    const origin = new URL(app.url).origin;
    const foreign = requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url));
    assert.deepEqual(foreign, [], 'no request leaves the service');
    assert.ok(requests.some((url) => url.startsWith(`${origin}/docs/redoc.standalone.js?v=`)), 'Redoc came from here');
    assert.ok(requests.includes(`${origin}/api/v1/openapi.json`), 'the document came from here');
    assert.deepEqual(problems, []);

    // Issue 57: it opens on a quick start, in the dashboard's dark colours, with a way back and no licence line.
    const opening = await page.evaluate(() => {
      const sidebar = [...document.querySelectorAll('[role=menuitem], .menu-content label')].map((el) => el.textContent?.trim() ?? '').filter(Boolean);
      const firstHeading = [...document.querySelectorAll('h1, h2')].map((h) => h.textContent?.trim()).find((t) => t && !t.startsWith('Showreel API'));
      const back = document.querySelector('header a[href="/app/"]:not(.brand)');
      const quickStart = [...document.querySelectorAll('h1, h2')].find((h) => h.textContent?.trim() === 'Quick start')!;
      return {
        sidebar: sidebar.slice(0, 3),
        firstHeading,
        back: back?.textContent?.trim(),
        body: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(quickStart).color,
        sample: [...document.querySelectorAll('pre')].map((pre) => pre.textContent ?? '').find((t) => t.includes('/api/v1/projects')),
        menu: getComputedStyle(document.querySelector('.menu-content')!).backgroundColor,
      };
    });
    assert.equal(opening.firstHeading, 'Quick start', 'the first thing under the title is the quick start');
    assert.equal(opening.sidebar[0], 'Quick start', `the sidebar starts with it: ${JSON.stringify(opening.sidebar)}`);
    assert.equal(opening.back, '← Dashboard');
    assert.equal(opening.body, 'rgb(11, 12, 16)', 'the dashboard’s background');
    assert.equal(opening.menu, 'rgb(14, 16, 21)', 'the sidebar too');
    assert.equal(opening.text, 'rgb(232, 233, 237)', 'light text on it');
    assert.ok(opening.sample?.includes(`${document.servers[0].url}/api/v1/projects`), 'the quick start’s curl names this service');
    assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /License|LicenseRef/, 'no licence line');
    // Readable everywhere: no text drawn dark on the dark page, and a chosen tab's label stands out from its tab.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const unreadable = await page.evaluate(`(() => {
      const luminance = (color) => { const m = /rgba?\\((\\d+), (\\d+), (\\d+)/.exec(color); return m ? 0.2126 * m[1] + 0.7152 * m[2] + 0.0722 * m[3] : 255; };
      const found = [];
      for (const el of document.querySelectorAll('#redoc *')) {
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.nodeValue.trim());
        if (!own || el.closest('.react-tabs__tab--selected, [class*=http-verb]')) continue;
        const style = getComputedStyle(el);
        if (style.visibility !== 'hidden' && luminance(style.color) < 90) found.push(el.textContent.trim().slice(0, 40));
      }
      for (const tab of document.querySelectorAll('.react-tabs__tab--selected')) {
        const style = getComputedStyle(tab);
        if (Math.abs(luminance(style.color) - luminance(style.backgroundColor)) < 80) found.push('selected tab ' + tab.textContent.trim());
      }
      return found;
    })()`);
    assert.deepEqual(unreadable, [], 'every text reads against the dark page');
    const auth = await page.$eval('[data-item-id="tag/Auth"]', (el) => el.getBoundingClientRect().top);
    const projects = await page.$eval('[data-item-id="tag/Projects"]', (el) => el.getBoundingClientRect().top);
    assert.ok(projects < auth, 'the cookie sign-up comes after what scripts use');

    // Screenshots at desktop and phone widths, for a person to look at (the path is printed).
    const shots = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-docs-shots-'));
    await page.screenshot({ path: path.join(shots, 'docs-1280.png') });
    await page.$eval('[id="tag/Projects/operation/projects-create"]', (el) => el.scrollIntoView());
    await page.screenshot({ path: path.join(shots, 'docs-operation-1280.png') });
    await page.setViewport({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector('h2') !== null, { polling: 100 });
    await page.screenshot({ path: path.join(shots, 'docs-390.png') });
    console.log(`/docs screenshots: ${shots}`);
    await page.close();
  });
});
