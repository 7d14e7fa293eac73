import dns from 'node:dns';
import http from 'node:http';
import net, { type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkHost, type LookupAll } from './ssrf-guard.js';

/**
 * The egress proxy: the network boundary below the browser. Chromium is launched with every connection routed here
 * (`--proxy-server`, loopback not bypassed), so whatever a recorded page makes it fetch — documents, subresources,
 * speculation-rules prefetches, WebSockets, WebRTC TURN over TCP — arrives as an HTTP request in absolute form
 * (`GET http://host/path`) or a CONNECT tunnel (`CONNECT host:443`), never as a connection of its own.
 *
 * For each one the proxy resolves the host once, checks every address with the SSRF guard (checkHost: loopback,
 * private, link-local... are refused, and so is a host with any such address), and connects to the addresses it
 * checked (IPv6 and IPv4 raced, as Chromium would): there is no second lookup for a rebinding resolver to answer
 * differently. A refused target gets a 403
 * (Chromium fails the request with ERR_TUNNEL_CONNECTION_FAILED or shows the 403), an unresolvable one a 502.
 *
 * The policy can change between jobs (a browser serves one job at a time): `allowPrivate` (SHOWREEL_ALLOW_PRIVATE_URLS,
 * development and tests) lets everything through, and `allowTargets` lets exact `host:port` targets through whatever
 * they resolve to (tests record a fixture on one loopback port while every other private address stays refused).
 *
 * Limits, on purpose: plain HTTP is forwarded one request per upstream connection (no pooling; pages on http: are
 * rare and the recorder is not a throughput path); HTTP upgrades on the plain-HTTP path are refused (Chromium tunnels
 * WebSockets through CONNECT). The proxy listens on 127.0.0.1 only.
 */
export interface EgressPolicy {
  allowPrivate: boolean;
  /** Resolver, for tests; defaults to the OS resolver (as checkHost). */
  lookup?: LookupAll;
  /** Exact `host:port` targets (host as in the URL, lower case, IPv6 in brackets) let through unchecked. */
  allowTargets?: readonly string[];
}

export interface EgressStats {
  tunnels: number;
  requests: number;
  refused: number;
  /** the first refused targets with their reason, for the job's log */
  refusedTargets: string[];
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy-server`. */
  readonly url: string;
  readonly port: number;
  readonly stats: EgressStats;
  setPolicy(policy: EgressPolicy): void;
  /** Counts from zero again (the pool resets them per job). */
  resetStats(): void;
  /** Stops listening and cuts every open connection. Never throws. */
  close(): Promise<void>;
}

/**
 * On the proxy's own answers to plain-HTTP requests: why it did not forward (`refused`, `unresolved`, `unreachable`).
 * Chromium shows a proxy's answer as the page's, so a navigation "succeeds" with the proxy's 403 or 502; this header
 * lets the recorder tell those apart from the site's own. CONNECT failures reach the page as
 * net::ERR_TUNNEL_CONNECTION_FAILED instead.
 */
export const EGRESS_FAILURE_HEADER = 'x-showreel-egress';
export type EgressFailure = 'refused' | 'unresolved' | 'unreachable' | 'slow' | 'invalid';

/**
 * How long the proxy waits: to connect (no server there), then for a plain-HTTP answer once connected. A site that
 * takes 20 s to answer is slow, not down, and the browser's own navigation timeout is the one that should speak.
 */
export interface EgressTimeouts {
  connectMs: number;
  answerMs: number;
}

const maxRefusedTargets = 20;
const DEFAULT_TIMEOUTS: EgressTimeouts = { connectMs: 15_000, answerMs: 120_000 };
// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own; the rest goes upstream as the browser sent it.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

type Verdict =
  | { ok: true; host: string; addresses: string[]; port: number }
  // `reason` goes back to the browser (and so may reach a demo's error); `resolvedAddress` only to the job's log.
  | { ok: false; status: 400 | 403 | 502; reason: string; resolvedAddress?: string };

const failureOf = (status: number): EgressFailure => (status === 403 ? 'refused' : status === 502 ? 'unresolved' : 'invalid');

export async function startEgressProxy(initial: EgressPolicy, timeouts: EgressTimeouts = DEFAULT_TIMEOUTS): Promise<EgressProxy> {
  let policy = initial;
  const stats: EgressStats = { tunnels: 0, requests: 0, refused: 0, refusedTargets: [] };
  const sockets = new Set<net.Socket | Duplex>();
  const track = (socket: net.Socket | Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const refuse = (target: string, verdict: Extract<Verdict, { ok: false }>) => {
    stats.refused++;
    if (stats.refusedTargets.length < maxRefusedTargets) stats.refusedTargets.push(`${target.slice(0, 200)}: ${verdict.reason}${verdict.resolvedAddress ? ` [${verdict.resolvedAddress}]` : ''}`);
  };

  /** The address to connect to for `host:port`, decided by the policy in force when the connection arrived. */
  const decide = async (host: string, port: number): Promise<Verdict> => {
    const current = policy;
    if (!Number.isInteger(port) || port < 1 || port > 65_535) return { ok: false, status: 400, reason: 'the port is not valid.' };
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const name = bare.toLowerCase().replace(/\.+$/, '');
    const display = net.isIPv6(name) ? `[${name}]` : name;
    if (current.allowPrivate || current.allowTargets?.includes(`${display}:${port}`)) {
      const addresses = await resolveAll(name, current.lookup);
      if (addresses.length === 0) return { ok: false, status: 502, reason: `the host does not resolve (${name}).` };
      return { ok: true, host: name, addresses, port };
    }
    const checked = await checkHost(name, { lookup: current.lookup });
    if (!checked.ok) return { ok: false, status: checked.code === 'unresolved' ? 502 : 403, reason: checked.reason, resolvedAddress: checked.resolvedAddress };
    return { ok: true, host: name, addresses: checked.addresses, port };
  };

  const server = http.createServer();
  server.on('connection', track);

  // CONNECT host:port — TLS, WebSockets, and whatever else Chromium tunnels (TURN over TCP).
  server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const target = request.url ?? '';
    const match = /^(\[[^\]]+\]|[^:[\]]+):(\d+)$/.exec(target);
    void (async () => {
      const verdict: Verdict = match ? await decide(match[1]!, Number(match[2])) : { ok: false, status: 400, reason: 'CONNECT needs host:port.' };
      if (!verdict.ok) {
        refuse(`CONNECT ${target}`, verdict);
        return answer(client, verdict.status, verdict.reason);
      }
      let established = false;
      const upstream = net.connect({ ...pinned(verdict.host, verdict.addresses), port: verdict.port, timeout: timeouts.connectMs });
      track(upstream);
      client.once('close', () => upstream.destroy());
      upstream.once('timeout', () => upstream.destroy(new Error('connect timed out')));
      upstream.on('error', (error) => {
        if (!established) answer(client, 502, `could not connect (${describe(error)}).`);
        else client.destroy();
      });
      upstream.once('connect', () => {
        established = true;
        upstream.setTimeout(0);
        stats.tunnels++;
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
        upstream.once('close', () => client.destroy());
      });
    })().catch(() => client.destroy());
  });

  // Absolute-form requests: plain http:// URLs.
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      return plain(response, 400, 'This is a forward proxy: send absolute-form requests or CONNECT.', 'invalid');
    }
    if (url.protocol !== 'http:') return plain(response, 400, `The proxy forwards http: requests only, not ${url.protocol}.`, 'invalid');
    void (async () => {
      const verdict = await decide(url.hostname, Number(url.port || 80));
      if (!verdict.ok) {
        refuse(`${request.method} ${url.origin}`, verdict);
        return plain(response, verdict.status, verdict.reason, failureOf(verdict.status));
      }
      stats.requests++;
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) if (!hopByHop.has(name) && value !== undefined) headers[name] = value;
      headers.host = url.host;
      headers.connection = 'close';
      const upstream = http.request({
        ...pinned(verdict.host, verdict.addresses),
        port: verdict.port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        agent: false,
        timeout: timeouts.connectMs,
      });
      let connected = false;
      upstream.once('socket', (socket) => {
        const answerWait = () => {
          connected = true;
          upstream.setTimeout(timeouts.answerMs);
        };
        if (socket.connecting) socket.once('connect', answerWait);
        else answerWait();
      });
      // Only a connected server that let the answer time run out is slow; a reset after connecting is unreachable.
      let answerTimedOut = false;
      upstream.once('timeout', () => {
        answerTimedOut = connected;
        upstream.destroy(new Error(connected ? 'no answer in time' : 'connect timed out'));
      });
      upstream.on('error', (error) => {
        if (response.headersSent) return void response.destroy();
        if (answerTimedOut) plain(response, 504, `the server did not answer within ${Math.round(timeouts.answerMs / 1000)} s.`, 'slow');
        else plain(response, 502, `could not reach the server (${describe(error)}).`, 'unreachable');
      });
      upstream.once('response', (answerFromUpstream) => {
        upstream.setTimeout(0);
        const back: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answerFromUpstream.headers)) if (!hopByHop.has(name) && value !== undefined) back[name] = value;
        response.writeHead(answerFromUpstream.statusCode ?? 502, answerFromUpstream.statusMessage, back);
        answerFromUpstream.pipe(response);
      });
      response.once('close', () => upstream.destroy());
      request.on('error', () => upstream.destroy());
      request.pipe(upstream);
    })().catch(() => response.destroy());
  });

  // Chromium sends WebSockets through CONNECT; an upgrade in absolute form would dodge the piping above.
  server.on('upgrade', (_request: http.IncomingMessage, client: Duplex) => {
    track(client);
    answer(client, 400, 'Upgrades go through CONNECT.');
  });
  server.on('clientError', (_error, socket: Duplex) => answer(socket, 400, 'Bad request.'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    setPolicy(next) {
      policy = next;
    },
    resetStats() {
      Object.assign(stats, { tunnels: 0, requests: 0, refused: 0, refusedTargets: [] });
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** Every address of a host, for targets the policy lets through unchecked; empty when it does not resolve. */
async function resolveAll(host: string, lookup: LookupAll | undefined): Promise<string[]> {
  if (net.isIP(host) !== 0) return [host];
  try {
    const records = lookup ? await lookup(host) : await dns.promises.lookup(host, { all: true, verbatim: true });
    return records.map((record) => record.address);
  } catch {
    return [];
  }
}

/**
 * Connection options that reach exactly these addresses: the lookup Node calls answers with them (all of them, so
 * autoSelectFamily can race IPv6 and IPv4 and fall back when one family is unreachable) instead of asking DNS again.
 */
function pinned(host: string, addresses: string[]): { host: string; lookup: LookupFunction; autoSelectFamily: true } {
  const records = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, all: typeof records) => void)(null, records);
    else callback(null, records[0]!.address, records[0]!.family);
  };
  // Node skips the lookup for an address literal, and calls it for a name: the name goes in, our addresses come out.
  return { host, lookup, autoSelectFamily: true };
}

/** A minimal response on a raw socket (CONNECT, upgrade, client errors), then the socket closes. */
function answer(socket: Duplex, status: number, reason: string): void {
  if (socket.destroyed || !socket.writable) return void socket.destroy();
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function plain(response: http.ServerResponse, status: number, reason: string, failure: EgressFailure): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close', [EGRESS_FAILURE_HEADER]: failure });
  response.end(`${reason}\n`);
}

function describe(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? (error instanceof Error ? error.message : String(error));
}
