import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { EGRESS_FAILURE_HEADER, startEgressProxy, type EgressProxy } from '../../../src/platform/network/egress-proxy.js';
import type { LookupAll } from '../../../src/platform/network/ssrf-guard.js';

// Everything here stays on loopback. A "canary" is an internal service the proxy must never connect to; the "site"
// stands for a public server: it listens on loopback too, and the policy lets exactly its host:port through
// (allowTargets), so acceptance is tested without leaving the machine while every other loopback port stays refused.

interface Canary {
  port: number;
  /** connections accepted, and the bytes they carried */
  hits: string[];
  close(): Promise<void>;
}

/** A TCP server that records every connection and echoes what it reads, prefixed. */
async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server = net.createServer((socket) => {
    hits.push('connection');
    socket.on('data', (data) => {
      hits.push(data.toString());
      socket.write(`echo:${data.toString()}`);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** CONNECT through the proxy: the status it answered, and the tunnel when it opened one. */
function connectThrough(proxy: EgressProxy, target: string): Promise<{ status: number; body: string; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: target, agent: false });
    request.once('connect', (response, socket, head) => {
      if (response.statusCode === 200) return resolve({ status: 200, body: '', socket });
      let body = head.toString();
      socket.on('data', (chunk: Buffer) => (body += chunk.toString()));
      socket.once('close', () => resolve({ status: response.statusCode ?? 0, body, socket }));
    });
    request.once('error', reject);
    request.end();
  });
}

/** A plain-HTTP request in absolute form, as a browser sends it to its proxy. */
function getThrough(proxy: EgressProxy, url: string): Promise<{ status: number; body: string; failure?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: proxy.port, path: url, headers: { host: new URL(url).host }, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      const failure = response.headers[EGRESS_FAILURE_HEADER] as string | undefined;
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body, ...(failure ? { failure } : {}) }));
    });
    request.once('error', reject);
    request.end();
  });
}

function exchange(socket: net.Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (data: Buffer) => resolve(data.toString()));
    socket.write(text);
  });
}

describe('egress proxy', () => {
  let canary: Canary;
  let site: http.Server;
  let sitePort: number;
  let proxy: EgressProxy;
  // What DNS says in these tests: internal.test is a private address, mixed.test has a public and a loopback one.
  const lookup: LookupAll = async (host) => {
    if (host === 'internal.test') return [{ address: '127.0.0.1', family: 4 }];
    if (host === 'mixed.test') return [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
    if (host === 'site.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };

  before(async () => {
    canary = await startCanary();
    site = http.createServer((request, response) => response.end(`site saw ${request.method} ${request.url} for ${request.headers.host}`));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
    proxy = await startEgressProxy({ allowPrivate: false, lookup, allowTargets: [`127.0.0.1:${sitePort}`, `site.test:${sitePort}`] });
  });
  after(async () => {
    await proxy.close();
    await canary.close();
    await new Promise((resolve) => site.close(resolve));
  });

  it('refuses a CONNECT to a loopback port with 403, and the service behind it never sees a connection', async () => {
    for (const target of [`127.0.0.1:${canary.port}`, `localhost:${canary.port}`, `[::1]:${canary.port}`, `127.1.2.3:${canary.port}`, `0.0.0.0:${canary.port}`]) {
      const { status, body } = await connectThrough(proxy, target);
      assert.equal(status, 403, target);
      assert.match(body, /loopback|localhost|unspecified/, target);
    }
    assert.deepEqual(canary.hits, []);
    assert.ok(proxy.stats.refusedTargets.some((line) => line.startsWith(`CONNECT 127.0.0.1:${canary.port}`)));
  });

  it('refuses a name that resolves to a private address, or to any private address among public ones', async () => {
    for (const host of ['internal.test', 'mixed.test']) {
      const { status, body } = await connectThrough(proxy, `${host}:${canary.port}`);
      assert.equal(status, 403, host);
      // The browser (and a demo's error) learns the kind of address, not which: that stays in the job's log.
      assert.match(body, /resolves to a loopback address; /);
      assert.ok(!body.includes('127.0.0.1'), body);
    }
    assert.deepEqual(canary.hits, []);
    assert.ok(proxy.stats.refusedTargets.some((line) => line.startsWith(`CONNECT internal.test:${canary.port}`) && line.endsWith('[127.0.0.1]')));
  });

  it('answers 502 for a host that does not resolve, and 400 for a target that is not host:port', async () => {
    assert.equal((await connectThrough(proxy, 'nowhere.test:443')).status, 502);
    assert.equal((await connectThrough(proxy, 'no-port-here')).status, 400);
  });

  it('tunnels a CONNECT to an allowed target, bytes both ways', async () => {
    const allowed = await startCanary();
    const tunnelling = await startEgressProxy({ allowPrivate: false, allowTargets: [`127.0.0.1:${allowed.port}`] });
    try {
      const { status, socket } = await connectThrough(tunnelling, `127.0.0.1:${allowed.port}`);
      assert.equal(status, 200);
      assert.equal(await exchange(socket, 'hello'), 'echo:hello');
      socket.destroy();
      assert.deepEqual(allowed.hits, ['connection', 'hello']);
      assert.equal(tunnelling.stats.tunnels, 1);
    } finally {
      await tunnelling.close();
      await allowed.close();
    }
  });

  it('resolves once, and connects to those addresses only, trying the next when one fails (IPv6 then IPv4)', async () => {
    const allowed = await startCanary(); // on 127.0.0.1 only: ::1 refuses or is unreachable
    let lookups = 0;
    const twoFamilies: LookupAll = async () => {
      lookups++;
      return [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }];
    };
    const racing = await startEgressProxy({ allowPrivate: false, lookup: twoFamilies, allowTargets: [`two.test:${allowed.port}`] });
    try {
      const { status, socket } = await connectThrough(racing, `two.test:${allowed.port}`);
      assert.equal(status, 200);
      assert.equal(await exchange(socket, 'both'), 'echo:both');
      socket.destroy();
      assert.equal(lookups, 1);
    } finally {
      await racing.close();
      await allowed.close();
    }
  });

  it('forwards plain HTTP in absolute form to an allowed target and refuses a private one with 403', async () => {
    const ok = await getThrough(proxy, `http://site.test:${sitePort}/page?x=1`);
    assert.deepEqual(ok, { status: 200, body: `site saw GET /page?x=1 for site.test:${sitePort}` });

    const refused = await getThrough(proxy, `http://127.0.0.1:${canary.port}/secret`);
    assert.equal(refused.status, 403);
    assert.equal(refused.failure, 'refused', 'the proxy marks its own answers, so the recorder can tell them from the site\'s');
    assert.match(refused.body, /loopback address \(127\.0\.0\.1\); Showreel only records public pages/);
    assert.deepEqual(canary.hits, []);
  });

  it('answers 502 marked unreachable when an allowed server is down', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = await startEgressProxy({ allowPrivate: false, allowTargets: [`127.0.0.1:${closedPort}`] });
    try {
      const answer = await getThrough(down, `http://127.0.0.1:${closedPort}/`);
      assert.deepEqual({ status: answer.status, failure: answer.failure }, { status: 502, failure: 'unreachable' });
      assert.match(answer.body, /ECONNREFUSED/);
    } finally {
      await down.close();
    }
  });

  it('waits for a slow site to answer (the browser\'s timeout speaks), and marks one that never answers as slow, not down', async () => {
    const slow = http.createServer((request, response) => {
      setTimeout(() => response.end(`late answer to ${request.url}`), request.url === '/late' ? 600 : 5_000);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const port = (slow.address() as AddressInfo).port;
    // Connecting may take 200 ms here, answering 1.5 s: a 600 ms answer is forwarded, a 5 s one is "slow".
    const patient = await startEgressProxy({ allowPrivate: false, allowTargets: [`127.0.0.1:${port}`] }, { connectMs: 200, answerMs: 1_500 });
    try {
      assert.deepEqual(await getThrough(patient, `http://127.0.0.1:${port}/late`), { status: 200, body: 'late answer to /late' });
      const never = await getThrough(patient, `http://127.0.0.1:${port}/never`);
      assert.deepEqual({ status: never.status, failure: never.failure }, { status: 504, failure: 'slow' });
    } finally {
      await patient.close();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('is not an open web server: origin-form requests and other schemes get a 400', async () => {
    const direct = await new Promise<number>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: proxy.port, path: '/', agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).once('error', reject);
    });
    assert.equal(direct, 400);
    assert.equal((await getThrough(proxy, `ftp://127.0.0.1:${canary.port}/`)).status, 400);
  });

  it('lets loopback through while the policy allows private addresses (development), and refuses again when it does not', async () => {
    proxy.setPolicy({ allowPrivate: true, lookup });
    try {
      const { status, socket } = await connectThrough(proxy, `127.0.0.1:${canary.port}`);
      assert.equal(status, 200);
      assert.equal(await exchange(socket, 'dev'), 'echo:dev');
      socket.destroy();
    } finally {
      proxy.setPolicy({ allowPrivate: false, lookup });
    }
    assert.equal((await connectThrough(proxy, `127.0.0.1:${canary.port}`)).status, 403);
    assert.deepEqual(canary.hits, ['connection', 'dev']);
    canary.hits.length = 0;
  });

  it('cuts open tunnels when it closes', async () => {
    const allowed = await startCanary();
    const closing = await startEgressProxy({ allowPrivate: false, allowTargets: [`127.0.0.1:${allowed.port}`] });
    const { socket } = await connectThrough(closing, `127.0.0.1:${allowed.port}`);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await closing.close();
    await closed;
    await allowed.close();
  });
});
