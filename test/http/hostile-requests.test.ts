/**
 * Whatever the request line, headers or path, a client gets a 4xx with `{error}`, never a 500 (issue 15, finding 5):
 * requests are written byte for byte on a socket, as a scanner would send them.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Sends `head` (request line and headers, without the blank line) and `body`; resolves with the parsed status. */
function send(app: TestApp, head: string, body = ''): Promise<RawAnswer> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${head.split('\r\n')[0]}`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [responseHead = '', ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(responseHead)?.[1] ?? 0), head: responseHead, body: rest.join('\r\n\r\n') });
    });
    const length = body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
    // write, not end: a half-closed socket makes the server drop answers it has not sent yet. `Connection: close`
    // makes it close once it has answered.
    socket.write(Buffer.from(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${length}\r\n${body}`, 'latin1'));
  });
}

describe('hostile requests', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser();
  });
  after(() => app?.stop());

  const bad = '%E0%A4%A'; // a truncated UTF-8 sequence: decodeURIComponent throws on it

  it('answers paths with bad percent-encoding with 400 {error}, with or without a key', async () => {
    const paths = [
      `POST /api/v1/demos/${bad}/local-assets?type=thumbnail`,
      `GET /api/v1/demos/${bad}/local-assets`,
      `GET /api/v1/demos/${bad}`,
      `POST /api/v1/demos/${bad}/refresh`,
      `GET /api/v1/projects/${bad}`,
      `PATCH /api/v1/projects/${bad}`,
      `GET /share/${bad}`,
      `GET /embed/${bad}`,
      `GET /video/${bad}.mp4`,
      `GET /background/${bad}.png`,
      `GET /background/catalog/${bad}.jpg`,
      `GET /trpc/admin.${bad}`,
      `GET /${bad}`,
    ];
    for (const line of paths) {
      for (const auth of ['', `\r\nAuthorization: Bearer ${user.key}`]) {
        const answer = await send(app, `${line} HTTP/1.1${auth}`, line.startsWith('POST') || line.startsWith('PATCH') ? '{}' : '');
        assert.equal(answer.status, 400, `${line}${auth ? ' (with key)' : ''} → ${answer.status} ${answer.body}`);
        assert.equal(typeof JSON.parse(answer.body).error, 'string');
      }
    }
  });

  it('answers a NUL anywhere in the URL with 400 {error}, on every kind of route', async () => {
    // PostgreSQL cannot store NUL: before this check, ids and query fields carrying one reached it and came back 500.
    const lines = [
      'GET /api/v1/embed/runtime?project_id=%00&expires=1&signature=x',
      'GET /embed/%00/status',
      'GET /share/%00',
      'GET /thumb/%00.png',
      'POST /api/v1/demos/local-upload?project_id=p&prompt=up&title=%00',
      'POST /api/v1/demos/%00/local-assets?type=thumbnail',
      'GET /api/v1/projects/%00',
      'GET /api/v1/demos?project_id=%00',
      'GET /app/projects/%00',
      'POST /app/demos/%00/delete',
      'GET /trpc/admin.readAll?input=%00',
    ];
    for (const line of lines) {
      const answer = await send(app, `${line} HTTP/1.1\r\nAuthorization: Bearer ${user.key}`, line.startsWith('POST') ? 'x' : '');
      assert.equal(answer.status, 400, `${line} → ${answer.status} ${answer.body}`);
      assert.match(JSON.parse(answer.body).error, /NUL/);
    }
    const upgrade = await send(
      app,
      `GET /api/v1/demos/%00/ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer ${user.key}`,
    );
    assert.equal(upgrade.status, 400, upgrade.head);
    assert.match(JSON.parse(upgrade.body).error, /NUL/);
  });

  it('answers HEAD wherever GET is answered: the same status and headers, no body', async () => {
    for (const path of ['/api/v1/projects', '/api/v1/credits', '/api/v1/demos?limit=1', '/api/v1/projects/no-such-project']) {
      const get = await send(app, `GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${user.key}`);
      const head = await send(app, `HEAD ${path} HTTP/1.1\r\nAuthorization: Bearer ${user.key}`);
      assert.equal(head.status, get.status, path);
      assert.equal(head.body, '', path);
      assert.equal(/content-length: (\d+)/i.exec(head.head)?.[1], String(Buffer.byteLength(get.body, 'latin1')), path);
    }
    const refused = await send(app, `PUT /api/v1/projects HTTP/1.1\r\nAuthorization: Bearer ${user.key}`, '{}');
    assert.equal(refused.status, 405);
    assert.match(refused.head, /allow: GET, POST, HEAD/i);
  });

  it('never answers 500 to odd request lines, queries and headers', async () => {
    const requests: Array<[string, string?]> = [
      [`GET /api/v1/projects?limit=${bad} HTTP/1.1\r\nAuthorization: Bearer ${user.key}`],
      [`GET /api/v1/demos?project_id=${bad} HTTP/1.1\r\nAuthorization: Bearer ${user.key}`],
      [`GET /oembed?url=${bad} HTTP/1.1`],
      [`GET /trpc/admin.readAll?input=${bad} HTTP/1.1\r\nAuthorization: Bearer ${user.key}`],
      ['GET http://127.0.0.1:99999/api/v1/projects HTTP/1.1'],
      ['GET http://[::1/api/v1/projects HTTP/1.1'],
      ['OPTIONS * HTTP/1.1'],
      ['GET //api/v1//projects HTTP/1.1'],
      [`GET /api/v1/projects HTTP/1.1\r\nCookie: showreel.session_token=${bad}`],
      [`GET /api/v1/projects HTTP/1.1\r\nAuthorization: Bearer ${bad}`],
      ['GET /api/v1/projects HTTP/1.1\r\nX-API-Key: sr_live_\u00ff\u00fe'],
      ['GET /api/v1/projects HTTP/1.1\r\nAuthorization: Bearer sr_pub_x'],
      [`POST /api/v1/backgrounds/upload HTTP/1.1\r\nAuthorization: Bearer ${user.key}\r\nContent-Type: multipart/form-data`, 'x'],
      [`POST /api/v1/backgrounds/upload HTTP/1.1\r\nAuthorization: Bearer ${user.key}\r\nContent-Type: multipart/form-data; boundary=`, 'x'],
      [`POST /api/v1/projects HTTP/1.1\r\nAuthorization: Bearer ${user.key}\r\nContent-Type: application/json; charset=klingon`, '{}'],
      ['GET /background/catalog/aurora.jpg HTTP/1.1\r\nRange: bytes=99999999999999999999999-'],
      ['GET /background/catalog/aurora.jpg HTTP/1.1\r\nRange: bytes=abc'],
      ['GET /background/catalog/aurora.jpg HTTP/1.1\r\nIf-Modified-Since: yesterday'],
      ['GET /healthz HTTP/1.1\r\nX-Request-Id: \u00ff\u00ff'],
      // Query parameters named like Object.prototype's members (trpc-to-openapi's query object made these a 500).
      [`GET /api/v1/credits/transactions?constructor=1 HTTP/1.1\r\nAuthorization: Bearer ${user.key}`],
      [`GET /api/v1/credits/transactions?__proto__=1&toString=x HTTP/1.1\r\nAuthorization: Bearer ${user.key}`],
      [`GET /api/v1/demos/${bad}/ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer ${user.key}`],
    ];
    for (const [head, body] of requests) {
      const answer = await send(app, head, body);
      assert.ok(answer.status >= 200 && answer.status < 500, `${head.split('\r\n').join(' | ')} → ${answer.status} ${answer.body}`);
    }
  });

  it("answers what Node's HTTP parser refuses with its 4xx and an {error} body", async () => {
    const refused: Array<[string, number]> = [
      ['GET /a b c HTTP/1.1', 400],
      ['GET /api/v1/projects HTTP/1.1\r\nX-Bad\u0001Header: 1', 400],
      ['GET /api/v1/projects HTTP/1.1\r\nContent-Length: -1', 400],
      ['GET /api/v1/projects HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked', 400],
      ['BREW /coffee HTCPCP/1.0', 400],
      [`GET /api/v1/projects HTTP/1.1\r\nX-Filler: ${'x'.repeat(20_000)}`, 431],
    ];
    for (const [head, status] of refused) {
      const answer = await send(app, head);
      assert.equal(answer.status, status, `${head.slice(0, 80)} → ${answer.status} ${answer.body}`);
      assert.equal(typeof JSON.parse(answer.body).error, 'string', answer.body);
    }
  });
});
