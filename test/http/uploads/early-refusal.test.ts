import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';

interface Outcome {
  status: number | null;
  body: string;
  /** the socket error the client saw, if any (EPIPE, ECONNRESET) */
  error: string | null;
  /** whether the client sent its whole body */
  sentAll: boolean;
  /** whether the server closed the connection before the client, once it had its answer and had sent all */
  closedByServer: boolean;
}

/**
 * A client that streams `total` bytes in 256 KB chunks and keeps sending while the answer comes, as curl does,
 * on a plain TCP socket so that nothing but the server decides when the connection ends. Once it has sent all and
 * has the whole answer it closes the connection itself (a keep-alive connection is the client's to close).
 */
function upload(url: string, path: string, headers: Record<string, string>, total: number, chunked = false): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const outcome: Outcome = { status: null, body: '', error: null, sentAll: false, closedByServer: false };
    const socket = net.connect(Number(port), hostname);
    let response = '';
    let closing = false;
    const answered = () => {
      const end = response.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(response.slice(0, end))?.[1] ?? Number.NaN);
      return end >= 0 && response.length >= end + 4 + length;
    };
    const closeWhenDone = () => {
      if (closing || !outcome.sentAll || !answered()) return;
      closing = true;
      socket.end();
    };
    socket.on('data', (data: Buffer) => {
      response += data.toString('latin1');
      closeWhenDone();
    });
    socket.on('end', () => (outcome.closedByServer = !closing));
    socket.on('error', (error: NodeJS.ErrnoException) => (outcome.error = error.code ?? error.message));
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(response);
      outcome.status = match ? Number(match[1]) : null;
      outcome.body = response.slice(response.indexOf('\r\n\r\n') + 4);
      resolve(outcome);
    });
    const head = Object.entries({ host: `${hostname}:${port}`, 'content-type': 'multipart/form-data; boundary=x', ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    let sent = 0;
    const write = () => {
      while (sent < total) {
        if (socket.destroyed) return;
        sent += chunk.length;
        if (chunked) socket.write(`${chunk.length.toString(16)}\r\n`);
        const more = socket.write(chunk);
        if (chunked) socket.write('\r\n');
        if (!more) return void socket.once('drain', write);
      }
      if (chunked) socket.write('0\r\n\r\n');
      outcome.sentAll = true;
      closeWhenDone();
    };
    write();
  });
}

describe('an upload refused before its body is read', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser();
  });
  after(() => app.stop());

  it('answers 401 {error} to a client still sending 8 MB without credentials, and leaves it the connection once it is done', async () => {
    const outcome = await upload(app.url, '/api/v1/backgrounds/upload', { 'content-length': String(8 * 1024 * 1024) }, 8 * 1024 * 1024);
    assert.equal(outcome.error, null, `the client saw ${outcome.error} instead of an answer`);
    assert.equal(outcome.status, 401);
    assert.equal(typeof JSON.parse(outcome.body).error, 'string');
    assert.equal(outcome.sentAll, true, 'the client could send its whole body');
    // The answer did not say `Connection: close`: the connection stays for the client's next request (issue 58).
    assert.equal(outcome.closedByServer, false, 'the server closed a connection it had answered as keep-alive');
  });

  it('answers 413, 411 and 403 as readably', async () => {
    const big = await upload(app.url, '/api/v1/backgrounds/upload', { authorization: `Bearer ${user.key}`, 'content-length': String(12 * 1024 * 1024) }, 12 * 1024 * 1024);
    assert.equal(big.error, null, `413: the client saw ${big.error}`);
    assert.equal(big.status, 413);
    const chunked = await upload(
      app.url,
      '/api/v1/demos/local-upload?project_id=x&prompt=x',
      { authorization: `Bearer ${user.key}`, 'content-type': 'video/mp4', 'transfer-encoding': 'chunked' },
      4 * 1024 * 1024,
      true,
    );
    assert.equal(chunked.error, null, `411: the client saw ${chunked.error}`);
    assert.equal(chunked.status, 411);
    const publishableKey = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable' } })).body.key as string;
    const publishable = await upload(app.url, '/api/v1/backgrounds/upload', { 'x-api-key': publishableKey, 'content-length': String(4 * 1024 * 1024) }, 4 * 1024 * 1024);
    assert.equal(publishable.error, null, `403: the client saw ${publishable.error}`);
    assert.equal(publishable.status, 403);
    for (const outcome of [big, chunked, publishable]) assert.equal(typeof JSON.parse(outcome.body).error, 'string');
  });
});
