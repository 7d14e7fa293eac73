import { after, before } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';

/**
 * Small synthetic pages in one real Chromium for the file that calls it (launched before its tests, closed after):
 * the returned function opens a 1280×720 page holding the given body.
 */
export function htmlPages(): (html: string) => Promise<Page> {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser({ allowPrivate: true });
  });
  after(async () => {
    await browser?.close();
  });
  return async (html) => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;font:16px/1.5 sans-serif}</style></head><body>${html}</body></html>`, {
      waitUntil: 'load',
    });
    return page;
  };
}
