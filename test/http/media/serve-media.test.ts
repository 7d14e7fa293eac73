import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseRange, serveStoredMedia } from '../../../src/http/media/serve-media.js';
import { createLocalStorage, mediaKey, type Storage } from '../../../src/platform/storage/index.js';
import { makeMediaFixtures, type MediaFixtures } from '../../pipeline/media-fixtures.js';

const DEMO = '7d1c2b3a-4e5f-4a6b-9c8d-0e1f2a3b4c5d';
const VIDEO = mediaKey(DEMO, 1, 'video', 'mp4');
const THUMB = mediaKey(DEMO, 1, 'thumbnail', 'png');
const GIF = mediaKey(DEMO, 1, 'gif', 'gif');
const BIG = 'tests/big.webm';

describe('serving stored media over HTTP', () => {
  let media: MediaFixtures;
  let root: string;
  let storage: Storage;
  let server: http.Server;
  let base: string;
  let video: Buffer;
  let big: Buffer;
  const failures: unknown[] = [];

  before(async () => {
    media = await makeMediaFixtures();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-serve-'));
    storage = createLocalStorage(root);
    video = await fs.readFile(media.mp4);
    big = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(i, i);
    await storage.put(VIDEO, video);
    await storage.put(THUMB, await fs.readFile(media.png));
    await storage.put(GIF, await fs.readFile(media.animatedGif));
    await storage.put(BIG, big);
    await storage.put('tests/empty.png', Buffer.alloc(0));
    // What a route would do: map the URL to a key we built, then hand over.
    server = http.createServer((req, res) => {
      const key = decodeURIComponent((req.url ?? '/').slice('/media/'.length));
      serveStoredMedia(req, res, storage, key, { cacheControl: 'public, max-age=300' }).catch((error: unknown) => {
        failures.push(error);
        res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await fs.rm(root, { recursive: true, force: true });
    await media.cleanup();
  });

  const get = (key: string, headers: Record<string, string> = {}, method = 'GET') => fetch(base + key, { method, headers });

  it('serves a whole file with its type, validators and caching', async () => {
    const response = await get(VIDEO);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'video/mp4');
    assert.equal(response.headers.get('content-length'), String(video.length));
    assert.equal(response.headers.get('accept-ranges'), 'bytes');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
    assert.equal(response.headers.get('etag'), (await storage.stat(VIDEO))!.etag);
    assert.ok(response.headers.get('last-modified'));
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), video);

    assert.equal((await get(THUMB)).headers.get('content-type'), 'image/png');
    assert.equal((await get(GIF)).headers.get('content-type'), 'image/gif');
  });

  it('answers single ranges with 206 and the exact bytes', async () => {
    const size = video.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      ['bytes=10-99999999', 10, size - 1],
      [`bytes=-${size * 2}`, 0, size - 1],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await get(VIDEO, { range });
      assert.equal(response.status, 206, range);
      assert.equal(response.headers.get('content-range'), `bytes ${start}-${end}/${size}`, range);
      assert.equal(response.headers.get('content-length'), String(end - start + 1), range);
      assert.equal(response.headers.get('content-type'), 'video/mp4');
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), video.subarray(start, end + 1), range);
    }
  });

  it('streams a large range from the middle of a large file', async () => {
    const start = 3 * 1024 * 1024 + 3;
    const end = 7 * 1024 * 1024;
    const response = await get(BIG, { range: `bytes=${start}-${end}` });
    assert.equal(response.status, 206);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), big.subarray(start, end + 1));
  });

  it('answers a range outside the file with 416 and the size', async () => {
    for (const range of [`bytes=${video.length}-`, `bytes=${video.length + 10}-${video.length + 20}`, 'bytes=-0']) {
      const response = await get(VIDEO, { range });
      assert.equal(response.status, 416, range);
      assert.equal(response.headers.get('content-range'), `bytes */${video.length}`);
      assert.deepEqual(Object.keys(await response.json()), ['error']);
    }
    assert.equal((await get('tests/empty.png', { range: 'bytes=0-' })).status, 416);
  });

  it('serves the whole file for ranges it does not honour', async () => {
    const etag = (await storage.stat(VIDEO))!.etag;
    const ignored: Record<string, string>[] = [
      { range: 'bytes=0-9,20-29' }, // multipart ranges
      { range: 'bytes=50-10' }, // invalid
      { range: 'items=0-9' },
      { range: 'bytes=abc' },
      { range: 'bytes=0-9', 'if-range': '"stale"' },
    ];
    for (const headers of ignored) {
      const response = await get(VIDEO, headers);
      assert.equal(response.status, 200, JSON.stringify(headers));
      assert.equal((await response.arrayBuffer()).byteLength, video.length);
    }
    assert.equal((await get(VIDEO, { range: 'bytes=0-9', 'if-range': etag })).status, 206);
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const etag = (await storage.stat(THUMB))!.etag;
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await get(THUMB, { 'if-none-match': value });
      assert.equal(response.status, 304, value);
      assert.equal(response.headers.get('etag'), etag);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
      assert.equal(await response.text(), '');
    }
    assert.equal((await get(THUMB, { 'if-none-match': '"other"' })).status, 200);
  });

  it('answers If-Modified-Since with 304 when the file is not newer, and If-None-Match wins over it', async () => {
    const { etag, modifiedAt } = (await storage.stat(THUMB))!;
    const lastModified = modifiedAt.toUTCString();
    const same = await get(THUMB, { 'if-modified-since': lastModified });
    assert.equal(same.status, 304);
    assert.equal(same.headers.get('last-modified'), lastModified);
    assert.equal(await same.text(), '');
    assert.equal((await get(THUMB, { 'if-modified-since': new Date(modifiedAt.getTime() + 3_600_000).toUTCString() })).status, 304);
    // Older than the file, or not a date: the file.
    assert.equal((await get(THUMB, { 'if-modified-since': new Date(modifiedAt.getTime() - 3_600_000).toUTCString() })).status, 200);
    assert.equal((await get(THUMB, { 'if-modified-since': 'yesterday-ish' })).status, 200);
    // An ETag that does not match is the answer, whatever the date says (RFC 9110 §13.1.3).
    assert.equal((await get(THUMB, { 'if-none-match': '"other"', 'if-modified-since': lastModified })).status, 200);
    assert.equal((await get(THUMB, { 'if-none-match': etag, 'if-modified-since': new Date(0).toUTCString() })).status, 304);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(VIDEO, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(video.length));
    assert.equal(head.headers.get('content-type'), 'video/mp4');
    assert.equal(await head.text(), '');
    const ranged = await get(VIDEO, { range: 'bytes=0-9' }, 'HEAD');
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get('content-range'), `bytes 0-9/${video.length}`);
  });

  it('serves an empty file', async () => {
    const response = await get('tests/empty.png');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-length'), '0');
  });

  it('answers missing media with 404 and other methods with 405, as {"error"}', async () => {
    const missing = await get(mediaKey(DEMO, 9, 'video', 'mp4'));
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(Object.keys(await missing.json()), ['error']);
    const post = await get(VIDEO, {}, 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    assert.deepEqual(Object.keys(await post.json()), ['error']);
  });

  it('survives a viewer who disconnects mid-file', async () => {
    const controller = new AbortController();
    const response = await fetch(base + BIG, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    assert.equal((await get(THUMB)).status, 200, 'the server still answers');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(failures, [], 'a viewer leaving is not a fault to log');
  });
});

describe('parseRange', () => {
  it('follows RFC 9110 for one range', () => {
    assert.deepEqual(parseRange('bytes=0-0', 10), { start: 0, end: 0 });
    assert.deepEqual(parseRange('bytes=5-', 10), { start: 5, end: 9 });
    assert.deepEqual(parseRange('bytes=-3', 10), { start: 7, end: 9 });
    assert.deepEqual(parseRange('bytes=2-100', 10), { start: 2, end: 9 });
    assert.equal(parseRange('bytes=10-', 10), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 10), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-', 0), 'unsatisfiable');
    assert.equal(parseRange(undefined, 10), null);
    assert.equal(parseRange('bytes=-', 10), null);
    assert.equal(parseRange('bytes=3-1', 10), null);
    assert.equal(parseRange('bytes=0-1,3-4', 10), null);
  });
});
