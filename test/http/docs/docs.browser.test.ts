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

    // Screenshots at desktop and phone widths, for a person to look at (the path is printed).
    const shots = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-docs-shots-'));
    await page.screenshot({ path: path.join(shots, 'docs-1280.png') });
    await page.setViewport({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector('h2') !== null, { polling: 100 });
    await page.screenshot({ path: path.join(shots, 'docs-390.png') });
    console.log(`/docs screenshots: ${shots}`);
    await page.close();
  });
});
