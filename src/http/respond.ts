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
 * 411, 413, 415), so that a client still sending reads the answer. Closing at once (`Connection: close`) would
 * reset a socket with unread bytes in it, and the client would see EPIPE or ECONNRESET instead of the `{error}`.
 * So the answer goes out, the rest of the body is read and discarded, and the connection is closed once the client
 * is done, or cut when it sends more than DRAIN_LIMIT_BYTES or takes longer than DRAIN_LIMIT_MS.
 */
export function sendErrorBeforeBody(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const socket = req.socket;
  sendJson(res, status, body, headers);
  if (req.destroyed) return;
  let drained = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, DRAIN_LIMIT_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) cut();
  });
  req.once('end', () => {
    clearTimeout(timer);
    socket.end();
  });
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
