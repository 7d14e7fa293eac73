import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { headerHeightAfterScroll } from '../../../src/pipeline/analyse/scrolled-header.js';
import { scrollThroughPage } from '../../../src/pipeline/analyse/lazy-scroll.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { smoothScroll } from '../../../src/pipeline/record/motion.js';

/**
 * A landing page whose own script declares `function scrollTo(target, offset)` for its anchor links, as public
 * templates do (seen on a real page of the story evaluation: every recording of it stayed at the top). A global
 * function declaration replaces window.scrollTo for every script in the page, ours included, so reading and
 * recording the page must scroll without it.
 */
const page_ = `<!doctype html>
<html><head><style>
  body { margin: 0; overflow-x: hidden; overflow-y: auto; font: 16px sans-serif; }
  header { height: 64px; background: #123; color: white; }
  header.fixed { position: fixed; top: 0; left: 0; right: 0; }
  section { height: 900px; border-top: 1px solid #ccc; }
</style></head>
<body>
<header>Acme</header>
<section id="one"><h2>One</h2></section><section id="two"><h2>Two</h2></section><section id="three"><h2>Three</h2></section>
<section id="four"><h2>Four</h2></section>
<script>
  window.__calls = 0;
  window.__deepest = 0;
  // The page's smooth-scroll helper: takes an element and an offset.
  function scrollTo(target, offset) { window.__calls++; var top = target.offsetTop - (offset || 1); void top; }
  addEventListener('scroll', function () { window.__deepest = Math.max(window.__deepest, window.scrollY); });
  addEventListener('scroll', function () { document.querySelector('header').classList.toggle('fixed', window.scrollY > 100); });
</script>
</body></html>`;

describe('a page whose script replaces window.scrollTo with its own function', () => {
  let browser: Browser;
  let page: Page;
  before(async () => {
    browser = await launchBrowser({ allowPrivate: true });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    await page.setContent(page_, { waitUntil: 'load' });
  });
  after(async () => {
    await browser?.close();
  });

  it('is scrolled through to its bottom while read (so lazy content loads), and left at the top', async () => {
    const result = await scrollThroughPage(page, { stepMs: 60, imageWaitMs: 100 });
    assert.ok(result.steps >= 3, `${result.steps} steps`);
    const bottom = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    // Measured at the top; once scrolled, the fixed header leaves the flow and the page is 64 px shorter.
    assert.equal(await page.evaluate(() => (window as unknown as { __deepest: number }).__deepest), bottom - 64);
    assert.equal(await page.evaluate(() => window.scrollY), 0);
  });

  it('has its header that sticks once scrolled measured', async () => {
    assert.equal(await headerHeightAfterScroll(page, { minMs: 60, maxMs: 100 }), 64);
    assert.equal(await page.evaluate(() => window.scrollY), 0);
  });

  it('is scrolled by the recorder to where the plan asks, and the page’s own helper is never called', async () => {
    const seen: number[] = [];
    const y = await smoothScroll(page, 1800, 300, { onScroll: (at) => seen.push(at) });
    assert.equal(y, 1800);
    assert.equal(await page.evaluate(() => window.scrollY), 1800);
    assert.ok(seen.length >= 3 && seen.some((at) => at > 0 && at < 1800), `moved through ${seen.join(', ')}`);
    assert.equal(await page.evaluate(() => (window as unknown as { __calls: number }).__calls), 0);
  });
});
