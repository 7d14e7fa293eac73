import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for someone else's image host, on 127.0.0.1 (the machine has no DNS): `routes` maps a path to a
 * handler. Records every path it was asked for, so a test can tell that a refused URL was never requested.
 */
export interface ImageServer {
  origin: string;
  requested: string[];
  close(): Promise<void>;
}

export async function startImageServer(routes: Record<string, http.RequestListener>): Promise<ImageServer> {
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    requested.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) return route(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
