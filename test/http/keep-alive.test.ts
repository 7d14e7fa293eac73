import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 58, item 7: under 20 keep-alive connections, 3 of 2,000 beacons and a few demo creates had their connection
 * closed with no answer. A request refused before its body was read (a rate limit's 429, a 401 or 415 on its
 * headers) was answered as keep-alive, and the connection was then closed once the body had arrived: a client that
 * sent its next request on it in that moment, as keep-alive allows, lost it. Now a connection whose answer did not
 * say `Connection: close` stays open for the next request.
 */

interface Answer {
  status: number;
  headers: string;
}

/** A client's keep-alive connection: each request is sent the moment the previous answer has arrived. */
class Connection {
  private readonly socket: net.Socket;
  private received = Buffer.alloc(0);
  private closed = false;
  private wake: () => void = () => {};

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    this.socket.on('error', () => undefined);
  }

  /** The answer to `request`, or null when the connection closed without one. */
  async send(request: string): Promise<Answer | null> {
    this.socket.write(request);
    for (;;) {
      const answer = this.takeAnswer();
      if (answer) return answer;
      if (this.closed) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Whether the server closed it within `ms` of the last answer. */
  async closesWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.closed;
  }

  end(): void {
    this.socket.destroy();
  }

  private takeAnswer(): Answer | null {
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const headers = this.received.subarray(0, end).toString('latin1');
    let bodyEnd = end + 4 + Number(/\r\ncontent-length: *(\d+)/i.exec(headers)?.[1] ?? 0);
    // An empty answer without a length (a 202 or 204 of the beacon route) may come chunked: its last chunk ends it.
    if (/\r\ntransfer-encoding: *chunked/i.test(headers)) {
      const last = this.received.indexOf('0\r\n\r\n', end + 4);
      if (last < 0) return null;
      bodyEnd = last + 5;
    }
    if (this.received.length < bodyEnd) return null;
    this.received = this.received.subarray(bodyEnd);
    return { status: Number(headers.split(' ')[1]), headers };
  }
}

function post(path: string, body: string, headers: Record<string, string> = {}): string {
  const lines = Object.entries({ 'Content-Type': 'application/json', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${lines.join('')}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe('a keep-alive connection after a request refused before its body was read', () => {
  let app: TestApp;
  let port: number;
  before(async () => {
    app = await startTestApp({ SHOWREEL_BEACON_LIMIT_PER_ADDRESS: '2' });
    port = Number(new URL(app.url).port);
  });
  after(() => app.stop());

  // A player's beacon (a browser's user agent: a bot's would be let go with 204).
  const beacon = post('/api/v1/beacon', JSON.stringify({ demo: randomUUID(), view: 'abcdefghijklmnopqrstuv', event: 'play' }), {
    'Content-Type': 'text/plain',
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
  });

  it('answers the next beacon on it after a beacon over its rate limit', async () => {
    const connection = new Connection(port);
    try {
      const statuses: Array<number | null> = [];
      for (let i = 0; i < 5; i++) statuses.push((await connection.send(beacon))?.status ?? null);
      // Two counted, then the limit; every one answered on the one connection.
      assert.deepEqual(statuses, [202, 202, 429, 429, 429]);
      assert.equal(await connection.closesWithin(300), false, 'the server closed a connection it had answered as keep-alive');
    } finally {
      connection.end();
    }
  });

  it('answers a demo create sent on it right after a beacon over its rate limit (one pool of connections carries both)', async () => {
    const user = await app.createUser({ credits: 10 });
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } });
    assert.equal(project.status, 201, project.text);
    const connection = new Connection(port);
    try {
      // Over the limit on this connection (the test before used it up, unless its window has turned since).
      let refused = await connection.send(beacon);
      for (let i = 0; i < 4 && refused?.status === 202; i++) refused = await connection.send(beacon);
      assert.equal(refused?.status, 429, 'the address has used its beacons');
      assert.doesNotMatch(refused.headers, /connection: close/i);
      const create = post('/api/v1/demos', JSON.stringify({ project_id: project.body.id, prompt: 'Show the pricing' }), { Authorization: `Bearer ${user.key}` });
      const created = await connection.send(create);
      assert.equal(created?.status, 202, 'the demo create sent after the 429 on the same connection had no answer');
    } finally {
      connection.end();
    }
  });

  it('answers the next request after an upload refused on its headers, once the refused body has arrived', async () => {
    const connection = new Connection(port);
    try {
      // The body follows the answer, as it does from a client that does not wait for 100-continue.
      const head = 'POST /api/v1/demos/local-upload?project_id=p&prompt=x HTTP/1.1\r\nHost: localhost\r\nContent-Type: video/mp4\r\nContent-Length: 65536\r\n\r\n';
      const refused = await connection.send(head);
      assert.equal(refused?.status, 401);
      const rest = Buffer.alloc(65536).toString('latin1');
      const next = await connection.send(`${rest}GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      assert.equal(next?.status, 200);
    } finally {
      connection.end();
    }
  });
});
