import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * One client cannot hold the server (issue 34): a body that stops arriving is answered 408 after a bounded quiet
 * time (it used to be held for 5 minutes), a slow but steady body still goes through, and connections from one
 * address are capped: the one over the cap is answered 429 and closed.
 */
describe('what one client can hold of the HTTP server', () => {
  let app: TestApp;
  let port: number;

  before(async () => {
    app = await startTestApp({ SHOWREEL_BODY_IDLE_SECONDS: '1', SHOWREEL_CONNECTIONS_PER_ADDRESS: '4' });
    port = Number(new URL(app.url).port);
  });
  after(() => app.stop());

  /** A raw connection, so that the test controls when each byte is sent; `answer` is all the server wrote until it closed. */
  function connect(): Promise<{ socket: net.Socket; answer: Promise<string> }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      const answer = new Promise<string>((done) => {
        socket.on('data', (chunk) => (text += chunk.toString('utf8')));
        socket.on('close', () => done(text));
        socket.on('error', () => undefined);
      });
      socket.once('connect', () => resolve({ socket, answer }));
      socket.once('error', reject);
    });
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const head = (length: number) =>
    `POST /api/v1/auth/sign-in HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

  it('answers 408 {error} to a body that stops arriving, within seconds', async () => {
    const { socket, answer } = await connect();
    const started = Date.now();
    socket.write(`${head(200)}{"email":"a@example.com",`);
    const text = await Promise.race([answer, sleep(8_000).then(() => 'still open after 8 s')]);
    socket.destroy();
    assert.match(text, /^HTTP\/1\.1 408 /, text);
    assert.match(text, /\{"error":"The request body stopped arriving \(nothing for 1 s\); send it again\."\}/);
    assert.ok(Date.now() - started < 5_000);
  });

  it('lets a slow but steady body through: the limit is on silence, not on total time', async () => {
    const { socket, answer } = await connect();
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' });
    socket.write(head(Buffer.byteLength(body)));
    // Pieces 700 ms apart: about 3 s in all, well past the quiet time allowed, never quiet for a whole second.
    const pieces = body.match(/.{1,15}/g)!;
    for (const piece of pieces) {
      await sleep(700);
      socket.write(piece);
    }
    const text = await answer;
    assert.match(text, /^HTTP\/1\.1 401 /, 'the request was served (a wrong password), not cut off');
  });

  it('caps open connections per client address: the one over the cap is answered 429 with Retry-After', async () => {
    const held = await Promise.all([connect(), connect(), connect(), connect()]);
    await sleep(100);
    const over = await connect();
    over.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const text = await Promise.race([over.answer, sleep(5_000).then(() => 'no answer')]);
    assert.match(text, /^HTTP\/1\.1 429 /, text);
    assert.match(text, /\r\nRetry-After: 1\r\n/);
    assert.match(text, /\{"error":"Too many connections from your address \(at most 4 at once\); close some and try again\."\}/);

    // One closes: there is room again.
    held[0]!.socket.destroy();
    await sleep(200);
    const again = await connect();
    again.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.match(await again.answer, /^HTTP\/1\.1 200 /);
    for (const { socket } of held) socket.destroy();
  });
});
