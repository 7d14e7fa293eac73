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
        aspect: '9:16', format: 'mp4', width: 1080, height: 1920, duration_ms: 6000,
        video_url: `${site}/video/${demoId}.mp4?aspect=9x16`, gif_url: `${site}/gif/${demoId}.gif?aspect=9x16`, thumbnail_url: `${site}/thumb/${demoId}.png?aspect=9x16`,
      },
      {
        aspect: '1:1', format: 'mp4', width: 1080, height: 1080, duration_ms: 6000,
        video_url: `${site}/video/${demoId}.mp4?aspect=1x1`, gif_url: `${site}/gif/${demoId}.gif?aspect=1x1`, thumbnail_url: `${site}/thumb/${demoId}.png?aspect=1x1`,
      },
    ]);
    // Every address listed plays what it names.
    for (const variant of detail.body.variants) {
      for (const url of [variant.video_url, variant.gif_url, variant.thumbnail_url]) assert.equal((await fetch(url.replace('localhost', '127.0.0.1'))).status, 200, url);
    }
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
    const site = app.url.replace('127.0.0.1', 'localhost');
    assert.deepEqual(versions.map((v: { version: number; variants: unknown }) => [v.version, v.variants]), [
      [2, []],
      [1, [{
        aspect: '9:16', format: 'mp4', width: 1080, height: 1920, duration_ms: 6000,
        video_url: `${site}/video/${demoId}.mp4?v=1&aspect=9x16`, gif_url: `${site}/gif/${demoId}.gif?v=1&aspect=9x16`, thumbnail_url: `${site}/thumb/${demoId}.png?v=1&aspect=9x16`,
      }]],
    ]);
  });

  it('never shows where a cut is stored: no storage key in any demo response but the spec\'s own three', async () => {
    const demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { aspect: ['9:16', '1:1'] } } })).body.id;
    await publish(demoId, ['9:16', '1:1']);
    assert.equal((await app.api(`/api/v1/demos/${demoId}/refresh`, { key: user.key, method: 'POST' })).status, 202);
    await publish(demoId, ['9:16']);
    const responses = {
      detail: await app.api(`/api/v1/demos/${demoId}`, { key: user.key }),
      list: await app.api(`/api/v1/demos?project_id=${projectId}`, { key: user.key }),
      update: await app.api(`/api/v1/demos/${demoId}`, { key: user.key, method: 'PATCH', body: { title: 'Cuts' } }),
      versions: await app.api(`/api/v1/demos/${demoId}/versions`, { key: user.key }),
      restore: await app.api(`/api/v1/demos/${demoId}/versions/1/restore`, { key: user.key, method: 'POST' }),
    };
    for (const [name, response] of Object.entries(responses)) {
      assert.equal(response.status, 200, `${name}: ${JSON.stringify(response.body)}`);
      const text = JSON.stringify(response.body);
      assert.ok(text.includes('aspect=9x16'), `${name} lists the cuts`);
      assert.doesNotMatch(text, /-9x16\.|-1x1\./, `${name} names no stored variant file`);
      // The spec's Demo resource has video_key, gif_key and thumbnail_key (the 16:9 video's); nothing else is a key.
      const keys = [...text.matchAll(/"(\w*_key)"/g)].map((match) => match[1]);
      assert.ok(keys.every((key) => ['video_key', 'gif_key', 'thumbnail_key'].includes(key!)), `${name}: ${keys.join(', ')}`);
      const variants = collectVariants(response.body);
      assert.ok(variants.length > 0, `${name} has variants`);
      for (const variant of variants) assert.deepEqual(Object.keys(variant).filter((key) => key.endsWith('_key')), [], `${name}: ${JSON.stringify(variant)}`);
    }
  });

  it('refuses to add a cut to a version whose capture is not kept, unless asked to record it again; a cut-only restyle costs no credit', async () => {
    const demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { aspect: '9:16' } } })).body.id;
    // Published as a version made before captures were kept: no capture_key.
    await publish(demoId, ['9:16']);
    const balance = async () => (await app.api('/api/v1/credits', { key: user.key })).body.balance as number;
    const credits = await balance();
    const restyle = (presentation: object, query = '') => app.api(`/api/v1/demos/${demoId}/restyle${query}`, { key: user.key, body: { presentation } });

    const refused = await restyle({ aspect: ['9:16', '1:1'] });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.error, /made before captures were kept, so a 1:1 cut cannot be made from it without recording again\. Restyle with \?force=true/);
    assert.deepEqual(Object.keys(refused.body), ['error']);
    assert.equal(await balance(), credits, 'nothing charged');
    assert.equal((await app.api(`/api/v1/demos/${demoId}`, { key: user.key })).body.status, 'ready', 'nothing queued');

    // Asked to record again, it is an ordinary restyle, at the demo's price.
    const forced = await restyle({ aspect: ['9:16', '1:1'] }, '?force=true');
    assert.equal(forced.status, 202, JSON.stringify(forced.body));
    assert.equal(await balance(), credits - 1);
    const [job] = await app.sql<{ from_capture: boolean; credits: number }[]>`select from_capture, credits from demo_jobs where id = ${forced.body.jobId}`;
    assert.deepEqual({ ...job }, { from_capture: false, credits: 1 });
    await publish(demoId, ['9:16', '1:1']);

    // A version that keeps its capture: a cut-only restyle is queued to be made from it, at no credit.
    await app.sql`update demos set capture_key = ${`demos/${demoId}/v2/capture/`} where id = ${demoId}`;
    // (The stand-in publisher leaves the demo's presentation as created, `9:16`: the 1:1 cut is the one added.)
    const cut = await restyle({ aspect: ['9:16', '1:1'] });
    assert.equal(cut.status, 202, JSON.stringify(cut.body));
    const [cutJob] = await app.sql<{ from_capture: boolean; credits: number }[]>`select from_capture, credits from demo_jobs where id = ${cut.body.jobId}`;
    assert.deepEqual({ ...cutJob }, { from_capture: true, credits: 0 });
    assert.equal(await balance(), credits - 1, 'the cut cost nothing');
    const transactions = (await app.api('/api/v1/credits', { key: user.key })).body;
    assert.ok(!JSON.stringify(transactions).includes(cut.body.jobId), 'no transaction for the cut');
  });

  it('refuses an aspect that is not one', async () => {
    const refused = await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { aspect: ['4:3'] } } });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(refused.body), /aspect/);
  });
});

/** Every `variants` member's entries anywhere in a response body. */
function collectVariants(value: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap(collectVariants);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, member]) =>
    name === 'variants' && Array.isArray(member) ? (member as Array<Record<string, unknown>>) : collectVariants(member),
  );
}
