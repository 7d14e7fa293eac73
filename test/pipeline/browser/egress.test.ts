import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LookupAll } from '../../../src/platform/network/ssrf-guard.js';
import { egressProxyOf, launchBrowser } from '../../../src/pipeline/browser/launch.js';
import { createBrowserPool, type BrowserPool } from '../../../src/pipeline/browser/pool.js';
import { EgressFailureError, FrameNotAllowedError } from '../../../src/pipeline/browser/request-guard.js';

// The security review's two ways around the page-level request guard, reproduced with private URLs disallowed and
// canaries on loopback standing for internal services: an HTTP server, a raw TCP port and a UDP port. The recorded
// site is on loopback too (same site as the canaries, as for a page whose host rebinds to an internal one), let
// through by its exact host:port as a public site would be; every other loopback port is refused.
// Before the egress proxy, the speculation-rules case showed the canary's page in the recording and the WebRTC case
// opened TCP connections to the canary port; neither produced a request event. Without the proxy flags (launch.ts)
// each of the first three tests hits a canary: prefetch over http and https, prerender, TURN/TCP, STUN and TURN over
// UDP, a service worker's own fetch, a WebSocket upgrade.

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('what a recorded page can reach below the request guard', () => {
  const hits: string[] = [];
  let canaryHttp: http.Server;
  let canaryTcp: net.Server;
  let canaryUdp: dgram.Socket;
  let site: http.Server;
  let pool: BrowserPool;
  const ports = { http: 0, tcp: 0, udp: 0, site: 0, down: 0 };

  const lookup: LookupAll = async (host) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };

  const pages: Record<string, () => string> = {
    '/speculation': () =>
      `<!doctype html><h1>Site</h1><script type="speculationrules">${JSON.stringify({
        prefetch: [{ source: 'list', urls: [`http://127.0.0.1:${ports.http}/secret`, `https://127.0.0.1:${ports.tcp}/over-tls`] }],
        prerender: [{ source: 'list', urls: [`http://127.0.0.1:${ports.http}/prerendered`] }],
      })}</script>`,
    '/webrtc': () => '<!doctype html><h1>Site</h1>',
    '/worker': () =>
      `<!doctype html><h1>Site</h1><script>window.registered = navigator.serviceWorker.register('/sw.js')` +
      `.then((registration) => new Promise((resolve) => { const worker = registration.installing ?? registration.active;` +
      ` if (!worker || worker.state === 'activated') return resolve('active'); worker.onstatechange = () => worker.state === 'activated' && resolve('active'); }))` +
      `.catch((error) => String(error));</script>`,
    '/sw.js': () => `self.addEventListener('install', (event) => event.waitUntil(fetch('http://127.0.0.1:${ports.http}/from-service-worker').catch(() => null)));`,
    '/framed': () => `<!doctype html><h1>Site</h1><iframe src="http://127.0.0.1:${ports.http}/in-a-frame"></iframe>`,
  };

  before(async () => {
    canaryHttp = http.createServer((request, response) => {
      hits.push(`http ${request.url} (${request.headers['sec-purpose'] ?? request.headers['sec-fetch-dest'] ?? 'no purpose'})`);
      response.setHeader('content-type', 'text/html');
      response.end('<h1>INTERNAL</h1>');
    });
    canaryHttp.on('upgrade', (request, socket) => {
      hits.push(`http upgrade ${request.url}`);
      socket.destroy();
    });
    canaryTcp = net.createServer((socket) => {
      hits.push('tcp connection');
      socket.on('error', () => undefined);
      socket.destroy();
    });
    canaryUdp = dgram.createSocket('udp4');
    canaryUdp.on('message', () => hits.push('udp datagram'));
    site = http.createServer((request, response) => {
      const page = pages[request.url ?? ''];
      response.writeHead(page ? 200 : 404, { 'content-type': request.url?.endsWith('.js') ? 'text/javascript' : 'text/html' });
      response.end(page ? page() : 'not found');
    });
    await Promise.all([
      new Promise<void>((resolve) => canaryHttp.listen(0, '127.0.0.1', resolve)),
      new Promise<void>((resolve) => canaryTcp.listen(0, '127.0.0.1', resolve)),
      new Promise<void>((resolve) => canaryUdp.bind(0, '127.0.0.1', resolve)),
      new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve)),
    ]);
    ports.http = (canaryHttp.address() as AddressInfo).port;
    ports.tcp = (canaryTcp.address() as AddressInfo).port;
    ports.udp = canaryUdp.address().port;
    ports.site = (site.address() as AddressInfo).port;
    ports.down = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    pool = createBrowserPool({
      size: 1,
      lookup,
      allowTargets: [`127.0.0.1:${ports.site}`, `127.0.0.1:${ports.down}`],
      launch: ({ deviceScaleFactor }) => launchBrowser({ deviceScaleFactor }),
    });
  });
  after(async () => {
    await pool.close();
    canaryUdp.close();
    await Promise.all([canaryHttp, canaryTcp, site].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const job = { viewport: 'desktop' as const, resolution: '720p' as const, allowPrivate: false };

  it('a speculation-rules prefetch and prerender of an internal URL, then a navigation to it, never reach the service', async () => {
    const outcome = await pool.withPage(job, async (page, ctx) => {
      await ctx.goto(`http://127.0.0.1:${ports.site}/speculation`, { waitUntil: 'load' });
      await wait(1_500); // speculation rules are acted on after load
      // The page follows its own prefetched link, as a click in the recording would.
      await Promise.all([page.waitForNavigation().catch(() => null), page.evaluate((url) => void (location.href = url), `http://127.0.0.1:${ports.http}/secret`)]);
      return {
        text: await page.evaluate(() => document.body?.innerText ?? ''),
        refusedByProxy: egressProxyOf(ctx.browser)!.stats.refusedTargets,
        blockedByGuard: ctx.guard.stats.blockedUrls,
      };
    }).catch((error: unknown) => error as Error);
    assert.deepEqual(hits, [], 'the internal service saw nothing');
    assert.ok(!(outcome instanceof Error), String(outcome));
    const seen = outcome;
    assert.doesNotMatch(seen.text, /INTERNAL/);
    // The prefetch never produced a request event; the proxy is what refused it.
    assert.ok(seen.refusedByProxy.some((line) => line.startsWith(`GET http://127.0.0.1:${ports.http}:`)), seen.refusedByProxy.join('\n'));
    assert.deepEqual(seen.blockedByGuard, [`http://127.0.0.1:${ports.http}/secret`], 'the navigation itself is a request the guard sees');
  });

  it('WebRTC cannot open TCP (TURN) or UDP (STUN, TURN, host candidates) to an internal port', async () => {
    const outcome = await pool.withPage(job, async (page, ctx) => {
      await ctx.goto(`http://127.0.0.1:${ports.site}/webrtc`, { waitUntil: 'load' });
      return page.evaluate(async ({ tcp, udp }) => {
        const connection = new RTCPeerConnection({
          iceServers: [
            { urls: [`turn:127.0.0.1:${tcp}?transport=tcp`], username: 'user', credential: 'secret' },
            { urls: [`turn:127.0.0.1:${udp}?transport=udp`, `stun:127.0.0.1:${udp}`], username: 'user', credential: 'secret' },
          ],
        });
        const found: string[] = [];
        connection.onicecandidate = (event) => {
          if (event.candidate?.candidate) found.push(event.candidate.candidate);
        };
        connection.createDataChannel('probe');
        await connection.setLocalDescription(await connection.createOffer());
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        connection.close();
        return found;
      }, { tcp: ports.tcp, udp: ports.udp });
    }).catch((error: unknown) => error as Error);
    assert.deepEqual(hits, [], 'no TCP connection, no UDP datagram');
    assert.deepEqual(outcome, [], 'no host, server-reflexive or relay candidates');
  });

  it('WebSockets and a service worker\'s own fetches, which the request guard does not see, reach nothing internal', async () => {
    const outcome = await pool.withPage(job, async (page, ctx) => {
      await ctx.goto(`http://127.0.0.1:${ports.site}/worker`, { waitUntil: 'load' });
      const registered = await page.evaluate(() => (window as unknown as { registered: Promise<string> }).registered);
      const socket = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onopen = () => resolve('open');
            ws.onerror = () => resolve('refused');
          }),
        `ws://127.0.0.1:${ports.http}/socket`,
      );
      return { registered, socket };
    }).catch((error: unknown) => error as Error);
    assert.deepEqual(hits, []);
    assert.deepEqual(outcome, { registered: 'active', socket: 'refused' });
  });

  /**
   * The last line: were there a way past both the request guard and the proxy, what it showed is not published.
   * The test opens that way itself (it turns the guard's interception off and lets the proxy through), then lets the
   * page end on the internal service, or frame it.
   */
  const withLayersOff = <T>(fn: (page: import('puppeteer-core').Page) => Promise<T>) =>
    pool.withPage(job, async (page, ctx) => {
      ctx.guard.dispose();
      await page.setRequestInterception(false);
      egressProxyOf(ctx.browser)!.setPolicy({ allowPrivate: true });
      return fn(page);
    });

  it('does not publish a recording whose page ended on an internal URL', async () => {
    await assert.rejects(
      withLayersOff(async (page) => {
        await page.goto(`http://127.0.0.1:${ports.site}/webrtc`);
        await page.evaluate((url) => void (location.href = url), `http://127.0.0.1:${ports.http}/ended-here`);
        await page.waitForFunction(() => document.body?.innerText.includes('INTERNAL'), { polling: 100 });
      }),
      (error: unknown) => {
        assert.ok(error instanceof FrameNotAllowedError, String(error));
        assert.match(error.message, /^The recording was not published: the page ended on http:\/\/127\.0\.0\.1:\d+\/ended-here, which Showreel may not record: it points at a loopback address/);
        return true;
      },
    );
    assert.deepEqual(hits.splice(0), ['http /ended-here (document)'], 'the layers were really off');
  });

  it('does not publish a recording of a page that frames an internal URL', async () => {
    await assert.rejects(
      withLayersOff(async (page) => {
        await page.goto(`http://127.0.0.1:${ports.site}/framed`, { waitUntil: 'load' });
      }),
      (error: unknown) => {
        assert.ok(error instanceof FrameNotAllowedError, String(error));
        assert.match(error.message, /a frame of the page shows http:\/\/127\.0\.0\.1:\d+\/in-a-frame/);
        return true;
      },
    );
    assert.deepEqual(hits.splice(0), ['http /in-a-frame (iframe)']);
  });

  it('with the layers on, the same frame is refused and the page is published without it', async () => {
    const frames = await pool.withPage(job, async (page, ctx) => {
      await ctx.goto(`http://127.0.0.1:${ports.site}/framed`, { waitUntil: 'load' });
      return page.frames().map((frame) => frame.url());
    });
    assert.deepEqual(hits, []);
    assert.equal(frames[0], `http://127.0.0.1:${ports.site}/framed`);
    assert.ok(!frames.some((url) => url.includes(`:${ports.http}/`)), frames.join(', '));
  });

  it('a site that is down fails the navigation as a transient fault, instead of recording the proxy\'s answer', async () => {
    await assert.rejects(
      pool.withPage(job, (_page, ctx) => ctx.goto(`http://127.0.0.1:${ports.down}/`)),
      (error: unknown) => error instanceof EgressFailureError && error.transient && /could not be reached; it may be down/.test(error.message),
    );
  });

  it('each browser has its own proxy, which closes with it', async () => {
    const browser = await launchBrowser();
    const proxy = egressProxyOf(browser)!;
    const args = browser.process()!.spawnargs;
    assert.ok(args.includes(`--proxy-server=${proxy.url}`));
    assert.ok(args.includes('--proxy-bypass-list=<-loopback>'), 'loopback is not bypassed');
    assert.ok(args.includes('--force-webrtc-ip-handling-policy=disable_non_proxied_udp'));
    await browser.close();
    await wait(100);
    const refused = await new Promise<string>((resolve) => {
      net.connect(proxy.port, '127.0.0.1').once('connect', () => resolve('connected')).once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    assert.equal(refused, 'ECONNREFUSED');
  });
});
