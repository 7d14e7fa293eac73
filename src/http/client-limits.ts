import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../platform/errors.js';
import { addressBucket } from '../platform/rate-limit.js';

/**
 * What one client can hold of the HTTP server (issue 34): connections open at once per client address, and how long
 * a request body may go without a byte. Totals are not limited: an upload of 200 MB on a slow line takes as long as
 * it takes, as long as bytes keep coming.
 */

/** 408: the client stopped sending its body. The connection is closed after the answer. */
export class BodyIdleError extends AppError {
  constructor(seconds: number) {
    super(408, `The request body stopped arriving (nothing for ${seconds} s); send it again.`, { Connection: 'close' });
  }
}

const DEFAULT_BODY_IDLE_MS = 30_000;
const bodyIdleMs = new WeakMap<IncomingMessage, number>();

/** Set by the server on each request from its configuration; readers of a request it did not see use 30 s. */
export function setBodyIdleLimit(req: IncomingMessage, ms: number): void {
  bodyIdleMs.set(req, ms);
}

/**
 * Calls `onIdle` with a BodyIdleError when no byte of the body arrives for the configured time, while the body is
 * read; returns the function that stops watching. It uses the socket's own inactivity timer (reset by every byte the
 * HTTP parser reads), and a listener on the request so that Node does not destroy the socket itself: the reader
 * rejects and the server still answers 408.
 */
export function watchBodyIdle(req: IncomingMessage, onIdle: (error: BodyIdleError) => void): () => void {
  const ms = bodyIdleMs.get(req) ?? DEFAULT_BODY_IDLE_MS;
  // (A body that is not a socket's, as in unit tests, has no silence to watch.)
  if (ms <= 0 || req.complete || !req.socket) return () => undefined;
  const socket = req.socket;
  const fire = () => onIdle(new BodyIdleError(Math.round(ms / 1000)));
  req.on('timeout', fire);
  socket.setTimeout(ms);
  return () => {
    req.off('timeout', fire);
    socket.setTimeout(0);
  };
}

/**
 * At most `perAddress` connections open at once from one client address (IPv6 by /64); beyond, the new connection
 * is answered `429 {error}` with Retry-After and closed before its request is read, and `isRefused` tells the
 * request handler to leave it alone. The address is the TCP peer's: when connections arrive through trusted proxies
 * (SHOWREEL_TRUSTED_PROXIES > 0) the peer is a proxy carrying many clients, so no cap is applied here (the proxy
 * holds the client connections and is where to limit them).
 */
export function capConnectionsPerAddress(server: Server, perAddress: number): { isRefused(socket: Socket): boolean } {
  const refused = new WeakSet<Socket>();
  if (perAddress <= 0) return { isRefused: () => false };
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const bucket = addressBucket(socket.remoteAddress ?? null);
    const count = open.get(bucket) ?? 0;
    if (count >= perAddress) {
      refused.add(socket);
      const body = JSON.stringify({ error: `Too many connections from your address (at most ${perAddress} at once); close some and try again.` });
      socket.on('error', () => socket.destroy());
      socket.end(`HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`);
      // Whatever the client still sends is not read: drop the socket shortly after the answer is out.
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    open.set(bucket, count + 1);
    socket.once('close', () => {
      const left = (open.get(bucket) ?? 1) - 1;
      if (left <= 0) open.delete(bucket);
      else open.set(bucket, left);
    });
  });
  return { isRefused: (socket) => refused.has(socket) };
}
