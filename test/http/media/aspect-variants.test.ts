import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { publishVariantVersion } from '../../helpers/variant-demo.js';

/**
 * Issue 59: a demo's aspect variants as a visitor and an API client reach them: each at the demo's own media URLs with
 * `?aspect=9x16` (or `1x1`), for the version shown or a kept one (`?v=N`), and listed with those URLs in its detail.
 */
describe('aspect variants over HTTP', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 20 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Aspects', url: 'https://aspects.example/' } })).body.id;
  });
  after(() => app.stop());

  const publish = (demoId: string, aspects: Array<'9:16' | '1:1'>) => publishVariantVersion(app, demoId, aspects);
  const get = async (url: string) => {
    const response = await fetch(`${app.url}${url}`);
    return { status: response.status, text: await response.text() };
  };

  it('serves each variant\'s video, GIF and thumbnail at the demo\'s own URLs with ?aspect=, and lists them in the detail', async () => {
    const demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { aspect: ['16:9', '9:16', '1:1'] } } })).body.id;
    await publish(demoId, ['9:16', '1:1']);
    assert.deepEqual(await get(`/video/${demoId}.mp4?aspect=9x16`), { status: 200, text: 'v1 video-9x16.mp4' });
    assert.deepEqual(await get(`/gif/${demoId}.gif?aspect=1x1`), { status: 200, text: 'v1 gif-1x1.gif' });
    assert.deepEqual(await get(`/thumb/${demoId}.png?aspect=9x16`), { status: 200, text: 'v1 thumbnail-9x16.png' });
    assert.deepEqual(await get(`/video/${demoId}.mp4?aspect=16x9`), { status: 200, text: 'v1 video.mp4' }, '16:9 is the video itself');
    assert.deepEqual(await get(`/video/${demoId}.mp4`), { status: 200, text: 'v1 video.mp4' });
    const unknown = await get(`/video/${demoId}.mp4?aspect=4x3`);
    assert.equal(unknown.status, 404);
    assert.match(JSON.parse(unknown.text).error, /no 4:3 variant/);

    const detail = await app.api(`/api/v1/demos/${demoId}`, { key: user.key });
    // The service's public address (PUBLIC_URL), which the test app names by host name.
    const site = app.url.replace('127.0.0.1', 'localhost');
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body.variants, [
      {
        aspect: '9:16', video_key: `demos/${demoId}/v1/video-9x16.mp4`, gif_key: `demos/${demoId}/v1/gif-9x16.gif`, thumbnail_key: `demos/${demoId}/v1/thumbnail-9x16.png`,
        video_url: `${site}/video/${demoId}.mp4?aspect=9x16`, gif_url: `${site}/gif/${demoId}.gif?aspect=9x16`, thumbnail_url: `${site}/thumb/${demoId}.png?aspect=9x16`,
      },
      {
        aspect: '1:1', video_key: `demos/${demoId}/v1/video-1x1.mp4`, gif_key: `demos/${demoId}/v1/gif-1x1.gif`, thumbnail_key: `demos/${demoId}/v1/thumbnail-1x1.png`,
        video_url: `${site}/video/${demoId}.mp4?aspect=1x1`, gif_url: `${site}/gif/${demoId}.gif?aspect=1x1`, thumbnail_url: `${site}/thumb/${demoId}.png?aspect=1x1`,
      },
    ]);
    assert.deepEqual(JSON.parse(detail.body.presentation).aspect, ['16:9', '9:16', '1:1']);
    const list = await app.api(`/api/v1/demos?project_id=${projectId}`, { key: user.key });
    assert.deepEqual(list.body.demos.find((d: { id: string }) => d.id === demoId).variants.map((v: { aspect: string }) => v.aspect), ['9:16', '1:1']);
  });

  it('serves a kept version\'s variants with ?v=N, and the version shown has only its own', async () => {
    const demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { aspect: '9:16' } } })).body.id;
    await publish(demoId, ['9:16']);
    const refresh = await app.api(`/api/v1/demos/${demoId}/refresh`, { key: user.key, method: 'POST' });
    assert.equal(refresh.status, 202, JSON.stringify(refresh.body));
    await publish(demoId, []);
    assert.equal((await get(`/video/${demoId}.mp4?aspect=9x16`)).status, 404, 'version 2 was made without a variant');
    assert.deepEqual(await get(`/video/${demoId}.mp4?v=1&aspect=9x16`), { status: 200, text: 'v1 video-9x16.mp4' });
    assert.deepEqual((await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body.variants, []);
    const { versions } = (await app.api(`/api/v1/demos/${demoId}/versions`, { key: user.key })).body;
    assert.deepEqual(versions.map((v: { version: number; variants: unknown }) => [v.version, v.variants]), [
      [2, []],
      [1, [{ aspect: '9:16', video_url: `${app.url.replace('127.0.0.1', 'localhost')}/video/${demoId}.mp4?v=1&aspect=9x16` }]],
    ]);
  });

  it('refuses an aspect that is not one', async () => {
    const refused = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { aspect: ['4:3'] } } });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(refused.body), /aspect/);
  });
});
