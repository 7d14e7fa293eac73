import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { publishVariantVersion } from '../../helpers/variant-demo.js';

/**
 * Issue 59 on the public pages: the share page offers the demo's vertical and square cuts (a link to each, the one
 * shown marked, a download of it) and plays the one its `?aspect=` names at its own shape; the embed player plays the
 * cut its `aspect` prop names. A cut the demo does not have falls back to the 16:9 video, never a broken page.
 */
describe('aspect variants on the share page and in the embed', () => {
  let app: TestApp;
  let user: TestUser;
  let demoId: string;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser({ credits: 20 });
    const projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Aspects', url: 'https://aspects.example/' } })).body.id;
    demoId = (await app.api('/api/v1/demos', { key: user.key, body: { project_id: projectId, prompt: 'Tour', presentation: { aspect: ['9:16', '1:1'] } } })).body.id;
    await publishVariantVersion(app, demoId, ['9:16', '1:1']);
  });
  after(() => app.stop());

  const page = async (path: string) => {
    const response = await fetch(`${app.url}${path}`);
    assert.equal(response.status, 200, path);
    return response.text();
  };
  const site = () => app.url.replace('127.0.0.1', 'localhost');

  it('offers each cut on the share page, the 16:9 one shown and marked', async () => {
    const html = await page(`/share/${demoId}`);
    assert.match(html, new RegExp(`<a href="${site()}/share/${demoId}" data-aspect="16:9" aria-current="page">16:9 landscape</a>`));
    assert.match(html, new RegExp(`<a href="${site()}/share/${demoId}\\?aspect=9x16" data-aspect="9:16">9:16 vertical</a>`));
    assert.match(html, new RegExp(`<a href="${site()}/share/${demoId}\\?aspect=1x1" data-aspect="1:1">1:1 square</a>`));
    assert.match(html, new RegExp(`<source src="${site()}/video/${demoId}.mp4\\?v=1" type="video/mp4">`));
  });

  it('plays the vertical cut at its own shape on /share/<id>?aspect=9x16, its poster and download beside it', async () => {
    const html = await page(`/share/${demoId}?aspect=9x16`);
    assert.match(html, /<div class="player tall" data-showreel-player/);
    assert.match(html, new RegExp(`<source src="${site()}/video/${demoId}.mp4\\?v=1&amp;aspect=9x16" type="video/mp4">`));
    assert.match(html, new RegExp(`poster="${site()}/thumb/${demoId}.png\\?v=1&amp;aspect=9x16" width="1080" height="1920"`));
    assert.match(html, /data-aspect="9:16" aria-current="page">9:16 vertical/);
    assert.match(html, new RegExp(`<a href="${site()}/video/${demoId}.mp4\\?v=1&amp;aspect=9x16" download>Download this cut</a>`));
    // The media it names are the cut's own.
    assert.equal(await (await fetch(`${app.url}/video/${demoId}.mp4?v=1&aspect=9x16`)).text(), 'v1 video-9x16.mp4');
  });

  it('shows the 16:9 video for a cut the demo does not have', async () => {
    const html = await page(`/share/${demoId}?aspect=4x3`);
    assert.match(html, /<div class="player" data-showreel-player/);
    assert.match(html, new RegExp(`<source src="${site()}/video/${demoId}.mp4\\?v=1" type="video/mp4">`));
  });

  it('plays the square cut in the embed player with aspect=1x1, and the player swaps in the same cut', async () => {
    const html = await page(`/embed/${demoId}?aspect=1x1&autoplay=1`);
    assert.match(html, new RegExp(`<source src="${site()}/video/${demoId}.mp4\\?v=1&amp;aspect=1x1" type="video/mp4">`));
    assert.match(html, /width="1080" height="1080"/);
    assert.match(html, /data-aspect="1x1"/);
    const plain = await page(`/embed/${demoId}`);
    assert.match(plain, /data-aspect=""/);
    assert.match(plain, /width="1920" height="1080"/);
  });
});
