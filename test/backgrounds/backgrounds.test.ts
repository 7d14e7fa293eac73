import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { rebuildReadModels } from '../../src/platform/projections.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { rawRequest } from '../helpers/raw-request.js';
import { blob, makeTestImages, type TestImages } from './image-fixtures.js';

const TEN_MB = 10 * 1024 * 1024;

describe('Presentation backgrounds', () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let images: TestImages;

  before(async () => {
    [app, images] = await Promise.all([startTestApp(), makeTestImages()]);
    [alice, bob] = await Promise.all([app.createUser(), app.createUser()]);
  });
  after(() => app.stop());

  /** What a browser form or `curl -F file=@…` sends. */
  const upload = async (file: Blob | null, options: { key?: string | null; filename?: string; field?: string } = {}) => {
    const form = new FormData();
    if (file) form.append(options.field ?? 'file', file, options.filename ?? 'background.png');
    const key = options.key === undefined ? alice.key : options.key;
    const response = await fetch(`${app.url}/api/v1/backgrounds/upload`, {
      method: 'POST',
      body: form,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  /** Our public URLs name PUBLIC_URL (localhost); the test server listens on 127.0.0.1. */
  const local = (url: string) => url.replace(/^http:\/\/localhost:\d+/, app.url);
  const list = async (user: TestUser) => (await app.api('/api/v1/backgrounds', { key: user.key })).body.backgrounds as any[];
  const eventCount = async () => (await app.sql<{ n: number }[]>`select count(*)::int as n from events where type = 'BackgroundUploaded'`)[0]!.n;

  it('takes a PNG, a JPEG and a WebP, and serves each back byte for byte at its public imageUrl', async () => {
    for (const [format, bytes, type] of [['png', images.png, 'image/png'], ['jpeg', images.jpeg, 'image/jpeg'], ['webp', images.webp, 'image/webp']] as const) {
      const response = await upload(blob(bytes, type), { filename: `brand.${format}` });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      const { id, key, imageUrl } = response.body;
      assert.deepEqual(Object.keys(response.body).sort(), ['id', 'imageUrl', 'key']);
      assert.match(id, /^[0-9a-f-]{36}$/);
      assert.match(key, new RegExp(`^backgrounds/${id}\\.(png|jpg|webp)$`));
      assert.match(imageUrl, new RegExp(`^http://localhost:\\d+/background/${id}\\.(png|jpg|webp)$`));

      const served = await fetch(local(imageUrl));
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), type);
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
      assert.match(served.headers.get('cache-control') ?? '', /max-age=31536000/);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
    }
  });

  it('judges the file by its bytes: a JPEG sent as image/png is stored and served as the JPEG it is', async () => {
    const response = await upload(blob(images.jpeg, 'image/png'), { filename: 'looks-like.png' });
    assert.equal(response.status, 201);
    assert.match(response.body.imageUrl, /\.jpg$/);
    assert.equal((await fetch(local(response.body.imageUrl))).headers.get('content-type'), 'image/jpeg');
  });

  it('gives an imageUrl that a demo accepts as presentation.background.imageUrl', async () => {
    const { imageUrl } = (await upload(blob(images.png, 'image/png'))).body;
    const project = (await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Site', url: 'https://site.example' } })).body;
    const demo = await app.api('/api/v1/demos', {
      key: alice.key,
      body: { project_id: project.id, prompt: 'Show the pricing page', presentation: { background: { imageUrl } } },
    });
    assert.equal(demo.status, 202, demo.text);
  });

  it('refuses with 400 {error} a missing file, an empty file, text or a GIF named .png, and a body that is not multipart', async () => {
    const before = await eventCount();
    const cases: Array<[string, Promise<{ status: number; body: any }>, RegExp]> = [
      ['no file field', upload(null), /no "file" field/],
      ['file under another name', upload(blob(images.png), { field: 'image' }), /no "file" field/],
      ['empty file', upload(blob('', 'image/png')), /empty/],
      ['text disguised as image/png', upload(blob('just some text, not an image', 'image/png'), { filename: 'cat.png' }), /not a PNG, JPEG or WebP/],
      ['a GIF', upload(blob(images.gif, 'image/png')), /not a PNG, JPEG or WebP/],
      ['a PNG signature alone', upload(blob(images.png.subarray(0, 8), 'image/png')), /cut short/],
      ['a JPEG cut short', upload(blob(images.jpeg.subarray(0, images.jpeg.length >> 1), 'image/jpeg'), { filename: 'cut.jpg' }), /cut short/],
    ];
    for (const [story, pending, message] of cases) {
      const response = await pending;
      assert.equal(response.status, 400, `${story}: ${JSON.stringify(response.body)}`);
      assert.match(response.body.error, message, story);
    }
    const textField = new FormData();
    textField.append('file', 'https://example.com/bg.png');
    const asText = await fetch(`${app.url}/api/v1/backgrounds/upload`, { method: 'POST', body: textField, headers: { authorization: `Bearer ${alice.key}` } });
    assert.equal(asText.status, 400);
    assert.match(((await asText.json()) as any).error, /must be a file, not text/);

    const raw = await rawRequest(app.url, '/api/v1/backgrounds/upload', { body: images.png, headers: { 'content-type': 'image/png', authorization: `Bearer ${alice.key}` } });
    assert.equal(raw.status, 400);
    assert.match(raw.json().error, /multipart\/form-data/);
    const json = await app.api('/api/v1/backgrounds/upload', { key: alice.key, body: { imageUrl: 'https://example.com/bg.png' } });
    assert.equal(json.status, 400);
    assert.match(json.body.error, /multipart\/form-data/);
    assert.equal(await eventCount(), before, 'a refused upload records nothing');
  });

  it('answers 400 {error} to a form cut off inside a file, whichever field it is in, and goes on serving', async () => {
    const before = await eventCount();
    for (const field of ['file', 'other']) {
      // The closing boundary never comes: the body ends in the middle of the part.
      const body = Buffer.concat([
        Buffer.from(`--zz\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
        images.png.subarray(0, 100),
      ]);
      const response = await rawRequest(app.url, '/api/v1/backgrounds/upload', {
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=zz', authorization: `Bearer ${alice.key}` },
      });
      assert.equal(response.status, 400, `${field}: ${response.body.toString('utf8')}`);
      assert.match(response.json().error, /multipart body is malformed/);
    }
    assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
    assert.equal(await eventCount(), before, 'a refused upload records nothing');
  });

  it('answers 413 {error} for a file over 10 MB, whether the size is declared up front or found while streaming', async () => {
    const declared = await rawRequest(app.url, '/api/v1/backgrounds/upload', {
      body: Buffer.alloc(1024),
      declaredLength: TEN_MB + 1024 * 1024,
      headers: { 'content-type': 'multipart/form-data; boundary=x', authorization: `Bearer ${alice.key}` },
    });
    assert.equal(declared.status, 413);
    assert.match(declared.json().error, /10 MB limit/);

    const streamed = await postChunkedMultipart(app.url, alice.key, Buffer.concat([images.png, Buffer.alloc(TEN_MB + 1 - images.png.length)]));
    assert.equal(streamed.status, 413, streamed.text);
    assert.match(JSON.parse(streamed.text).error, /10 MB limit/);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const response = await upload(blob(Buffer.concat([images.png, Buffer.alloc(TEN_MB - images.png.length)]), 'image/png'));
    assert.equal(response.status, 201, JSON.stringify(response.body));
  });

  it('answers 401 without a credential and 403 for a publishable key', async () => {
    const anonymous = await upload(blob(images.png), { key: null });
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.body.error, /Authentication required/);
    const publishable = (await app.api('/api/v1/api-keys', { key: alice.key, body: { type: 'publishable' } })).body.key;
    const form = new FormData();
    form.append('file', blob(images.png), 'bg.png');
    const refused = await fetch(`${app.url}/api/v1/backgrounds/upload`, { method: 'POST', body: form, headers: { 'x-api-key': publishable } });
    assert.equal(refused.status, 403);
    assert.equal((await app.api('/api/v1/backgrounds')).status, 401);
  });

  it('lists the 12 catalog backgrounds and only your own uploads, newest first', async () => {
    const first = (await upload(blob(images.png), { key: bob.key, filename: 'Brand wall.png' })).body;
    const second = (await upload(blob(images.webp), { key: bob.key, filename: 'night.webp' })).body;
    const bobs = await list(bob);
    const uploads = bobs.filter((entry) => entry.source === 'upload');
    assert.deepEqual(uploads.map((entry) => entry.id), [second.id, first.id]);
    assert.deepEqual(uploads[1], {
      id: first.id, name: 'Brand wall', source: 'upload', kind: 'image', imageUrl: first.imageUrl,
      background: { imageUrl: first.imageUrl }, created_at: uploads[1].created_at,
    });
    assert.ok(!Number.isNaN(Date.parse(uploads[1].created_at)));

    const catalog = bobs.filter((entry) => entry.source === 'catalog');
    assert.equal(catalog.length, 12);
    assert.equal(new Set(catalog.map((entry) => entry.id)).size, 12);
    assert.ok(catalog.some((entry) => entry.id === 'aurora' && entry.kind === 'image' && entry.background.imageUrl === entry.imageUrl));
    const gradient = catalog.find((entry) => entry.kind === 'gradient');
    assert.ok(gradient, 'some catalog entries are plain gradients');
    assert.deepEqual(Object.keys(gradient.background).sort(), ['angle', 'from', 'to']);
    assert.ok(catalog.every((entry) => entry.created_at === null));

    const alices = await list(alice);
    assert.ok(!alices.some((entry) => entry.id === first.id || entry.id === second.id), "Bob's uploads are not in Alice's list");
    assert.equal(alices.filter((entry) => entry.source === 'catalog').length, 12);
  });

  it('serves every catalog imageUrl as a 1920×1080 JPEG of at most 150 KB, all twelve under 1.5 MB', async () => {
    let total = 0;
    for (const entry of (await list(alice)).filter((e) => e.source === 'catalog')) {
      assert.match(entry.imageUrl, new RegExp(`^http://localhost:\\d+/background/catalog/${entry.id}\\.jpg$`));
      const response = await fetch(local(entry.imageUrl));
      assert.equal(response.status, 200, entry.id);
      assert.equal(response.headers.get('content-type'), 'image/jpeg');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.deepEqual(jpegSize(bytes), { width: 1920, height: 1080 }, entry.id);
      assert.ok(bytes.length <= 150 * 1024, `${entry.id} is ${bytes.length} bytes`);
      total += bytes.length;
    }
    assert.ok(total <= 1.5 * 1024 * 1024, `the catalog is ${total} bytes`);
  });

  it('answers 404 for a background that does not exist', async () => {
    for (const path of ['/background/00000000-0000-0000-0000-000000000000.png', '/background/catalog/nope.jpg', '/background/../../etc/passwd']) {
      const response = await app.api(path);
      assert.equal(response.status, 404, path);
      assert.ok(response.body.error, path);
    }
    const { id } = (await upload(blob(images.png))).body;
    assert.equal((await app.api(`/background/${id}.jpg`)).status, 404, 'the extension must match the stored format');
  });

  it('rebuilds the list from the events (npm run replay)', async () => {
    const before = await list(bob);
    await app.sql.begin((tx) => rebuildReadModels(tx));
    assert.deepEqual(await list(bob), before);
  });

  it('documents both operations in /openapi.json', async () => {
    const document = (await app.api('/api/v1/openapi.json')).body;
    const post = document.paths['/api/v1/backgrounds/upload'].post;
    assert.deepEqual(post.requestBody.content['multipart/form-data'].schema.required, ['file']);
    assert.deepEqual(post.responses['201'].content['application/json'].schema.required, ['id', 'key', 'imageUrl']);
    assert.ok(post.responses['400'] && post.responses['401'] && post.responses['413']);
    const get = document.paths['/api/v1/backgrounds'].get;
    assert.ok(get.responses['200'].content['application/json'].schema);
    assert.ok(document.paths['/background/{file}'].get);
  });
});

/**
 * A multipart upload streamed without Content-Length (chunked), so the server can only find the size while
 * reading. Stops sending once the server has answered, as a browser would.
 */
function postChunkedMultipart(baseUrl: string, key: string, file: Buffer): Promise<{ status: number; text: string }> {
  const boundary = 'showreel-test-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, file, tail]);
  const url = new URL('/api/v1/backgrounds/upload', baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      { hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${key}`, 'transfer-encoding': 'chunked' } },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = async () => {
      for (let offset = 0; offset < body.length && !answered; offset += 64 * 1024) {
        if (!request.write(body.subarray(offset, offset + 64 * 1024))) await new Promise((done) => request.once('drain', done));
      }
      if (!answered) request.end();
    };
    void write();
  });
}

/** Width and height from a baseline or progressive JPEG's SOF segment. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return null;
}
