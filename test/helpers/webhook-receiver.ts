import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A customer's webhook endpoint on 127.0.0.1: records every call, and answers each path with the statuses queued
 * for it (then 200), so a test can make a receiver fail before it recovers.
 */
export interface WebhookReceiver {
  url(path: string): string;
  calls: ReceivedCall[];
  /** answers the next calls to `path` with these statuses (and `body`), in order */
  failNext(path: string, statuses: number[], body?: string): void;
  /** resolves with the `count`-th call to `path` (1-based), waiting up to `timeoutMs` */
  waitForCall(path: string, count?: number, timeoutMs?: number): Promise<ReceivedCall>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const planned = new Map<string, { statuses: number[]; body: string }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      calls.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const plan = planned.get(path);
      const status = plan?.statuses.shift();
      if (status !== undefined) {
        res.writeHead(status, { 'content-type': 'text/plain' }).end(plan!.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    calls,
    failNext(path, statuses, body = 'Internal Server Error') {
      planned.set(path, { statuses: [...statuses], body });
    },
    async waitForCall(path, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = calls.filter((c) => c.path === path);
        if (matching.length >= count) return matching[count - 1]!;
        if (Date.now() > deadline) throw new Error(`the receiver got ${matching.length} calls to ${path}, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
