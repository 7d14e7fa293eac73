import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { headerHeightAfterScroll } from '../../../src/pipeline/analyse/scrolled-header.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';

/** A landing page whose header is in the flow at the top and fixed once the visitor scrolls, `how` it comes in. */
function landingPage(how: { transition: string; headerScript: string }): string {
  return `<!doctype html>
<html><head><style>
  body { margin: 0; font: 16px sans-serif; }
  header { height: 88px; background: #123; color: white; transition: ${how.transition}; }
  header.stuck { position: fixed; top: 0; left: 0; right: 0; height: 64px; }
  section { height: 900px; border-top: 1px solid #ccc; }
</style></head>
<body>
<header>Acme</header>
<section><h2>One</h2></section><section><h2>Two</h2></section><section><h2>Three</h2></section>
<script>${how.headerScript}</script>
</body></html>`;
}

const onScroll = "addEventListener('scroll', () => document.querySelector('header').classList.toggle('stuck', scrollY > 100));";

describe('the header a page fixes to the top once it scrolls', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser({ allowPrivate: true });
  });
  after(async () => {
    await browser?.close();
  });

  async function probe(html: string): Promise<{ height: number; scrollY: number }> {
    const page = await browser.newPage();
    try {
      await page.setViewport({ width: 1280, height: 720 });
      await page.setContent(html, { waitUntil: 'load' });
      const height = await headerHeightAfterScroll(page);
      return { height, scrollY: await page.evaluate(() => window.scrollY) };
    } finally {
      await page.close();
    }
  }

  it('is measured once it is fixed, and the page is left at the top', async () => {
    const { height, scrollY } = await probe(landingPage({ transition: 'none', headerScript: onScroll }));
    assert.equal(height, 64);
    assert.equal(scrollY, 0);
  });

  it('is measured at its end height when it shrinks with a transition', async () => {
    const { height } = await probe(landingPage({ transition: 'height 300ms linear', headerScript: onScroll }));
    assert.equal(height, 64);
  });

  it('is waited for when the page fixes it only after the scrolling pauses (a debounced handler)', async () => {
    const debounced = "let t; addEventListener('scroll', () => { clearTimeout(t); t = setTimeout(() => document.querySelector('header').classList.toggle('stuck', scrollY > 100), 120); });";
    const { height } = await probe(landingPage({ transition: 'none', headerScript: debounced }));
    assert.equal(height, 64);
  });

  it('is 0 when no bar sticks', async () => {
    const { height } = await probe(landingPage({ transition: 'none', headerScript: '' }));
    assert.equal(height, 0);
  });
});
