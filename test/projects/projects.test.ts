import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

describe('projects over REST', () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    app = await startTestApp();
    alice = await app.createUser();
    bob = await app.createUser();
  });
  after(() => app.stop());

  const create = (user: TestUser, body: unknown) => app.api('/api/v1/projects', { key: user.key, body });

  it('creates a project with defaults and shows the signing secret only at creation', async () => {
    const created = await create(alice, { name: 'Acme', url: 'https://acme.example' });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'Acme');
    assert.equal(created.body.user_id, alice.userId);
    assert.equal(created.body.viewport, 'desktop');
    assert.equal(created.body.refresh_schedule, 'manual');
    assert.match(created.body.signing_secret, /^sk_sign_[\w-]{40,}$/);
    assert.match(created.body.webhook_secret, /^whsec_[\w-]{40,}$/);
    assert.ok(Date.parse(created.body.created_at));

    const detail = await app.api(`/api/v1/projects/${created.body.id}`, { key: alice.key });
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body.demos, []);
    assert.equal(detail.body.signing_secret, undefined);
    assert.equal(detail.body.webhook_secret, created.body.webhook_secret);
  });

  it('lists only the caller’s projects, newest first, each with demo_count', async () => {
    const first = await create(bob, { name: 'Bob one', url: 'https://one.example', viewport: 'mobile' });
    const second = await create(bob, { name: 'Bob two', url: 'https://two.example' });
    const listed = await app.api('/api/v1/projects', { key: bob.key });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.projects.map((p: { id: string }) => p.id), [second.body.id, first.body.id]);
    assert.ok(listed.body.projects.every((p: { demo_count: number; signing_secret?: string }) => p.demo_count === 0 && p.signing_secret === undefined));
  });

  it('updates any subset of name, url, viewport and refresh_schedule', async () => {
    const created = await create(alice, { name: 'Before', url: 'https://before.example' });
    const updated = await app.api(`/api/v1/projects/${created.body.id}`, {
      key: alice.key,
      method: 'PATCH',
      body: { name: 'After', refresh_schedule: 'weekly', viewport: 'tablet' },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'After');
    assert.equal(updated.body.url, 'https://before.example');
    assert.equal(updated.body.viewport, 'tablet');
    assert.equal(updated.body.refresh_schedule, 'weekly');
    assert.ok(Date.parse(updated.body.updated_at) >= Date.parse(created.body.updated_at));

    const unchanged = await app.api(`/api/v1/projects/${created.body.id}`, { key: alice.key, method: 'PATCH', body: {} });
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.name, 'After');
  });

  it('reads and rotates the signing secret; the old one is gone', async () => {
    const created = await create(alice, { name: 'Secrets', url: 'https://secrets.example' });
    const read = await app.api(`/api/v1/projects/${created.body.id}/signing-secret`, { key: alice.key });
    assert.deepEqual(read.body, { signing_secret: created.body.signing_secret });

    const rotated = await app.api(`/api/v1/projects/${created.body.id}/signing-secret/rotate`, { key: alice.key, method: 'POST' });
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.signing_secret, /^sk_sign_/);
    assert.notEqual(rotated.body.signing_secret, created.body.signing_secret);
    const reread = await app.api(`/api/v1/projects/${created.body.id}/signing-secret`, { key: alice.key });
    assert.equal(reread.body.signing_secret, rotated.body.signing_secret);
  });

  it('keeps signing and webhook secrets encrypted at rest, in read models and in events', async () => {
    const created = await create(alice, { name: 'At rest', url: 'https://rest.example' });
    const dump = JSON.stringify(await app.sql`select p.*, (select json_agg(e) from events e where e.stream_id = ${`project-${created.body.id}`}) as events from projects p where id = ${created.body.id}`);
    assert.ok(!dump.includes(created.body.signing_secret));
    assert.ok(!dump.includes(created.body.webhook_secret));
    assert.ok(dump.includes('v1.'));
  });

  it('queues nothing on refresh while a project has no demos', async () => {
    const created = await create(alice, { name: 'Refresh', url: 'https://refresh.example' });
    const refreshed = await app.api(`/api/v1/projects/${created.body.id}/refresh`, { key: alice.key, method: 'POST' });
    assert.equal(refreshed.status, 200);
    assert.deepEqual(refreshed.body, { queued: 0, jobs: [] });
  });

  it("answers 404 for another user's project exactly as for a missing one, on every endpoint", async () => {
    const mine = await create(alice, { name: 'Mine', url: 'https://mine.example' });
    const id = mine.body.id;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/projects/${id}`],
      ['PATCH', `/api/v1/projects/${id}`, { name: 'stolen' }],
      ['POST', `/api/v1/projects/${id}/refresh`],
      ['GET', `/api/v1/projects/${id}/signing-secret`],
      ['POST', `/api/v1/projects/${id}/signing-secret/rotate`],
    ];
    for (const [method, path, body] of attempts) {
      const theirs = await app.api(path, { key: bob.key, method, body });
      const missing = await app.api(path.replace(id, 'no-such-project'), { key: bob.key, method, body });
      assert.equal(theirs.status, 404, `${method} ${path}`);
      assert.deepEqual(theirs.body, missing.body);
      assert.deepEqual(theirs.body, { error: 'Project not found.' });
    }
    const stillMine = await app.api(`/api/v1/projects/${id}`, { key: alice.key });
    assert.equal(stillMine.body.name, 'Mine');
  });

  describe('bad input answers 400 naming the field, and changes nothing', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['missing name', { url: 'https://x.example' }, /^The name is required\.$/],
      ['empty name', { name: '', url: 'https://x.example' }, /^The name cannot be blank\.$/],
      ['blank name', { name: '   ', url: 'https://x.example' }, /^The name cannot be blank\.$/],
      ['name over 100', { name: 'x'.repeat(101), url: 'https://x.example' }, /name must be at most 100 characters/],
      ['line break in name', { name: 'Shop\nEvil', url: 'https://x.example' }, /name must not contain control characters such as line breaks or tabs/],
      ['terminal escape in name', { name: 'Shop\u001b[31m', url: 'https://x.example' }, /name must not contain control characters/],
      ['missing url', { name: 'x' }, /^The page URL is required\.$/],
      ['url not a URL', { name: 'x', url: 'not a url' }, /^The page URL must be a full http\(s\) address, like https:\/\/example\.com\.$/],
      ['url not http(s)', { name: 'x', url: 'ftp://x.example' }, /^The page URL must be a full http\(s\) address, like https:\/\/example\.com\.$/],
      ['javascript url', { name: 'x', url: 'javascript:alert(1)' }, /^The page URL must be a full http\(s\) address, like https:\/\/example\.com\.$/],
      ['unknown viewport', { name: 'x', url: 'https://x.example', viewport: 'watch' }, /viewport must be one of: desktop, mobile, tablet/],
      ['name not a string', { name: 42, url: 'https://x.example' }, /name must be a string/],
    ];
    for (const [label, body, message] of cases) {
      it(label, async () => {
        const before = await app.api('/api/v1/projects', { key: alice.key });
        const response = await create(alice, body);
        assert.equal(response.status, 400);
        assert.deepEqual(Object.keys(response.body), ['error']);
        assert.match(response.body.error, message);
        const afterList = await app.api('/api/v1/projects', { key: alice.key });
        assert.equal(afterList.body.projects.length, before.body.projects.length);
      });
    }

    it('rejects a bad update and keeps the project as it was', async () => {
      const created = await create(alice, { name: 'Stable', url: 'https://stable.example' });
      for (const body of [{ name: '' }, { url: 'nope' }, { refresh_schedule: 'hourly' }, { name: 'y'.repeat(101) }]) {
        const response = await app.api(`/api/v1/projects/${created.body.id}`, { key: alice.key, method: 'PATCH', body });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.match(response.body.error, /name|page URL|refresh_schedule/);
      }
      const detail = await app.api(`/api/v1/projects/${created.body.id}`, { key: alice.key });
      assert.equal(detail.body.name, 'Stable');
      assert.equal(detail.body.refresh_schedule, 'manual');
    });
  });
});
