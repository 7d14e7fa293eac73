import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

describe('errors are always {"error": "..."} with the right status', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser();
  });
  after(() => app.stop());

  it('answers unknown routes with 404', async () => {
    for (const path of ['/nope', '/api/v1/nope', '/api/v1/projects/x/y/z', '/api']) {
      const response = await app.api(path, { key: user.key });
      assert.equal(response.status, 404, path);
      assert.deepEqual(Object.keys(response.body), ['error']);
    }
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const response = await app.api('/api/v1/projects', { key: user.key, method: 'DELETE' });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'GET, POST, HEAD');
    assert.match(response.body.error, /DELETE is not allowed/);
    const put = await app.api('/api/v1/projects/some-id', { key: user.key, method: 'PUT', body: {} });
    assert.equal(put.status, 405);
  });

  it('answers malformed JSON with 400, whatever the content type', async () => {
    for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      const response = await app.api('/api/v1/projects', { key: user.key, method: 'POST', rawBody: '{"name": "x",', headers: { 'content-type': contentType } });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { error: 'The request body is not valid JSON.' });
    }
  });

  it('accepts JSON sent without a JSON content type (curl -d)', async () => {
    const response = await app.api('/api/v1/projects', {
      key: user.key,
      method: 'POST',
      rawBody: JSON.stringify({ name: 'curl', url: 'https://curl.example' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.status, 201);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    for (const rawBody of ['[1,2]', '"text"', '42', 'null']) {
      const response = await app.api('/api/v1/projects', { key: user.key, method: 'POST', rawBody, headers: { 'content-type': 'application/json' } });
      assert.equal(response.status, 400, rawBody);
      assert.deepEqual(Object.keys(response.body), ['error']);
    }
  });

  it('answers an oversized body with 413', async () => {
    const response = await app.api('/api/v1/projects', { key: user.key, body: { name: 'x', url: 'https://x.example', filler: 'x'.repeat(1_100_000) } });
    assert.equal(response.status, 413);
    assert.deepEqual(Object.keys(response.body), ['error']);
  });

  it('answers a body nested thousands of levels deep with 400, and a deep but sane one as usual', async () => {
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Deep', url: 'https://deep.example' } });
    for (const depth of [5_000, 65]) {
      const presentation = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const rawBody = `{"project_id":${JSON.stringify(project.body.id)},"prompt":"Show the pricing","presentation":${presentation}}`;
      const response = await app.api('/api/v1/demos', { key: user.key, rawBody, headers: { 'content-type': 'application/json' } });
      assert.equal(response.status, 400, `${depth} levels → ${response.status} ${response.text.slice(0, 200)}`);
      assert.match(response.body.error, /nested more than 64 levels/);
      const wide = await app.api('/api/v1/demos', { key: user.key, body: { project_id: project.body.id, prompt: 'x', presentation: [[[[[[[[[[{}]]]]]]]]]] } });
      assert.ok(wide.status === 400 && typeof wide.body.error === 'string', `${wide.status} ${wide.text}`);
    }
    const brackets = await app.api('/api/v1/projects', { key: user.key, body: { name: '{['.repeat(40), url: 'https://x.example' } });
    assert.equal(brackets.status, 201, 'brackets inside a string are text, not nesting');
  });

  it('never answers 500 for hostile input', async () => {
    const hostile: unknown[] = [
      { name: { $gt: '' }, url: 'https://x.example' },
      { name: 'x', url: `https://x.example/${'a'.repeat(5000)}` },
      { name: "'; drop table events; --", url: 'https://x.example' },
      { name: '\u0000nul', url: 'https://x.example' },
      { name: 'x', url: 'https://x.example', viewport: ['desktop'] },
      { name: '💥'.repeat(100), url: 'https://x.example' },
    ];
    for (const body of hostile) {
      const response = await app.api('/api/v1/projects', { key: user.key, body });
      assert.ok(response.status < 500, `${JSON.stringify(body).slice(0, 80)} → ${response.status} ${response.text}`);
      assert.ok(typeof response.body.error === 'string' || response.status === 201);
    }
    for (const id of ['%00', '..%2F..%2Fetc', "' or 1=1 --", 'x'.repeat(3000)]) {
      const response = await app.api(`/api/v1/projects/${id}`, { key: user.key });
      assert.ok([400, 404].includes(response.status), `${id} → ${response.status}`);
    }
    const [count] = await app.sql`select count(*)::int as n from events`;
    assert.ok(count!.n > 0, 'the event store is intact');
  });

  it('refuses half a UTF-16 surrogate pair in any text with 400, and keeps whole pairs (emoji)', async () => {
    // JSON allows "\ud800" alone; no UTF-8 encodes it, and PostgreSQL refused the event it went into (500).
    const project = await app.api('/api/v1/projects', { key: user.key, body: { name: 'Pairs', url: 'https://pairs.example' } });
    const attempts: Array<[string, string]> = [
      ['/api/v1/projects', '{"name":"\\ud800","url":"https://e.example"}'],
      ['/api/v1/projects', '{"name":"x","url":"https://e.example/\\uDC00"}'],
      ['/api/v1/demos', `{"project_id":${JSON.stringify(project.body.id)},"prompt":"tour \\udfff"}`],
      ['/api/v1/api-keys', '{"name":"k\\uD83D","type":"secret"}'],
    ];
    for (const [route, rawBody] of attempts) {
      const response = await app.api(route, { key: user.key, rawBody, headers: { 'content-type': 'application/json' } });
      assert.equal(response.status, 400, `${route} ${rawBody} → ${response.status} ${response.text}`);
      assert.match(response.body.error, /surrogate/);
    }
    const emoji = await app.api('/api/v1/projects', { key: user.key, rawBody: '{"name":"\\ud83d\\udca5 launch","url":"https://e.example"}', headers: { 'content-type': 'application/json' } });
    assert.equal(emoji.status, 201);
    assert.equal(emoji.body.name, '💥 launch');
  });
});
