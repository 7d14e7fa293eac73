import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { type DashboardSession, signInToDashboard } from '../../helpers/dashboard-session.js';
import { publishVariantVersion } from '../../helpers/variant-demo.js';

/**
 * Issue 59 in the dashboard, as a browser without script uses it: the new-demo and restyle forms choose the vertical
 * and square cuts, and the demo's page offers each cut made (share page, download, GIF, thumbnail, iframe).
 */
describe('choosing the cuts of a demo in the dashboard', () => {
  let app: TestApp;
  let ada: TestUser;
  let session: DashboardSession;
  let csrf: string;

  before(async () => {
    app = await startTestApp();
    ada = await app.createUser({ email: 'ada@example.com', credits: 10 });
    session = await signInToDashboard(app, ada);
    ({ csrf } = session);
  });
  after(() => app.stop());

  const post: DashboardSession['post'] = (...args) => session.post(...args);
  const text = (path: string) => session.text(path);

  it('makes a demo with a vertical cut from the new-demo form, and offers the cut on its page once made', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Docs', url: 'https://docs.example/' } })).body;
    const form = await text('/app/demos/new');
    assert.match(form, /<input type="checkbox" name="aspect_9x16" data-label="9:16 vertical cut"> 9:16 vertical/);
    assert.match(form, /<input type="checkbox" name="aspect_1x1" data-label="1:1 square cut"> 1:1 square/);
    const created = await post('/app/demos', { csrf, project_id: project.id, prompt: 'Tour', duration_target: '5s', format: 'mp4', resolution: '720p', mode: 'script', template: 'auto', aspect_9x16: 'on' });
    assert.equal(created.status, 303);
    const demoId = created.headers.get('location')!.split('/').pop()!;
    const [row] = await app.sql<{ presentation: string }[]>`select presentation from demos where id = ${demoId}`;
    assert.deepEqual(JSON.parse(row!.presentation), { aspect: ['16:9', '9:16'] });

    await publishVariantVersion(app, demoId, ['9:16']);
    const page = await text(`/app/demos/${demoId}`);
    assert.match(page, new RegExp(`<p class="links" data-variant="9:16"><strong>9:16 vertical</strong>: <a href="/share/${demoId}\\?aspect=9x16"`));
    assert.match(page, new RegExp(`/video/${demoId}\\.mp4\\?aspect=9x16" download>video</a>`));
    assert.match(page, new RegExp(`/gif/${demoId}\\.gif\\?aspect=9x16`));
    assert.match(page, new RegExp(`&lt;iframe src=&quot;[^&]+/embed/${demoId}\\?aspect=9x16&quot; width=&quot;304&quot; height=&quot;540&quot;`), 'its iframe, as text');
  });

  it('restyles to other cuts; the same cuts and look again is no change', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Restyle', url: 'https://r.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Tour', presentation: { aspect: '9:16' } } })).body;
    await publishVariantVersion(app, demo.id, ['9:16']);
    const form = await text(`/app/demos/${demo.id}/restyle`);
    assert.match(form, /name="aspect_9x16" data-label="9:16 vertical cut" checked/);
    assert.match(form, /name="aspect_1x1" data-label="1:1 square cut">/);
    // The form as it opened (a browser without script posts it so): the look and the cuts unchanged.
    const look = {
      ...Object.fromEntries([...form.matchAll(/<input id="f-(\w+)" name="\w+" type="(?:number|color)" (?:min="[^"]*" max="[^"]*" step="[^"]*" )?value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!])),
      csrf, bg_kind: 'gradient', mockup: 'macos-light', zoom_enabled: 'on', cursor_style: 'arrow', click_style: 'ripple', fade_color: 'black', intro: 'on',
    };
    const same = await post(`/app/demos/${demo.id}/restyle`, { ...look, aspect_9x16: 'on' });
    assert.equal(same.status, 400);
    assert.match(await same.text(), /Nothing changed/);
    // A version made before captures were kept: the cut cannot be made from one; the page says so and offers to record.
    const refused = await post(`/app/demos/${demo.id}/restyle`, { ...look, aspect_1x1: 'on' });
    assert.equal(refused.status, 409);
    const page = await refused.text();
    assert.match(page, /made before captures were kept, so a 1:1 cut cannot be made from it without recording again/);
    assert.match(page, new RegExp(`formaction="/app/demos/${demo.id}/restyle\\?force=true" data-record-again>Record it again with the cut for 1 credit`));

    // With its capture kept, only the cuts changing is a restyle made from it, sent as the demo's own presentation.
    await app.sql`update demos set capture_key = ${`demos/${demo.id}/v1/capture/`} where id = ${demo.id}`;
    // The button's words for the form as it stands, as the page's script asks them (a read; the post is priced again).
    const quote = async (fields: Record<string, string>) => (await session.get(`/app/demos/${demo.id}/restyle/price?${new URLSearchParams(fields)}`)).json();
    assert.deepEqual(await quote({ ...look, aspect_1x1: 'on' }), { label: 'Make the 1:1 cut, remove the 9:16 cut — free', price: 'free' });
    assert.deepEqual(await quote({ ...look, aspect_9x16: 'on', aspect_1x1: 'on', debug_hud: 'on' }), { label: 'Restyle for 1 credit', price: '1 credit' });
    const stranger = await signInToDashboard(app, await app.createUser());
    assert.equal((await stranger.get(`/app/demos/${demo.id}/restyle/price?aspect_1x1=on`)).status, 404, 'another user’s demo is not there');
    const answer = await post(`/app/demos/${demo.id}/restyle`, { ...look, aspect_1x1: 'on' });
    assert.equal(answer.status, 303, await answer.text());
    const [row] = await app.sql<{ presentation: unknown; from_capture: boolean; credits: number }[]>`select presentation, from_capture, credits from demo_jobs where demo_id = ${demo.id} and kind = 'restyle'`;
    const p = (typeof row!.presentation === 'string' ? JSON.parse(row!.presentation) : row!.presentation) as Record<string, unknown>;
    assert.deepEqual(p, { aspect: ['16:9', '1:1'] }, 'the demo\'s own presentation, its cuts changed');
    assert.deepEqual([row!.from_capture, row!.credits], [true, 0]);
  });

  it('records again with the cut when asked from the refusal', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Again', url: 'https://again.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'Tour' } })).body;
    await publishVariantVersion(app, demo.id, []);
    const form = await text(`/app/demos/${demo.id}/restyle`);
    const look = {
      ...Object.fromEntries([...form.matchAll(/<input id="f-(\w+)" name="\w+" type="(?:number|color)" (?:min="[^"]*" max="[^"]*" step="[^"]*" )?value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!])),
      csrf, bg_kind: 'gradient', mockup: 'macos-light', zoom_enabled: 'on', cursor_style: 'arrow', click_style: 'ripple', fade_color: 'black', intro: 'on',
    };
    const again = await post(`/app/demos/${demo.id}/restyle?force=true`, { ...look, aspect_9x16: 'on' });
    assert.equal(again.status, 303, await again.text());
    const [row] = await app.sql<{ from_capture: boolean; credits: number }[]>`select from_capture, credits from demo_jobs where demo_id = ${demo.id} and kind = 'restyle'`;
    assert.deepEqual([row!.from_capture, row!.credits], [false, 1]);
  });
});
