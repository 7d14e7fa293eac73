import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { followLink } from '../../../src/pipeline/record/follow-link.js';
import type { ScriptStep } from '../../../src/pipeline/types.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.js';

/**
 * Issue 56: between two legs, the step that leads on is followed for real. A docs sidebar's search box has no button:
 * "look up everything the docs say about sideloading" types the word and sends it as a person does, with Enter, and
 * the next leg starts on the results. Nothing but a GET leaves the page.
 */
describe('following the step that leads to the next page', () => {
  let browser: Browser;
  let sites: FixtureServer;
  let page: Page;
  const requests: Array<{ method: string; url: string }> = [];

  before(async () => {
    [browser, sites] = await Promise.all([launchBrowser({ allowPrivate: true }), startFixtureServer({ onRequest: (method, url) => requests.push({ method, url }) })]);
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
  });
  after(async () => {
    await browser?.close();
    await sites?.close();
  });

  it('sends a search box without a button by Enter, and arrives on its results', async () => {
    const url = `${sites.url('flow-admin')}index.html`;
    await page.goto(url, { waitUntil: 'load' });
    await page.type('input[name="q"]', 'sideloading');
    const box = await page.$eval('input[name="q"]', (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
    const step: Extract<ScriptStep, { kind: 'navigate' }> = {
      kind: 'navigate', target: { label: 'Search docs', selector: 'input[name="q"]', fallbackSelectors: [], rect: box }, href: null,
      label: 'Search for "sideloading"', startMs: 0, durationMs: 1000,
    };
    requests.length = 0;
    const followed = await followLink(page, step, (candidate) => new URL(candidate).origin === new URL(url).origin);
    assert.equal(followed.sameDocument, false);
    assert.match(followed.url, /\/search\.html\?q=sideloading$/);
    assert.equal(await page.$eval('#query', (el) => el.textContent), 'Results for sideloading', 'the results page shows what was searched');
    assert.deepEqual(requests.filter((r) => r.method !== 'GET'), [], 'nothing but GETs');
  });
});
