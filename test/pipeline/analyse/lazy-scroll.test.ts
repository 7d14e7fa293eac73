import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { scrollThroughPage } from '../../../src/pipeline/analyse/lazy-scroll.js';
import { launchBrowser } from '../../../src/pipeline/browser/launch.js';

/**
 * The pass down the page waits per step only as long as what the step set off is loading. A news page's "more
 * stories" sentinel fetches the next batch from a slow server (180 ms) when it comes into view and appends it, twice;
 * a lazy image sits in a closed tab. The pass follows the page as it grows (it waited for each fetch), sees the last
 * batch, and does not wait on the image that cannot load until its tab opens.
 */
const page_ = `<!doctype html>
<html><head><style>
  body { margin: 0; font: 16px sans-serif; }
  section { height: 900px; border-top: 1px solid #ccc; }
  .tab { display: none; }
</style></head>
<body>
<section><h2>Top stories</h2><div class="tab"><img loading="lazy" src="/hidden.png" alt=""></div></section>
<section><h2>More</h2></section>
<div id="sentinel" style="height: 10px"></div>
<script>
  window.__batches = 0;
  window.__lastSeen = false;
  const sentinel = document.getElementById('sentinel');
  const more = new IntersectionObserver(async (entries) => {
    if (!entries.some((e) => e.isIntersecting) || window.__batches >= 2 || window.__loading) return;
    window.__loading = true;
    const text = await (await fetch('/batch?n=' + window.__batches)).text();
    const section = document.createElement('section');
    section.innerHTML = '<h2>' + text + '</h2>';
    sentinel.before(section);
    window.__batches++;
    window.__loading = false;
    if (window.__batches === 2) new IntersectionObserver((e) => { if (e.some((x) => x.isIntersecting)) window.__lastSeen = true; }).observe(section);
  });
  more.observe(sentinel);
</script>
</body></html>`;

describe('the pass down the page for lazy content', () => {
  let browser: Browser;
  let page: Page;
  let server: http.Server;
  let origin: string;
  before(async () => {
    server = http.createServer((request, response) => {
      if (request.url?.startsWith('/batch')) {
        setTimeout(() => response.end(`Batch ${new URL(request.url!, 'http://x').searchParams.get('n')}`), 180);
      } else if (request.url === '/hidden.png') {
        response.writeHead(404).end();
      } else {
        response.writeHead(200, { 'content-type': 'text/html' }).end(page_);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser({ allowPrivate: true });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    await page.goto(`${origin}/`, { waitUntil: 'load' });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('follows a page that grows as it is scrolled, waiting for each slow batch, and ends back at the top', async () => {
    const result = await scrollThroughPage(page);
    const state = await page.evaluate(() => ({ batches: (window as unknown as { __batches: number }).__batches, lastSeen: (window as unknown as { __lastSeen: boolean }).__lastSeen, y: window.scrollY }));
    assert.equal(state.batches, 2, 'both batches were fetched');
    assert.equal(state.lastSeen, true, 'the pass reached the last batch it appended');
    assert.equal(result.documentHeight, 4 * 901 + 10, 'the page as grown');
    assert.equal(state.y, 0);
    // The image in the closed tab has no box, so it never loads until the tab opens: nothing to wait for.
    assert.equal(result.pendingImages, 0);
  });
});
