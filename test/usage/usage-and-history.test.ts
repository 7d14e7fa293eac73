import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chargeCredits, grantAtOnceProvider, noPaymentsProvider, refundCredits, setPaymentProvider } from '../../src/credits/index.js';
import { failDemoJob, startDemoJob } from '../../src/demos/index.js';
import { inTransaction } from '../../src/platform/command.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const metadata = { actor: 'test' };

describe('usage and history (issue 13)', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(() => app.stop());

  const charge = (user: TestUser, amount: number, reference: string) =>
    inTransaction(app.sql, (tx) => chargeCredits(tx, { userId: user.userId, amount, description: `Demo ${reference}`, reference }, metadata));

  it('GET /usage shows the account, the plan, this month, the balance and auto top-off', async () => {
    const user = await app.createUser({ credits: 10 });
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } });
    const demo = await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.body.id, prompt: 'Show the pricing', duration_target: '30s' } });
    assert.equal(demo.status, 202);
    await charge(user, 2, 'manual:1');
    await inTransaction(app.sql, (tx) => refundCredits(tx, { userId: user.userId, reference: 'manual:1' }, metadata));

    const usage = await app.api('/api/v1/usage', { key: user.key });
    assert.equal(usage.status, 200);
    assert.equal(usage.body.account.email, user.email);
    assert.equal(usage.body.account.via, 'live');
    assert.deepEqual(
      { id: usage.body.plan.id, formats: usage.body.plan.formats, resolutions: usage.body.plan.resolutions },
      { id: 'free', formats: ['mp4'], resolutions: ['720p', '1080p'] },
    );
    assert.equal(typeof usage.body.plan.limits.max_upload_bytes, 'number');
    assert.deepEqual(usage.body.usage, { demos_generated: 1, refreshes: 0, restyles: 0, uploads: 0, credits_spent: 3 });
    assert.equal(usage.body.balance, 7);
    assert.deepEqual(usage.body.autoTopoff, { enabled: false, packId: '20', threshold: 1 });
    assert.ok(usage.body.period.start <= new Date().toISOString() && new Date().toISOString() < usage.body.period.end);

    assert.equal((await app.api('/api/v1/usage')).status, 401);
  });

  it('does not count a demo whose recording failed (and was refunded) as generated', async () => {
    const user = await app.createUser({ credits: 10 });
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Acme', url: 'https://acme.example' } });
    const made = await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.body.id, prompt: 'Show the pricing' } });
    const failed = await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.body.id, prompt: 'Show the team' } });
    const [job] = await app.sql<{ latest_job_id: string }[]>`select latest_job_id from demos where id = ${failed.body.id}`;
    await inTransaction(app.sql, async (tx) => {
      await startDemoJob(tx, failed.body.id, job!.latest_job_id, 1, metadata);
      await failDemoJob(tx, failed.body.id, job!.latest_job_id, 'The page did not load.', metadata);
    });
    assert.equal(made.status, 202);
    const usage = await app.api('/api/v1/usage', { key: user.key });
    assert.equal(usage.body.usage.demos_generated, 1);
  });

  it('pages the transactions newest first, and a page boundary holds while charges land', async () => {
    const user = await app.createUser({ credits: 100 });
    for (let i = 1; i <= 5; i++) await charge(user, 1, `before:${i}`);
    // History now: bonus, before:1..5 — six transactions.
    const first = await app.api('/api/v1/credits/transactions?limit=4', { key: user.key });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.transactions.map((t: any) => t.description), ['Demo before:5', 'Demo before:4', 'Demo before:3', 'Demo before:2']);
    assert.equal(typeof first.body.nextCursor, 'string');

    // Charges land between the pages, several at once: the next page is still exactly the older rest.
    await Promise.all([1, 2, 3].map((i) => charge(user, 1, `between:${i}`)));
    const second = await app.api(`/api/v1/credits/transactions?limit=4&cursor=${first.body.nextCursor}`, { key: user.key });
    assert.deepEqual(second.body.transactions.map((t: any) => t.description), ['Demo before:1', 'Sign-up bonus']);
    assert.equal(second.body.nextCursor, null);

    const fresh = await app.api('/api/v1/credits/transactions?limit=3', { key: user.key });
    assert.deepEqual(fresh.body.transactions.map((t: any) => t.balance_after), [92, 93, 94]);

    const bad = await app.api('/api/v1/credits/transactions?cursor=nonsense', { key: user.key });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /cursor/);
    assert.equal((await app.api('/api/v1/credits/transactions?limit=0', { key: user.key })).status, 400);
  });

  it('walks every page while charges keep landing: each older row once, in order, and only the account’s own', async () => {
    const user = await app.createUser({ credits: 100 });
    const stranger = await app.createUser({ credits: 100 });
    for (let i = 1; i <= 9; i++) await charge(user, 1, `old:${i}`);
    const expected = ['Demo old:9', 'Demo old:8', 'Demo old:7', 'Demo old:6', 'Demo old:5', 'Demo old:4', 'Demo old:3', 'Demo old:2', 'Demo old:1', 'Sign-up bonus'];

    // A client pages with limit=2 while twelve charges (this user's and a stranger's) land concurrently.
    const landing = Promise.all(
      Array.from({ length: 12 }, (_, i) => new Promise((r) => setTimeout(r, i * 15)).then(() => charge(i % 2 ? stranger : user, 1, `during:${i}`))),
    );
    const first = await app.api('/api/v1/credits/transactions?limit=2', { key: user.key });
    const walked: string[] = first.body.transactions.map((t: any) => t.description);
    const ids = new Set<string>(first.body.transactions.map((t: any) => t.id));
    let cursor: string | null = first.body.nextCursor;
    let pages = 1;
    while (cursor) {
      const page = await app.api(`/api/v1/credits/transactions?limit=2&cursor=${cursor}`, { key: user.key });
      assert.equal(page.status, 200, page.text);
      for (const t of page.body.transactions) {
        assert.ok(!ids.has(t.id), `${t.description} is on two pages`);
        ids.add(t.id);
        walked.push(t.description);
      }
      cursor = page.body.nextCursor;
      pages++;
    }
    await landing;
    // Charges that landed before the first page was read may lead the walk; after the first older row, the walk is
    // exactly the older history: nothing that landed later slips in, nothing shifts or repeats.
    const leading = walked.findIndex((d) => !d.startsWith('Demo during'));
    assert.ok(walked.slice(0, leading).every((d) => d.startsWith('Demo during')));
    assert.deepEqual(walked.slice(leading), expected);
    assert.ok(walked.every((d) => !/during:(1|3|5|7|9|11)$/.test(d)), 'never a stranger’s charge');
    assert.ok(pages >= 5);

    // Afterwards a fresh walk sees everything, newest first, with balances that add up.
    const all = await app.api('/api/v1/credits/transactions?limit=100', { key: user.key });
    assert.equal(all.body.transactions.length, 10 + 6);
    const balances = all.body.transactions.map((t: any) => t.balance_after);
    assert.deepEqual(balances, [...balances].sort((a: number, b: number) => a - b), 'newest first: the balance only fell');
    assert.equal(balances[0], 100 - 9 - 6);
  });

  it('auto top-off buys its pack when a charge finds the balance below the threshold', async (t) => {
    // A provider that settles at once (the ledger's rule, not a payment service's: see test/payments/).
    setPaymentProvider(grantAtOnceProvider);
    t.after(() => setPaymentProvider(noPaymentsProvider));
    const user = await app.createUser({ credits: 3 });
    const set = await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: true, packId: '5', threshold: 3 } });
    assert.deepEqual(set.body, { enabled: true, packId: '5', threshold: 3 });
    await charge(user, 1, 'a'); // 3 is not below 3: no top-off, 2 left
    const second = await charge(user, 1, 'b'); // 2 is below 3: the pack first, then the charge
    assert.equal(second.autoTopoff?.type, 'auto_topoff');
    assert.equal(second.balance, 6);
    // Left out, the threshold stays.
    assert.deepEqual((await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: false } })).body, { enabled: false, packId: '5', threshold: 3 });
    assert.equal((await app.api('/api/v1/credits/auto-topoff', { key: user.key, method: 'PUT', body: { enabled: true, threshold: 0 } })).status, 400);
  });

  it('DELETE /api-keys/{id} revokes a key: the next request with it is a 401', async () => {
    const user = await app.createUser();
    const other = await app.createUser();
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'CI' } });
    assert.equal((await app.api('/api/v1/projects', { key: created.body.key })).status, 200);
    assert.equal((await app.api(`/api/v1/api-keys/${created.body.id}`, { key: other.key, method: 'DELETE' })).status, 404);
    const revoked = await app.api(`/api/v1/api-keys/${created.body.id}`, { key: user.key, method: 'DELETE' });
    assert.deepEqual([revoked.status, revoked.body], [200, { ok: true }]);
    assert.equal((await app.api('/api/v1/projects', { key: created.body.key })).status, 401);
    assert.equal((await app.api(`/api/v1/api-keys/${created.body.id}`, { key: user.key, method: 'DELETE' })).status, 404);
    const listed = await app.api('/api/v1/api-keys', { key: user.key });
    assert.ok(!listed.body.keys.some((k: any) => k.id === created.body.id));
  });

  it('documents the new operations in the OpenAPI document', async () => {
    const doc = (await app.api('/api/v1/openapi.json')).body;
    assert.ok(doc.paths['/api/v1/usage']?.get);
    assert.ok(doc.paths['/api/v1/credits/transactions']?.get);
    assert.ok(doc.paths['/api/v1/api-keys/{id}']?.delete);
    // Every operation declares its security, public ones as [] (redocly's security-defined).
    for (const [route, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'servers' || method === 'parameters') continue;
        assert.ok(Array.isArray(operation.security), `${method} ${route} declares no security`);
      }
    }
    assert.deepEqual(doc.paths['/share/{id}'].get.security, []);
    assert.ok(doc.paths['/api/v1/usage'].get.security.length > 0);
  });
});
