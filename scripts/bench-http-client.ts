/**
 * The load generator's HTTP/1.1 client for `npm run bench:api`: keep-alive connections over raw sockets, one request
 * in flight per connection, responses framed by Content-Length (or chunked encoding) and nothing else parsed.
 *
 * Why not node:http: the load generator runs on the same two cores as the app and PostgreSQL, and node:http's
 * agent, request and response objects cost it ~260 µs of CPU per request (measured on the embed scenario), a
 * quarter of the machine's work there. Whatever the load generator burns is taken from the system under test; this
 * client does the same requests for a fraction of it, like wrk or autocannon would, without a dependency.
 */
import net from 'node:net';

export interface HttpResponse {
  status: number;
  body: string;
}

export interface HttpClient {
  post(pathname: string, body: unknown, headers?: Record<string, string>): Promise<HttpResponse>;
  close(): void;
}

const HEADER_END = Buffer.from('\r\n\r\n');

interface Pending {
  resolve: (response: HttpResponse) => void;
  reject: (error: Error) => void;
}

/** One keep-alive connection; `send` may be called again once the previous response has resolved. */
class Connection {
  readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  closed = false;

  constructor(host: string, port: number) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    const fail = (error: Error) => this.fail(error);
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed by the server')));
  }

  send(request: Buffer): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  private fail(error: Error) {
    this.closed = true;
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  private receive(chunk: Buffer) {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const response = parseResponse(this.buffered);
    if (!response) return;
    this.buffered = this.buffered.subarray(response.length);
    if (response.close) {
      this.closed = true;
      this.socket.destroy();
    }
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ status: response.status, body: response.body });
  }
}

/** A whole response at the start of `data`, or null when more bytes are needed. */
function parseResponse(data: Buffer): { status: number; body: string; length: number; close: boolean } | null {
  const headerEnd = data.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = data.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const lower = head.toLowerCase();
  const close = /\r\nconnection: *close/.test(lower);
  const bodyStart = headerEnd + HEADER_END.length;
  const length = /\r\ncontent-length: *(\d+)/.exec(lower);
  if (length) {
    const end = bodyStart + Number(length[1]);
    if (data.length < end) return null;
    return { status, body: data.toString('utf8', bodyStart, end), length: end, close };
  }
  if (/\r\ntransfer-encoding: *chunked/.test(lower)) {
    const parts: Buffer[] = [];
    let at = bodyStart;
    for (;;) {
      const lineEnd = data.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = Number.parseInt(data.toString('latin1', at, lineEnd), 16);
      const chunkEnd = lineEnd + 2 + size + 2;
      if (data.length < chunkEnd) return null;
      if (size === 0) return { status, body: Buffer.concat(parts).toString('utf8'), length: chunkEnd, close };
      parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = chunkEnd;
    }
  }
  // No framing: the body ends when the server closes the connection; not something the API sends.
  throw new Error(`response without Content-Length or chunked encoding: ${head.split('\r\n')[0]}`);
}

/** Up to `sockets` keep-alive connections to `baseUrl`; a request waits for a free one. */
export function httpClient(baseUrl: string, sockets: number): HttpClient {
  const base = new URL(baseUrl);
  const host = base.hostname;
  const port = Number(base.port);
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  const waiting: Array<(connection: Connection) => void> = [];

  const acquire = (): Promise<Connection> => {
    while (idle.length > 0) {
      const connection = idle.pop()!;
      if (!connection.closed) return Promise.resolve(connection);
      all.delete(connection);
    }
    if (all.size < sockets) {
      const connection = new Connection(host, port);
      all.add(connection);
      return Promise.resolve(connection);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (connection: Connection) => {
    if (connection.closed) {
      all.delete(connection);
      connection.socket.destroy();
      // A waiter gets a fresh connection in place of the closed one.
      const next = waiting.shift();
      if (next) void acquire().then(next);
      return;
    }
    const next = waiting.shift();
    if (next) next(connection);
    else idle.push(connection);
  };

  return {
    async post(pathname, body, headers = {}) {
      const payload = Buffer.from(JSON.stringify(body));
      let head = `POST ${pathname} HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      const request = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), payload]);
      const connection = await acquire();
      try {
        return await connection.send(request);
      } finally {
        release(connection);
      }
    },
    close() {
      for (const connection of all) connection.socket.destroy();
      all.clear();
      idle.length = 0;
    },
  };
}
