import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fetchPublicUrl, PublicFetchError, requestPinned, type FetchPublicOptions } from '../../../src/platform/network/fetch-public-url.js';

describe('fetchPublicUrl: fetching a URL a user named without becoming an SSRF proxy', () => {
  let server: http.Server;
  let port: number;
  const hosts: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      if (req.url === '/hang') return; // accepts the request, never answers
      if (req.url === '/stall') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write('\x89PNG'); // then nothing more
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const options = (overrides: Partial<FetchPublicOptions> = {}): FetchPublicOptions => ({
    allowPrivate: true, maxBytes: 1024, timeoutMs: 2_000, maxRedirects: 3, ...overrides,
  });
  const fails = (promise: Promise<unknown>, failure: string, message: RegExp) =>
    assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof PublicFetchError, String(error));
      assert.equal(error.failure, failure);
      assert.match(error.message, message);
      return true;
    });

  it('connects to the address the check approved, never resolving the host a second time', async () => {
    // images.showreel.test resolves nowhere (there is no DNS here): the only way to reach the server is the pin.
    const response = await requestPinned(`http://images.showreel.test:${port}/x`, '127.0.0.1', AbortSignal.timeout(2_000));
    const body = await new Promise<string>((resolve) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    });
    assert.equal(body, 'hello');
    assert.equal(hosts.at(-1), `images.showreel.test:${port}`, 'the Host header still names the URL host');
  });

  it('judges a host by every address it resolves to', async () => {
    const lookup = async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }];
    await fails(fetchPublicUrl('http://images.example/bg.png', options({ allowPrivate: false, lookup })), 'refused', /resolves to a private address; Showreel only records public pages\.$/);
  });

  it('gives up when the host accepts the request but does not answer in time, or stalls mid-body', async () => {
    const started = Date.now();
    await fails(fetchPublicUrl(`http://127.0.0.1:${port}/hang`, options({ timeoutMs: 300 })), 'timeout', /within 0\.3 s/);
    await fails(fetchPublicUrl(`http://127.0.0.1:${port}/stall`, options({ timeoutMs: 300 })), 'timeout', /within 0\.3 s/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await fails(fetchPublicUrl(`http://127.0.0.1:${closedPort}/`, options()), 'network', /ECONNREFUSED/);
  });
});
