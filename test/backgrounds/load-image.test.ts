import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BackgroundImageError, loadBackgroundImage, type LoadBackgroundImageDeps } from '../../src/backgrounds/index.js';
import { ASSETS_DIR } from '../../src/backgrounds/catalog.js';
import { createLocalStorage } from '../../src/platform/storage/index.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { blob, makeTestImages, type TestImages } from './image-fixtures.js';
import { startImageServer, type ImageServer } from './image-server.js';

// PUBLIC_URL names a host that does not resolve here: our own URLs can only load if they are read directly.
const PUBLIC_URL = 'https://showreel.invalid';

describe('loadBackgroundImage: the bytes behind presentation.background.imageUrl, for the compositor', () => {
  let app: TestApp;
  let user: TestUser;
  let images: TestImages;
  let remote: ImageServer;
  let deps: LoadBackgroundImageDeps;
  let allowPrivate: LoadBackgroundImageDeps;

  before(async () => {
    [app, images] = await Promise.all([startTestApp({ PUBLIC_URL }), makeTestImages()]);
    user = await app.createUser();
    const storage = createLocalStorage(path.join(app.dataDir, 'media'));
    deps = { config: { PUBLIC_URL, SHOWREEL_ALLOW_PRIVATE_URLS: false }, storage, sql: app.sql };
    allowPrivate = { ...deps, config: { PUBLIC_URL, SHOWREEL_ALLOW_PRIVATE_URLS: true } };
    const redirect = (to: string) => (_req: unknown, res: any) => res.writeHead(302, { location: to }).end();
    remote = await startImageServer({
      '/logo.webp': (_req, res) => res.writeHead(200, { 'content-type': 'image/webp' }).end(images.webp),
      // Content-Type lies in both directions: the bytes decide.
      '/photo': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(images.jpeg),
      '/page.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><title>Not an image</title>'),
      '/moved': redirect('/logo.webp'),
      '/r1': redirect('/r2'),
      '/r2': redirect('/r3'),
      '/r3': redirect('/r4'),
      '/r4': redirect('/logo.webp'),
      '/to-file': redirect('file:///etc/passwd'),
      '/huge': (_req, res) => {
        // No Content-Length: the size is only found while streaming. 11 MB of PNG-signed bytes.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(images.png);
        const chunk = Buffer.alloc(1024 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 11 && res.write(chunk)) sent++;
          if (sent < 11) res.once('drain', () => { sent++; pump(); });
          else res.end();
        };
        pump();
      },
      '/huge-declared': (_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50 * 1024 * 1024) }).end(images.png),
    });
  });
  after(async () => {
    await remote.close();
    await app.stop();
  });

  const uploadPng = async () => {
    const form = new FormData();
    form.append('file', blob(images.png, 'image/png'), 'brand.png');
    const response = await fetch(`${app.url}/api/v1/backgrounds/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${user.key}` } });
    assert.equal(response.status, 201);
    return (await response.json()) as { id: string; imageUrl: string };
  };
  const refusal = async (promise: Promise<unknown>, message: RegExp) => {
    await assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof BackgroundImageError, String(error));
      assert.equal(error.status, 400);
      assert.match(error.message, message);
      return true;
    });
  };

  it('reads an uploaded background straight from storage, without the network', async () => {
    const { imageUrl } = await uploadPng();
    assert.ok(imageUrl.startsWith(`${PUBLIC_URL}/background/`));
    const image = await loadBackgroundImage(imageUrl, deps);
    assert.equal(image.type, 'png');
    assert.deepEqual(image.bytes, images.png);
  });

  it('reads a catalog background from the shipped assets', async () => {
    const image = await loadBackgroundImage(`${PUBLIC_URL}/background/catalog/aurora.jpg`, deps);
    assert.equal(image.type, 'jpeg');
    assert.deepEqual(image.bytes, await fs.readFile(path.join(ASSETS_DIR, 'backgrounds', 'aurora.jpg')));
  });

  it('says so when one of our URLs names no background, instead of fetching it', async () => {
    const { id } = await uploadPng();
    await refusal(loadBackgroundImage(`${PUBLIC_URL}/background/00000000-0000-0000-0000-000000000000.png`, deps), /does not exist; pick one from GET \/api\/v1\/backgrounds/);
    await refusal(loadBackgroundImage(`${PUBLIC_URL}/background/${id}.webp`, deps), /does not exist/);
    await refusal(loadBackgroundImage(`${PUBLIC_URL}/background/catalog/nope.jpg`, deps), /does not exist/);
  });

  it('fetches an image from another host, following a redirect, and judges it by its bytes', async () => {
    const webp = await loadBackgroundImage(`${remote.origin}/logo.webp`, allowPrivate);
    assert.equal(webp.type, 'webp');
    assert.deepEqual(webp.bytes, images.webp);
    assert.deepEqual((await loadBackgroundImage(`${remote.origin}/moved`, allowPrivate)).bytes, images.webp);
    assert.equal((await loadBackgroundImage(`${remote.origin}/photo`, allowPrivate)).type, 'jpeg');
    await refusal(loadBackgroundImage(`${remote.origin}/page.png`, allowPrivate), /is not a PNG, JPEG or WebP image/);
  });

  it('refuses a private address unless SHOWREEL_ALLOW_PRIVATE_URLS is on, without sending it a request', async () => {
    const before = remote.requested.length;
    await refusal(loadBackgroundImage(`${remote.origin}/logo.webp`, deps), /could not be fetched: url points at a loopback address \(127\.0\.0\.1\)\. Use a public image URL\./);
    await refusal(loadBackgroundImage('http://169.254.169.254/latest/meta-data/', deps), /link-local address/);
    await refusal(loadBackgroundImage('http://[::1]/x.png', deps), /loopback/);
    assert.equal(remote.requested.length, before);
  });

  it('stops at 10 MB, whether the size is declared or only found while streaming', async () => {
    await refusal(loadBackgroundImage(`${remote.origin}/huge`, allowPrivate), /larger than the 10 MB limit\. Use an image of at most 10 MB\./);
    await refusal(loadBackgroundImage(`${remote.origin}/huge-declared`, allowPrivate), /the file is 50 MB, over the 10 MB limit\. Use an image of at most 10 MB\./);
  });

  it('gives up after 3 redirects, re-checks every hop, and explains HTTP errors', async () => {
    await refusal(loadBackgroundImage(`${remote.origin}/r1`, allowPrivate), /more than 3 redirects/);
    await refusal(loadBackgroundImage(`${remote.origin}/to-file`, allowPrivate), /must use http or https, not file/);
    await refusal(loadBackgroundImage(`${remote.origin}/missing.png`, allowPrivate), /the server answered 404/);
    await refusal(loadBackgroundImage('not a url', allowPrivate), /not a valid absolute URL/);
    await refusal(loadBackgroundImage('ftp://images.example/bg.png', allowPrivate), /must use http or https/);
  });
});
