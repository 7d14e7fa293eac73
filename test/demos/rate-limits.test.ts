import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { clearOfMinuteTurn } from '../helpers/minute-window.js';

describe('request rate limits on demo creation', () => {
  let app: TestApp;
  let user: TestUser;
  let projectId: string;

  before(async () => {
    app = await startTestApp({ SHOWREEL_RATE_LIMIT_PER_KEY: '3', SHOWREEL_RATE_LIMIT_PER_USER: '5' });
    user = await app.createUser({ credits: 100 });
    projectId = (await app.api('/api/v1/projects', { key: user.key, body: { name: 'Busy', url: 'https://busy.example' } })).body.id;
  });
  after(() => app.stop());

  const create = (key: string) => app.api('/api/v1/demos', { key, body: { project_id: projectId, prompt: 'Tour' } });

  it('answers 429 with Retry-After past the per-key limit, and charges nothing for it', async () => {
    // This test's requests count in the next one's too: both in the same minute.
    await clearOfMinuteTurn(10);
    for (let i = 0; i < 3; i++) assert.equal((await create(user.key)).status, 202);
    const balance = (await app.api('/api/v1/credits', { key: user.key })).body.balance;
    const limited = await create(user.key);
    assert.equal(limited.status, 429);
    assert.match(limited.body.error, /Rate limit exceeded: at most 3 demo create requests a minute/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60);
    assert.equal((await app.api('/api/v1/credits', { key: user.key })).body.balance, balance);
  });

  it('also limits the user across keys', async () => {
    const second = (await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'second' } })).body.key;
    assert.equal((await create(second)).status, 202);
    // The user has now made 5 allowed creates (3 + 1 over the key limit, which still counted + this one) or more.
    let status = 202;
    for (let i = 0; i < 3 && status === 202; i++) status = (await create(second)).status;
    assert.equal(status, 429);
  });
});
