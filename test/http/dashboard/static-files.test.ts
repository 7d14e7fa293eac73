import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';

describe('the dashboard static files', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.stop();
  });

  it('are served by their own names', async () => {
    const response = await app.api('/app/static/dashboard.css');
    assert.equal(response.status, 200);
  });

  it('answer 404, as any unknown dashboard address does, for names every JavaScript object has (toString, constructor, __proto__, hasOwnProperty)', async () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const response = await app.api(`/app/static/${name}`);
      assert.equal(response.status, 404, `${name}: ${response.text}`);
      assert.doesNotMatch(response.text, /went wrong on our side/);
    }
  });
});
