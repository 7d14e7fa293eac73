import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { probeVideo } from '../../../src/pipeline/encode/probe.js';
import { isAnimatedGif, sniffMedia } from '../../../src/platform/media-signatures.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-request.js';
import { makeMediaFixtures, type MediaFixtures } from '../../pipeline/media-fixtures.js';

describe('POST /api/v1/demos/local-upload', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;
  let media: MediaFixtures;
  let mp4: Buffer;

  before(async () => {
    // With the worker: it derives an upload's thumbnail and GIF (issue 34).
    [app, media] = await Promise.all([
      startTestApp({ SHOWREEL_MAX_UPLOAD_BYTES: String(2 * 1024 * 1024), SHOWREEL_RUN_WORKER: 'true', WORKER_CONCURRENCY: '1' }),
      makeMediaFixtures(),
    ]);
    user = await app.createUser();
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Uploads', url: 'https://uploads.example' } })).body.id;
    mp4 = await fs.readFile(media.mp4);
  });
  after(async () => {
    await app.stop();
    await media.cleanup();
  });

  const upload = (body: Buffer | undefined, options: { query?: string; type?: string; key?: string; headerKey?: string; declaredLength?: number; chunked?: boolean } = {}) =>
    rawRequest(app.url, `/api/v1/demos/local-upload?${options.query ?? `project_id=${projectId}&prompt=${encodeURIComponent('Our onboarding, recorded by hand')}&title=Onboarding`}`, {
      body,
      declaredLength: options.declaredLength,
      chunked: options.chunked,
      headers: {
        ...(options.type === '' ? {} : { 'content-type': options.type ?? 'video/mp4' }),
        ...(options.headerKey ? { 'x-api-key': options.headerKey } : { authorization: `Bearer ${options.key ?? user.key}` }),
      },
    });

  /** The body of a public media URL once the worker has made it (404 until then). */
  const derived = async (pathname: string): Promise<Buffer> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await fetch(`${app.url}${pathname}`);
      if (response.status === 200 || Date.now() > deadline) {
        assert.equal(response.status, 200, `${pathname} was derived`);
        return Buffer.from(await response.arrayBuffer());
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const mediaFiles = async () => (await fs.readdir(`${app.dataDir}/media`, { recursive: true }).catch(() => [])).filter((f) => /\.(mp4|webm|png|gif)$/.test(String(f)));

  it('publishes an MP4 as a ready demo; the worker adds its thumbnail and GIF', async () => {
    const response = await upload(mp4);
    assert.equal(response.status, 201, response.body.toString());
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['embedUrl', 'id', 'jobId', 'shareUrl', 'status', 'videoUrl']);
    assert.equal(body.status, 'ready');
    assert.match(body.videoUrl, new RegExp(`/video/${body.id}\\.mp4$`));

    const demo = (await app.api(`/api/v1/demos/${body.id}`, { key: user.key })).body;
    assert.equal(demo.source, 'upload');
    assert.equal(demo.status, 'ready');
    assert.equal(demo.title, 'Onboarding');
    assert.equal(demo.version, 1);
    assert.ok(Math.abs(demo.duration_ms - 2000) < 200, `duration from the probe: ${demo.duration_ms}`);

    const video = await fetch(body.videoUrl.replace(/^https?:\/\/[^/]+/, app.url));
    assert.equal(video.status, 200);
    assert.equal(video.headers.get('content-type'), 'video/mp4');
    assert.deepEqual(Buffer.from(await video.arrayBuffer()), mp4);
    const thumb = await derived(`/thumb/${body.id}.png`);
    assert.equal(sniffMedia(thumb), 'png');
    const gif = await derived(`/gif/${body.id}.gif`);
    assert.ok(isAnimatedGif(gif));
  });

  it('serves the video with HTTP ranges so players can seek', async () => {
    const body = (await upload(mp4)).json();
    const partial = await fetch(`${app.url}/video/${body.id}.mp4`, { headers: { range: 'bytes=0-99' } });
    assert.equal(partial.status, 206);
    assert.equal(partial.headers.get('content-range'), `bytes 0-99/${mp4.length}`);
    assert.equal((await partial.arrayBuffer()).byteLength, 100);
    assert.ok(partial.headers.get('etag'));
  });

  it('serves media under an id written in capitals, as the share page takes it', async () => {
    const body = (await upload(mp4)).json();
    const upper = body.id.toUpperCase();
    assert.equal((await fetch(`${app.url}/share/${upper}`)).status, 200);
    const video = await fetch(`${app.url}/video/${upper}.mp4`);
    assert.equal(video.status, 200);
    assert.deepEqual(Buffer.from(await video.arrayBuffer()), mp4);
    assert.equal(sniffMedia(await derived(`/thumb/${upper}.png`)), 'png');
    assert.equal((await fetch(`${app.url}/video/${upper}.MP4`)).status, 404, 'the format is written as the API gives it');
  });

  it('takes duration_ms from the query when given', async () => {
    const body = (await upload(mp4, { query: `project_id=${projectId}&prompt=x&duration_ms=1234` })).json();
    assert.equal((await app.api(`/api/v1/demos/${body.id}`, { key: user.key })).body.duration_ms, 1234);
  });

  it('refuses WebM on the free plan (403) and takes it on pro', async () => {
    const webm = await fs.readFile(media.webm);
    const refused = await upload(webm, { type: 'video/webm' });
    assert.equal(refused.status, 403);
    assert.match(refused.json().error, /free plan does not allow webm/);
    await app.sql`update users set plan = 'pro' where id = ${user.userId}`;
    try {
      const accepted = await upload(webm, { type: 'video/webm' });
      assert.equal(accepted.status, 201, accepted.body.toString());
      const probed = await probeVideo(media.webm);
      assert.equal(probed.container, 'webm');
    } finally {
      await app.sql`update users set plan = 'free' where id = ${user.userId}`;
    }
  });

  it('answers 411 without Content-Length, 413 over the limit, before reading the body', async () => {
    const chunked = await upload(mp4, { chunked: true });
    assert.equal(chunked.status, 411);
    assert.match(chunked.json().error, /Content-Length is required/);
    const tooLarge = await upload(Buffer.alloc(1024), { declaredLength: 3 * 1024 * 1024 });
    assert.equal(tooLarge.status, 413);
    assert.match(tooLarge.json().error, /limit is 2 MB/);
  });

  it('answers 415 for a wrong content type, garbage bytes, or a file that is not a video', async () => {
    const files: Array<[Buffer, string | undefined, RegExp]> = [
      [mp4, 'application/octet-stream', /video\/mp4 or video\/webm/],
      [mp4, '', /video\/mp4 or video\/webm/],
      [await fs.readFile(media.garbage), 'video/mp4', /not an MP4/],
      [await fs.readFile(media.png), 'video/mp4', /not an MP4/],
      [await fs.readFile(media.audioOnly), 'video/mp4', /./],
      [mp4, 'video/webm', /not a WebM|plan/],
    ];
    for (const [body, type, message] of files) {
      const response = await upload(body, { type });
      assert.ok([415, 403].includes(response.status), `${type}: ${response.status} ${response.body}`);
      assert.match(response.json().error, message);
    }
  });

  it('answers 400 naming the field for bad query parameters, and 404 for a project that is not yours', async () => {
    const cases: Array<[string, RegExp]> = [
      ['prompt=x', /project_id is required/],
      [`project_id=${projectId}`, /prompt is required/],
      [`project_id=${projectId}&prompt=${'p'.repeat(501)}`, /prompt must be at most 500/],
      [`project_id=${projectId}&prompt=x&title=${'t'.repeat(201)}`, /title must be at most 200/],
      [`project_id=${projectId}&prompt=x&duration_ms=3600001`, /duration_ms must be at most 3600000/],
      [`project_id=${projectId}&prompt=x&duration_ms=1.5`, /duration_ms/],
      [`project_id=${projectId}&prompt=x&format=avi`, /format must be one of: mp4, webm/],
    ];
    for (const [query, message] of cases) {
      const response = await upload(mp4, { query });
      assert.equal(response.status, 400, query);
      assert.match(response.json().error, message);
    }
    const stranger = await app.createUser();
    assert.equal((await upload(mp4, { key: stranger.key })).status, 404);
  });

  it('answers 401 without a key and 403 for a publishable key', async () => {
    const anonymous = await rawRequest(app.url, `/api/v1/demos/local-upload?project_id=${projectId}&prompt=x`, { body: mp4, headers: { 'content-type': 'video/mp4' } });
    assert.equal(anonymous.status, 401);
    const publishable = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable' } })).body.key;
    const refused = await upload(mp4, { headerKey: publishable });
    assert.equal(refused.status, 403);
    assert.match(refused.json().error, /Publishable keys cannot upload/);
  });

  it('leaves no file and no event behind when an upload is rejected', async () => {
    // The worker's previews of the uploads above are written by now (they are files too).
    const deadline = Date.now() + 60_000;
    const pending = async () => (await app.sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'demo_upload_derive'`)[0]!.n;
    while ((await pending()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const before = await mediaFiles();
    const eventsBefore = (await app.sql<{ n: number }[]>`select count(*)::int as n from events`)[0]!.n;
    await upload(await fs.readFile(media.garbage));
    await upload(await fs.readFile(media.audioOnly));
    assert.deepEqual(await mediaFiles(), before);
    const eventsAfter = (await app.sql<{ n: number }[]>`select count(*)::int as n from events`)[0]!.n;
    assert.equal(eventsAfter, eventsBefore);
  });
});

describe('POST /api/v1/demos/{id}/local-assets', () => {
  let app: TestApp;
  let user: TestUser;
  let media: MediaFixtures;
  let demoId: string;
  let generatedId: string;

  before(async () => {
    [app, media] = await Promise.all([startTestApp(), makeMediaFixtures()]);
    user = await app.createUser();
    const projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Assets', url: 'https://assets.example' } })).body.id;
    const uploaded = await rawRequest(app.url, `/api/v1/demos/local-upload?project_id=${projectId}&prompt=x`, {
      body: await fs.readFile(media.mp4), headers: { 'content-type': 'video/mp4', authorization: `Bearer ${user.key}` },
    });
    demoId = uploaded.json().id;
    generatedId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'generated' } })).body.id;
  });
  after(async () => {
    await app.stop();
    await media.cleanup();
  });

  const send = (id: string, type: string, body: Buffer, contentType?: string, declaredLength?: number) =>
    rawRequest(app.url, `/api/v1/demos/${id}/local-assets?type=${type}`, {
      body, declaredLength, headers: { authorization: `Bearer ${user.key}`, ...(contentType ? { 'content-type': contentType } : {}) },
    });

  it('replaces the thumbnail with a PNG and the GIF with an animated GIF', async () => {
    const png = await fs.readFile(media.png);
    const thumb = await send(demoId, 'thumbnail', png, 'image/png');
    assert.equal(thumb.status, 201, thumb.body.toString());
    assert.deepEqual(thumb.json(), { id: demoId, type: 'thumbnail', url: `${app.url.replace('127.0.0.1', 'localhost')}/thumb/${demoId}.png` });
    const served = Buffer.from(await (await fetch(`${app.url}/thumb/${demoId}.png`)).arrayBuffer());
    assert.deepEqual(served, png);

    const gif = await fs.readFile(media.animatedGif);
    const replaced = await send(demoId, 'gif', gif, 'image/gif');
    assert.equal(replaced.status, 201);
    assert.deepEqual(Buffer.from(await (await fetch(`${app.url}/gif/${demoId}.gif`)).arrayBuffer()), gif);
  });

  it('keeps one thumbnail file per demo however often it is replaced, one after another or at once', async () => {
    const png = await fs.readFile(media.png);
    for (let i = 0; i < 3; i++) assert.equal((await send(demoId, 'thumbnail', png, 'image/png')).status, 201);
    // At once, too: each replacement removes the file the one before it committed, not the one it first read.
    const together = await Promise.all(Array.from({ length: 8 }, () => send(demoId, 'thumbnail', png, 'image/png')));
    assert.deepEqual(together.map((answer) => answer.status), Array(8).fill(201));
    const files = await fs.readdir(path.join(app.dataDir, 'media', 'demos', demoId), { recursive: true });
    const thumbnails = files.filter((file) => /thumbnail/.test(String(file)) && /\.png$/.test(String(file)));
    assert.equal(thumbnails.length, 1, thumbnails.join(', '));
    assert.deepEqual(Buffer.from(await (await fetch(`${app.url}/thumb/${demoId}.png`)).arrayBuffer()), png);
  });

  it('checks bytes, not names: 415 for a still GIF, a GIF as thumbnail, garbage, a PNG without its picture', async () => {
    assert.equal((await send(demoId, 'gif', await fs.readFile(media.stillGif), 'image/gif')).status, 415);
    assert.equal((await send(demoId, 'thumbnail', await fs.readFile(media.animatedGif), 'image/png')).status, 415);
    assert.equal((await send(demoId, 'thumbnail', await fs.readFile(media.garbage), 'image/png')).status, 415);
    assert.equal((await send(demoId, 'thumbnail', await fs.readFile(media.png), 'text/html')).status, 415);
    const png = await fs.readFile(media.png);
    for (const [story, bytes] of [['the signature alone', png.subarray(0, 8)], ['cut in half', png.subarray(0, png.length >> 1)]] as const) {
      const answer = await send(demoId, 'thumbnail', bytes, 'image/png');
      assert.equal(answer.status, 415, story);
      assert.match(answer.json().error, /PNG/, story);
    }
  });

  it('enforces 5 MB for thumbnails and 25 MB for GIFs (413), Content-Length (411), type (400)', async () => {
    assert.equal((await send(demoId, 'thumbnail', Buffer.alloc(10), 'image/png', 5 * 1024 * 1024 + 1)).status, 413);
    assert.equal((await send(demoId, 'gif', Buffer.alloc(10), 'image/gif', 25 * 1024 * 1024 + 1)).status, 413);
    const chunked = await rawRequest(app.url, `/api/v1/demos/${demoId}/local-assets?type=gif`, { body: Buffer.alloc(10), chunked: true, headers: { authorization: `Bearer ${user.key}` } });
    assert.equal(chunked.status, 411);
    const badType = await send(demoId, 'poster', await fs.readFile(media.png), 'image/png');
    assert.equal(badType.status, 400);
    assert.match(badType.json().error, /type must be one of: thumbnail, gif/);
  });

  it('refuses generated demos (400), unknown demos (404) and publishable keys (403)', async () => {
    const png = await fs.readFile(media.png);
    const generated = await send(generatedId, 'thumbnail', png, 'image/png');
    assert.equal(generated.status, 400);
    assert.match(generated.json().error, /Only uploaded demos/);
    assert.equal((await send('00000000-0000-0000-0000-000000000000', 'thumbnail', png, 'image/png')).status, 404);
    const publishable = (await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable' } })).body.key;
    const refused = await rawRequest(app.url, `/api/v1/demos/${demoId}/local-assets?type=thumbnail`, { body: png, headers: { 'x-api-key': publishable, 'content-type': 'image/png' } });
    assert.equal(refused.status, 403);
  });
});
