import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ValidationError } from '../../../src/platform/errors.js';
import type { LookupAll } from '../../../src/platform/network/ssrf-guard.js';
import { egressProxyOf, launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { createBrowserPool, type BrowserPool } from '../../../src/pipeline/browser/pool.js';
import { SsrfViolationError } from '../../../src/pipeline/browser/request-guard.js';

// A 1×1 PNG.
const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    handler(request, response);
  });
  server.on('upgrade', (request, socket) => {
    hits.push(`upgrade ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

describe('SSRF request guard', () => {
  let pool: BrowserPool;
  let images: Awaited<ReturnType<typeof listen>>;
  let site: Awaited<ReturnType<typeof listen>>;
  const pageHtml = () =>
    `<!doctype html><h1>Site</h1><img id="logo" src="${images.origin}/logo.png">` +
    `<script>window.fetched = fetch('${images.origin}/api').then(() => 'loaded', () => 'refused');</script>`;
  // What DNS says. rebind.test answers a public address the first time it is asked (the request guard's check) and
  // 127.0.0.1 ever after (the connection), as in a DNS rebinding attack. site.test is the fixture site on loopback,
  // let through by its exact host:port (allowTargets) as a public site would be; every other loopback port is refused.
  let rebindAnswers = 0;
  const lookup: LookupAll = async (host) => {
    if (host === 'rebind.test') return [{ address: rebindAnswers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    if (host === 'site.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };

  before(async () => {
    images = await listen((request, response) => {
      response.setHeader('access-control-allow-origin', '*');
      response.setHeader('content-type', request.url === '/logo.png' ? 'image/png' : 'text/plain');
      response.end(request.url === '/logo.png' ? pixel : 'ok');
    });
    site = await listen((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: `${images.origin}/private` });
        response.end();
        return;
      }
      response.setHeader('content-type', 'text/html');
      response.end(pageHtml());
    });
    pool = createBrowserPool({
      size: 1,
      lookup,
      allowTargets: [`site.test:${new URL(site.origin).port}`],
      launch: ({ deviceScaleFactor }) => launchBrowser({ deviceScaleFactor }),
    });
  });
  after(async () => {
    await pool.close();
    await Promise.all([images, site].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  const job = { viewport: 'desktop' as const, resolution: '720p' as const };

  it('refuses to navigate to a private address before the browser connects', async () => {
    const hitsBefore = site.hits.length;
    await pool.withPage({ ...job, allowPrivate: false }, async (_page, ctx) => {
      for (const url of [`${site.origin}/`, site.origin.replace('127.0.0.1', 'localhost'), 'http://169.254.169.254/latest/meta-data', 'file:///etc/passwd']) {
        await assert.rejects(ctx.goto(url), (error: unknown) => {
          assert.ok(error instanceof ValidationError, url);
          assert.match(error.message, /loopback|localhost|link-local|http or https/);
          return true;
        });
      }
    });
    assert.equal(site.hits.length, hitsBefore);
  });

  it('aborts subresources, fetches, workers and popups aimed at private addresses', async () => {
    const hitsBefore = images.hits.length;
    const seen = await pool.withPage({ ...job, allowPrivate: false }, async (page, ctx) => {
      await page.goto(`data:text/html,${encodeURIComponent(pageHtml())}`, { waitUntil: 'load' });
      const result = await page.evaluate(async (imagesOrigin) => {
        const image = document.getElementById('logo') as HTMLImageElement;
        const worker = new Worker(URL.createObjectURL(new Blob([`fetch('${imagesOrigin}/worker').then(() => postMessage('loaded'), () => postMessage('refused'))`], { type: 'text/javascript' })));
        const fromWorker = await new Promise((resolve) => {
          worker.onmessage = (event) => resolve(event.data);
          setTimeout(() => resolve('no answer'), 1_500);
        });
        const popup = window.open(`${imagesOrigin}/popup`);
        return {
          imageWidth: image.naturalWidth,
          fetched: await Promise.race([(window as unknown as { fetched: Promise<string> }).fetched, new Promise((resolve) => setTimeout(() => resolve('no answer'), 5_000))]),
          fromWorker,
          popupOpened: popup !== null,
        };
      }, images.origin);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { ...result, stats: { ...ctx.guard.stats }, enabled: ctx.guard.enabled };
    });
    assert.equal(seen.enabled, true);
    assert.deepEqual(
      { imageWidth: seen.imageWidth, fetched: seen.fetched, popupOpened: seen.popupOpened },
      { imageWidth: 0, fetched: 'refused', popupOpened: false },
    );
    // A dedicated worker's request is intercepted and aborted too; the worker may never hear back (the abort goes
    // through the page's interception), which is as safe.
    assert.notEqual(seen.fromWorker, 'loaded');
    assert.ok(seen.stats.blocked >= 3, `blocked ${seen.stats.blocked}`);
    for (const path of ['/logo.png', '/api', '/worker']) {
      assert.ok(seen.stats.blockedUrls.includes(`${images.origin}${path}`), path);
    }
    assert.deepEqual(images.hits.slice(hitsBefore), [], 'the private server saw no request');
  });

  it('lets everything load with allowPrivate', async () => {
    const hitsBefore = images.hits.length;
    const seen = await pool.withPage({ ...job, allowPrivate: true }, async (page, ctx) => {
      await ctx.goto(`${site.origin}/`, { waitUntil: 'load' });
      return {
        imageWidth: await page.$eval('#logo', (image) => (image as HTMLImageElement).naturalWidth),
        fetched: await page.evaluate(() => (window as unknown as { fetched: Promise<string> }).fetched),
        enabled: ctx.guard.enabled,
      };
    });
    assert.deepEqual(seen, { imageWidth: 1, fetched: 'loaded', enabled: false });
    // The page's dedicated worker also asks for /worker, whenever it gets round to it: before the job ends or not
    // (seen both ways in CI), so it is neither required nor refused here.
    assert.deepEqual(images.hits.slice(hitsBefore).filter((hit) => hit !== '/worker').sort(), ['/api', '/logo.png']);
  });

  it('connects to the address it checked: a resolver that turns private after the first answer reaches nothing', async () => {
    const port = new URL(site.origin).port;
    const hitsBefore = site.hits.length;
    const seen = await pool.withPage({ ...job, allowPrivate: false }, async (page) => {
      // The request guard's lookup says public, so the request goes on; the egress proxy resolves for the connection
      // it makes, is told 127.0.0.1 and refuses it.
      await page.goto(`http://rebind.test:${port}/`).catch(() => null);
      return page.evaluate(() => document.querySelector('h1')?.textContent ?? null);
    });
    assert.notEqual(seen, 'Site');
    assert.deepEqual(site.hits.slice(hitsBefore), [], 'the private server saw no request');
  });

  it('fails the job if the browser ever connected around its proxy to a private address (tripwire)', async () => {
    // A browser told to ignore its proxy, and to connect rebind2.test to 127.0.0.1 whatever DNS says: what a Chromium
    // that went around the proxy and met a rebinding resolver would do.
    const port = new URL(site.origin).port;
    const direct = createBrowserPool({
      size: 1,
      lookup: async () => [{ address: '93.184.216.34', family: 4 }],
      launch: async ({ deviceScaleFactor }) => {
        // The last --proxy-server wins; the proxy is closed too, so nothing leaves through it should that change.
        const browser = await launchBrowser({ deviceScaleFactor, extraArgs: ['--proxy-server=direct://', '--host-resolver-rules=MAP rebind2.test 127.0.0.1'] });
        await egressProxyOf(browser)!.close();
        return browser;
      },
    });
    let finished = false;
    try {
      await assert.rejects(
        direct.withPage({ ...job, allowPrivate: false }, async (page, ctx) => {
          await ctx.goto(`http://rebind2.test:${port}/`);
          assert.equal(await page.$eval('h1', (h1) => h1.textContent), 'Site');
          finished = true;
        }),
        // The demo's error names the URL; where the name really led (127.0.0.1) is only in the server log.
        (error: unknown) => error instanceof SsrfViolationError && /rebind2\.test/.test(error.message) && !/127\.0\.0\.1/.test(error.message),
      );
    } finally {
      await direct.close();
    }
    assert.equal(finished, true);
  });

  it('checks every redirect hop', async () => {
    const port = new URL(site.origin).port;
    const hitsBefore = images.hits.length;
    const blocked = await pool.withPage({ ...job, allowPrivate: false }, async (page, ctx) => {
      await assert.rejects(page.goto(`http://site.test:${port}/redirect`), /ERR_BLOCKED_BY_CLIENT/);
      return [...ctx.guard.stats.blockedUrls];
    });
    assert.deepEqual(blocked, [`${images.origin}/private`]);
    assert.deepEqual(images.hits.slice(hitsBefore), []);
  });
});
