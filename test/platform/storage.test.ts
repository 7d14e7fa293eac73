import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import {
  contentTypeForKey,
  createLocalStorage,
  createS3Storage,
  createStorage,
  demoPrefix,
  InvalidStorageKeyError,
  mediaKey,
  SizeMismatchError,
  type Storage,
} from '../../src/platform/storage/index.js';

const DEMO = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

async function readAll(stream: Readable | null): Promise<Buffer> {
  assert.ok(stream, 'expected an object');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A source that yields some bytes and then fails, like an upload whose client disconnects. */
function failingSource(): Readable {
  return new Readable({
    read() {
      this.push(Buffer.alloc(64 * 1024, 1));
      this.destroy(new Error('client went away'));
    },
  });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** The behaviour both adapters promise; run against local disk and against a fake S3. */
interface Harness {
  storage: Storage;
  /** every stored object or file, to prove nothing partial is left */
  files: () => Promise<string[]>;
  stop: () => Promise<void>;
}

function storageContract(name: string, make: () => Promise<Harness>) {
  describe(`${name} storage`, () => {
    let storage: Storage;
    let files: Harness['files'];
    let stop: Harness['stop'] | undefined;
    before(async () => ({ storage, files, stop } = await make()));
    after(() => stop?.());

    it('stores, describes, reads and deletes an object', async () => {
      const key = mediaKey(DEMO, 1, 'video', 'mp4');
      const bytes = Buffer.from('0123456789abcdefghij');
      const stored = await storage.put(key, bytes);
      assert.equal(stored.size, 20);
      assert.match(stored.etag, /^"[^"]+"$/, 'the etag is quoted, ready for the header');

      const info = await storage.stat(key);
      assert.deepEqual({ ...info, modifiedAt: undefined }, { size: 20, etag: stored.etag, contentType: 'video/mp4', modifiedAt: undefined });
      assert.ok(info!.modifiedAt instanceof Date && Math.abs(info!.modifiedAt.getTime() - Date.now()) < 60_000);

      assert.deepEqual(await readAll(await storage.read(key)), bytes);
      assert.equal((await readAll(await storage.read(key, { start: 2, end: 5 }))).toString(), '2345', 'ranges are inclusive');
      assert.equal((await readAll(await storage.read(key, { start: 19, end: 19 }))).toString(), 'j');

      await storage.delete(key);
      assert.equal(await storage.stat(key), null);
      assert.equal(await storage.read(key), null);
      await storage.delete(key); // deleting nothing is fine
    });

    it('streams a source of unknown length, and checks a declared one', async () => {
      const key = `tests/${name}/streamed.webm`;
      const chunks = [Buffer.alloc(100_000, 7), Buffer.alloc(50_000, 8)];
      assert.equal((await storage.put(key, Readable.from(chunks))).size, 150_000);
      assert.equal((await storage.put(key, Readable.from(chunks), { size: 150_000 })).size, 150_000);
      assert.deepEqual(await readAll(await storage.read(key)), Buffer.concat(chunks));

      for (const size of [149_999, 150_001]) {
        await assert.rejects(storage.put(`tests/${name}/mismatch.webm`, Readable.from(chunks), { size }), SizeMismatchError);
      }
      assert.equal(await storage.stat(`tests/${name}/mismatch.webm`), null);
    });

    it('gives a new etag when an object is replaced', async () => {
      const key = `tests/${name}/replaced.png`;
      const first = await storage.put(key, Buffer.from('first'));
      const second = await storage.put(key, Buffer.from('second!'));
      assert.notEqual(first.etag, second.etag);
      assert.equal((await storage.stat(key))!.etag, second.etag);
      assert.equal((await storage.stat(key))!.contentType, 'image/png');
    });

    it('leaves nothing behind when the source fails, and keeps the previous object', async () => {
      const before = await files();
      await assert.rejects(storage.put(`tests/${name}/cut.mp4`, failingSource()), /client went away/);
      await assert.rejects(storage.put(`tests/${name}/cut-sized.mp4`, failingSource(), { size: 1_000_000 }), /client went away/);
      assert.equal(await storage.stat(`tests/${name}/cut.mp4`), null);
      assert.equal(await storage.stat(`tests/${name}/cut-sized.mp4`), null);

      const kept = `tests/${name}/kept.gif`;
      await storage.put(kept, Buffer.from('GIF89a old'));
      await assert.rejects(storage.put(kept, failingSource()), /client went away/);
      assert.equal((await readAll(await storage.read(kept))).toString(), 'GIF89a old');
      assert.deepEqual((await files()).sort(), [...before, kept].sort(), 'no temp or partial files remain');
    });

    it('deletes everything under a prefix and nothing beside it', async () => {
      const other = '0a0b0c0d-0000-4000-8000-000000000001';
      for (const version of [1, 2]) {
        await storage.put(mediaKey(DEMO, version, 'video', 'mp4'), Buffer.from('v'));
        await storage.put(mediaKey(DEMO, version, 'thumbnail', 'png'), Buffer.from('t'));
      }
      await storage.put(mediaKey(other, 1, 'gif', 'gif'), Buffer.from('g'));
      await storage.put(`demos/${DEMO}-sibling/x.png`, Buffer.from('s'));

      await storage.deletePrefix(demoPrefix(DEMO));
      assert.equal(await storage.stat(mediaKey(DEMO, 1, 'video', 'mp4')), null);
      assert.equal(await storage.stat(mediaKey(DEMO, 2, 'thumbnail', 'png')), null);
      assert.ok(await storage.stat(mediaKey(other, 1, 'gif', 'gif')));
      assert.ok(await storage.stat(`demos/${DEMO}-sibling/x.png`), 'a prefix is a folder, not a string prefix');
      await storage.deletePrefix(demoPrefix(DEMO)); // already empty
    });

    it('refuses keys that could escape the root or name a temp file', async () => {
      const hostile = [
        '', '../etc/passwd', 'a/../../b', 'demos/..', '/etc/passwd', 'a//b', 'a/', '.hidden', 'a/.b', 'a/./b',
        'A.mp4', 'a\\b', 'a b', 'a%2e%2e/b', 'a\u0000b', 'é.png', 'x'.repeat(600),
      ];
      for (const key of hostile) {
        await assert.rejects(storage.put(key, Buffer.from('x')), InvalidStorageKeyError, JSON.stringify(key));
        await assert.rejects(storage.stat(key), InvalidStorageKeyError, JSON.stringify(key));
        await assert.rejects(storage.read(key), InvalidStorageKeyError, JSON.stringify(key));
        await assert.rejects(storage.delete(key), InvalidStorageKeyError, JSON.stringify(key));
      }
      for (const prefix of ['', '/', '../', 'demos/../', 'demos', 'demos//']) {
        await assert.rejects(storage.deletePrefix(prefix), InvalidStorageKeyError, JSON.stringify(prefix));
      }
    });
  });
}

storageContract('local', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-storage-'));
  return { storage: createLocalStorage(root), files: () => listFiles(root), stop: () => fs.rm(root, { recursive: true, force: true }) };
});

storageContract('s3', async () => {
  const fake = await startFakeS3('media');
  const storage = createS3Storage({
    bucket: 'media',
    region: 'us-east-1',
    endpoint: fake.url,
    accessKeyId: 'test',
    secretAccessKey: 'test',
    forcePathStyle: true,
  });
  return { storage, files: async () => [...fake.objects.keys()], stop: fake.stop };
});

describe('local storage on disk', () => {
  it('keeps objects as plain files under the root, written whole', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-storage-'));
    after(() => fs.rm(root, { recursive: true, force: true }));
    const storage = createLocalStorage(root);
    const key = mediaKey(DEMO, 3, 'gif', 'gif');
    await storage.put(key, Buffer.from('GIF89a'));
    assert.equal(await fs.readFile(path.join(root, 'demos', DEMO, 'v3', 'gif.gif'), 'utf8'), 'GIF89a');
    // A folder where an object is expected is "no object", not an error.
    assert.equal(await storage.stat(`demos/${DEMO}`), null);
    assert.equal(await storage.read(`demos/${DEMO}`), null);
  });
});

describe('keys', () => {
  it('builds media keys from a demo id, version and kind', () => {
    assert.equal(mediaKey(DEMO, 4, 'thumbnail', 'png'), `demos/${DEMO}/v4/thumbnail.png`);
    assert.throws(() => mediaKey('../x', 1, 'video', 'mp4'), InvalidStorageKeyError);
    assert.throws(() => mediaKey(DEMO.toUpperCase(), 1, 'video', 'mp4'), InvalidStorageKeyError);
    assert.throws(() => mediaKey(DEMO, 0, 'video', 'mp4'), InvalidStorageKeyError);
    assert.throws(() => mediaKey(DEMO, 1.5, 'video', 'mp4'), InvalidStorageKeyError);
    assert.throws(() => mediaKey(DEMO, 1, 'poster' as 'video', 'mp4'), InvalidStorageKeyError);
    assert.throws(() => mediaKey(DEMO, 1, 'video', 'mp4/../x'), InvalidStorageKeyError);
  });

  it('derives the content type from the extension', () => {
    assert.equal(contentTypeForKey('a/video.mp4'), 'video/mp4');
    assert.equal(contentTypeForKey('a/video.webm'), 'video/webm');
    assert.equal(contentTypeForKey('a/t.png'), 'image/png');
    assert.equal(contentTypeForKey('a/g.gif'), 'image/gif');
    assert.equal(contentTypeForKey('a/b.jpg'), 'image/jpeg');
    assert.equal(contentTypeForKey('a/noext'), 'application/octet-stream');
    assert.equal(contentTypeForKey('a.mp4/noext'), 'application/octet-stream');
  });
});

describe('createStorage', () => {
  it('uses local disk under SHOWREEL_DATA_DIR/media by default', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'showreel-storage-'));
    after(() => fs.rm(dataDir, { recursive: true, force: true }));
    const storage = createStorage(loadConfig({ SHOWREEL_DATA_DIR: dataDir }));
    assert.equal(storage.kind, 'local');
    await storage.put('probe/x.png', Buffer.from('x'));
    assert.ok(await fs.stat(path.join(dataDir, 'media', 'probe', 'x.png')));
  });

  it('selects S3 when configured, and refuses S3 without a bucket in one line', () => {
    assert.equal(createStorage(loadConfig({ SHOWREEL_STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'true' })).kind, 's3');
    assert.throws(
      () => loadConfig({ SHOWREEL_STORAGE: 's3' }),
      (error: unknown) => error instanceof ConfigError && error.problems.length === 1 && /S3_BUCKET/.test(error.problems[0]!),
    );
    assert.throws(() => loadConfig({ SHOWREEL_STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'only-half' }), ConfigError);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// A fake S3 speaking just enough path-style REST for the adapter: PutObject, HeadObject, GetObject (with Range),
// DeleteObject, ListObjectsV2 (two keys a page, to exercise continuation) and DeleteObjects. Signatures are not
// checked. A PUT whose body is cut off stores nothing, as S3 does.

interface FakeObject {
  body: Buffer;
  contentType: string;
  etag: string;
  modified: Date;
}

async function startFakeS3(bucket: string) {
  const objects = new Map<string, FakeObject>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [, bucketName, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    if (bucketName !== bucket) return xml(res, 404, '<Error><Code>NoSuchBucket</Code></Error>');
    let body: Buffer;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
    } catch {
      return; // the client aborted: store nothing
    }
    if (req.headers['content-encoding']?.includes('aws-chunked')) return xml(res, 501, '<Error><Code>NotImplemented</Code></Error>');

    if (req.method === 'PUT' && key) {
      if (body.length !== Number(req.headers['content-length'])) return; // cut off
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      objects.set(key, { body, contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'), etag, modified: new Date() });
      res.writeHead(200, { ETag: etag }).end();
    } else if ((req.method === 'GET' || req.method === 'HEAD') && key) {
      const object = objects.get(key);
      if (!object) return req.method === 'HEAD' ? res.writeHead(404).end() : xml(res, 404, '<Error><Code>NoSuchKey</Code></Error>');
      const headers = { ETag: object.etag, 'Content-Type': object.contentType, 'Last-Modified': object.modified.toUTCString() };
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (range && req.method === 'GET') {
        const [start, end] = [Number(range[1]), Math.min(Number(range[2]), object.body.length - 1)];
        res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${object.body.length}`, 'Content-Length': end - start + 1 });
        return res.end(object.body.subarray(start, end + 1));
      }
      res.writeHead(200, { ...headers, 'Content-Length': object.body.length });
      res.end(req.method === 'HEAD' ? undefined : object.body);
    } else if (req.method === 'DELETE' && key) {
      objects.delete(key);
      res.writeHead(204).end();
    } else if (req.method === 'GET' && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const all = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
      // Like S3, the token marks a position in key order, so deleting listed keys does not shift later pages.
      const after = url.searchParams.get('continuation-token');
      const rest = after === null ? all : all.filter((k) => k > after);
      const page = rest.slice(0, 2);
      const truncated = rest.length > 2;
      xml(res, 200, `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${page.length}</KeyCount>`
        + page.map((k) => `<Contents><Key>${k}</Key><Size>${objects.get(k)!.body.length}</Size></Contents>`).join('')
        + `<IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${page[1]}</NextContinuationToken>` : ''}</ListBucketResult>`);
    } else if (req.method === 'POST' && url.searchParams.has('delete')) {
      const keys = [...body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!);
      for (const k of keys) objects.delete(k);
      xml(res, 200, '<DeleteResult></DeleteResult>');
    } else {
      xml(res, 400, '<Error><Code>NotImplemented</Code></Error>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections(); // the SDK keeps connections alive
    }),
  };
}

function xml(res: http.ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'Content-Type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>${text}`);
}
