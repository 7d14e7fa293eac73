import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

describe('projects', () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    app = await startTestApp();
    alice = await app.createUser();
    bob = await app.createUser();
  });
  after(() => app.stop());

  it('creates a project with defaults and shows the signing secret only at creation', async () => {
    const created = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Acme', url: 'https://acme.example' } });
    assert.equal(created.status, 201);
    assert.equal(created.body.viewport, 'desktop');
    assert.equal(created.body.refresh_schedule, 'manual');
    assert.match(created.body.signing_secret, /^sk_sign_/);
    assert.match(created.body.webhook_secret, /^whsec_/);

    const detail = await app.api(`/api/v1/projects/${created.body.id}`, { key: alice.key });
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body.demos, []);
    assert.equal(detail.body.signing_secret, undefined);
  });

  it("answers 404 for another user's project exactly as for a missing one", async () => {
    const created = await app.api('/api/v1/projects', { key: alice.key, body: { name: 'Mine', url: 'https://mine.example' } });
    const theirs = await app.api(`/api/v1/projects/${created.body.id}`, { key: bob.key });
    const missing = await app.api('/api/v1/projects/does-not-exist', { key: bob.key });
    assert.equal(theirs.status, 404);
    assert.deepEqual(theirs.body, missing.body);
  });
});
