import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completeUnchangedRefresh, startDemoJob } from '../../../src/demos/index.js';
import { inTransaction } from '../../../src/platform/command.js';
import { startTestApp, type TestApp, type TestUser } from '../../helpers/app.js';
import { signInToDashboard } from '../../helpers/dashboard-session.js';
import { failJob, finishJob } from '../../helpers/pipeline.js';
import { publishVariantVersion } from '../../helpers/variant-demo.js';

/**
 * Issue 37 item 4, as the owner reads it: the demo page's history says what each deploy changed on the site, in
 * words, with the frame before and the frame after; a deploy that changed nothing says so and cost nothing.
 */
describe('the dashboard history shows what changed, with frames before and after (issue 37)', () => {
  let app: TestApp;
  let ada: TestUser;
  let cookie: string;

  before(async () => {
    app = await startTestApp();
    ada = await app.createUser({ email: 'ada@example.com', credits: 10 });
    ({ cookie } = await signInToDashboard(app, ada));
  });
  after(() => app.stop());

  const balance = async () => (await app.api('/api/v1/credits', { key: ada.key })).body.balance as number;

  it('a changed deploy lists its changes and two frames; an unchanged one says nothing was charged', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Tidewater', url: 'https://tidewater.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'A tour', duration_target: '10s' } })).body;
    await finishJob(app.sql, demo.id, demo.jobId);
    const deploy = async () =>
      (await app.api(`/api/v1/webhooks/projects/${project.id}/refresh`, { method: 'POST', headers: { 'x-webhook-secret': project.webhook_secret } })).body.jobs[0].jobId as string;

    const changed = await deploy();
    await finishJob(app.sql, demo.id, changed, { changes: ['Pricing: Pro $12 → $15 per user', 'New section: Integrations'] });
    const beforeUnchanged = await balance();
    const unchanged = await deploy();
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, demo.id, unchanged, 1, { actor: 'pipeline' });
      await completeUnchangedRefresh(tx, demo.id, unchanged, { actor: 'pipeline' });
    });
    assert.equal(await balance(), beforeUnchanged, 'the unchanged refresh was refunded in full');

    const detail = (await app.api(`/api/v1/demos/${demo.id}`, { key: ada.key })).body;
    assert.equal(detail.version, 2);
    const [last, first] = detail.refreshHistory;
    assert.equal(last.result, 'unchanged');
    assert.deepEqual(last.changes, []);
    assert.equal(last.after_thumbnail_url, null);
    assert.ok(last.checked_at);
    assert.deepEqual(first.changes, ['Pricing: Pro $12 → $15 per user', 'New section: Integrations']);
    assert.match(first.before_thumbnail_url, new RegExp(`/thumb/${demo.id}\\.png\\?v=1$`));
    assert.match(first.after_thumbnail_url, new RegExp(`/thumb/${demo.id}\\.png\\?v=2$`));

    const response = await fetch(`${app.url}/app/demos/${demo.id}`, { headers: { cookie } });
    assert.equal(response.status, 200);
    const page = await response.text();
    assert.match(page, /<li>Pricing: Pro \$12 → \$15 per user<\/li>/);
    assert.match(page, /<li>New section: Integrations<\/li>/);
    assert.match(page, new RegExp(`<img src="/thumb/${demo.id}\\.png\\?v=1"[^>]*alt="Before: version 1"`));
    assert.match(page, new RegExp(`<img src="/thumb/${demo.id}\\.png\\?v=2"[^>]*alt="After: version 2"`));
    // Each row says what happened and what it cost, as the credit history does (issue 57).
    assert.match(page, /Skipped: nothing the demo shows changed · free/);
    assert.match(page, /Nothing the demo shows changed/);
    assert.match(page, /Re‑recorded · 1 credit charged/);
    assert.match(page, /<td data-label="Trigger">Deploy webhook<\/td>/);
    assert.deepEqual([last.credits_charged, first.credits_charged], [0, 1]);
  });

  it('a refresh you asked for says it re-recorded and charged even when the page looked the same; a failed one says refunded (issue 57)', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Harbor', url: 'https://harbor.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'A tour', duration_target: '10s' } })).body;
    await finishJob(app.sql, demo.id, demo.jobId);
    const refresh = async () => (await app.api(`/api/v1/demos/${demo.id}/refresh`, { method: 'POST', key: ada.key })).body.jobId as string;

    const beforeRefresh = await balance();
    await finishJob(app.sql, demo.id, await refresh(), { changes: [] });
    assert.equal(await balance(), beforeRefresh - 1, 'the re-recording was charged');
    await failJob(app.sql, demo.id, await refresh());
    assert.equal(await balance(), beforeRefresh - 1, 'the failed one was refunded');

    const rows = await (await fetch(`${app.url}/app/demos/${demo.id}`, { headers: { cookie } })).text();
    const history = rows.slice(rows.indexOf('<h2>History</h2>'));
    const [failed, recorded] = [...history.matchAll(/<tr data-history="[^"]+">([\s\S]*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    assert.match(failed!, /^\S.* Refresh Failed · refunded — The page did not load within 30 s\./);
    assert.match(recorded!, /Refresh Re‑recorded · 1 credit charged The page looked the same; re‑recorded as asked/);
    assert.doesNotMatch(recorded!, /Nothing the demo shows changed/);
  });

  it('a cut made from the kept recording says which cut, that nothing was recorded, and that it was free (issue 59)', async () => {
    const project = (await app.api('/api/v1/projects', { key: ada.key, body: { name: 'Quay', url: 'https://quay.example/' } })).body;
    const demo = (await app.api('/api/v1/demos', { key: ada.key, body: { project_id: project.id, prompt: 'A tour', duration_target: '10s' } })).body;
    const keepCapture = (version: number) => app.sql`update demos set capture_key = ${`demos/${demo.id}/v${version}/capture/`} where id = ${demo.id}`;
    await keepCapture(await publishVariantVersion(app, demo.id, []));
    const restyle = (aspect: string[]) => app.api(`/api/v1/demos/${demo.id}/restyle`, { key: ada.key, body: { presentation: { aspect } } });
    const balance = (await app.api('/api/v1/credits', { key: ada.key })).body.balance as number;
    assert.equal((await restyle(['16:9', '9:16'])).status, 202);
    await keepCapture(await publishVariantVersion(app, demo.id, ['9:16'], { aspect: ['16:9', '9:16'] }));
    assert.equal((await restyle(['16:9'])).status, 202);
    await publishVariantVersion(app, demo.id, [], { aspect: ['16:9'] });
    assert.equal((await app.api('/api/v1/credits', { key: ada.key })).body.balance, balance, 'neither cost a credit');

    const detail = (await app.api(`/api/v1/demos/${demo.id}`, { key: ada.key })).body;
    assert.deepEqual(detail.refreshHistory.map((h: { from_capture: boolean; credits_charged: number }) => [h.from_capture, h.credits_charged]), [[true, 0], [true, 0]]);
    const page = await (await fetch(`${app.url}/app/demos/${demo.id}`, { headers: { cookie } })).text();
    const history = page.slice(page.indexOf('<h2>History</h2>'));
    const [removed, added] = [...history.matchAll(/<tr data-history="[^"]+">([\s\S]*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    assert.match(added!, /Restyle New cut \(9:16\) from the same recording · free Nothing recorded: made from v1’s recording/);
    assert.match(removed!, /Restyle 9:16 cut removed, nothing recorded · free Nothing recorded: made from v2’s recording/);
    assert.doesNotMatch(history, /Re‑recorded/);
  });
});
