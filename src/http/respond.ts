import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: message }, headers);
}

/** What a refused request may still send before its connection is cut: enough for any upload we accept, and more. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 15_000;

/**
 * Answers a request whose body has not been (wholly) read, typically an upload refused on its headers (401, 403,
 * 411, 413, 415) or a request over a rate limit (429), so that a client still sending reads the answer. Closing at
 * once (`Connection: close`) would reset a socket with unread bytes in it, and the client would see EPIPE or
 * ECONNRESET instead of the `{error}`. So the answer goes out, the rest of the body is read and discarded, and the
 * connection is cut only when the client sends more than DRAIN_LIMIT_BYTES or takes longer than DRAIN_LIMIT_MS.
 *
 * A body read to its end leaves the connection as the answer said it would be: open (keep-alive), for the client's
 * next request. It used to be closed there, after an answer that did not say `Connection: close`: a keep-alive
 * client (undici, 20 connections) that sent its next request on it in the moment before the close arrived lost that
 * request, with no answer (issue 58, item 7: 3 of 2,000 beacons over their rate limit, a few demo creates over theirs).
 */
export function sendErrorBeforeBody(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const socket = req.socket;
  sendJson(res, status, body, headers);
  if (req.destroyed || req.complete) return;
  let drained = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, DRAIN_LIMIT_MS);
  timer.unref();
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) cut();
  };
  req.on('data', onData);
  const stop = () => {
    clearTimeout(timer);
    req.off('data', onData);
  };
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
}
