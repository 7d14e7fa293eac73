import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { assertRecordablePage } from '../../../src/pipeline/analyse/recordable-page.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { PermanentJobError } from '../../../src/pipeline/job-errors.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.js';

/** What the browser shows must be a web page with something on it, or the demo fails (and is refunded) saying so. */
describe('a page worth recording', () => {
  let browser: Browser;
  let sites: FixtureServer;
  let page: Page;

  before(async () => {
    [browser, sites] = await Promise.all([launchBrowser({ allowPrivate: true }), startFixtureServer()]);
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await sites?.close();
  });

  const refusal = async () => {
    try {
      await assertRecordablePage(page);
      return null;
    } catch (error) {
      assert.ok(error instanceof PermanentJobError, String(error));
      return error.message;
    }
  };

  it('takes a site\'s page, and a page that only draws (a canvas, no text)', async () => {
    await page.goto(sites.url('saas'), { waitUntil: 'load' });
    assert.equal(await refusal(), null);
    await page.setContent('<!doctype html><body><canvas width="400" height="300"></canvas></body>');
    assert.equal(await refusal(), null);
  });

  it('refuses a file the browser shows in a viewer, naming its type', async () => {
    await page.goto(new URL('img/avatar-1.svg', sites.url('saas')).href, { waitUntil: 'load' });
    assert.match((await refusal()) ?? '', /is a file \(image\/svg\+xml\), not a web page/);
  });

  it('refuses a page with nothing on it', async () => {
    await page.goto('about:blank');
    await page.setContent('<!doctype html><title>Blank</title><body style="background:#fff"><div>   </div></body>');
    assert.match((await refusal()) ?? '', /is empty: there is nothing on it to record/);
  });
});
