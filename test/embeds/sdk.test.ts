import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { staticAssetBytes } from '../../src/http/embeds/static-assets.js';
import { rawRequest } from '../helpers/raw-request.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** The budget of issue 11: a page pays for sdk.js on every view. */
const SDK_GZIP_BUDGET_BYTES = 8 * 1024;

describe('GET /sdk.js', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.stop());

  it(`stays within ${SDK_GZIP_BUDGET_BYTES} bytes gzipped, as served`, async () => {
    const response = await rawRequest(app.url, '/sdk.js', { method: 'GET', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.ok(response.body.length <= SDK_GZIP_BUDGET_BYTES, `sdk.js is ${response.body.length} bytes gzipped`);
    assert.equal(response.body.length, staticAssetBytes('sdk.js').gzipped);
    const source = gunzipSync(response.body).toString('utf8');
    assert.match(source, /window\.Showreel = /);
    assert.doesNotMatch(source, /\b(import|require)\s*\(/, 'no dependencies');
    console.log(`sdk.js: ${staticAssetBytes('sdk.js').raw} bytes, ${response.body.length} bytes gzipped`);
  });

  it('is served with a long cache and an ETag, and answers 304 to a revalidation', async () => {
    const response = await fetch(`${app.url}/sdk.js`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(response.headers.get('cache-control') ?? '', /public, max-age=86400, stale-while-revalidate=604800/);
    const etag = response.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]{16}"$/);
    const again = await fetch(`${app.url}/sdk.js`, { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    const head = await fetch(`${app.url}/sdk.js`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal((await fetch(`${app.url}/sdk.js`, { method: 'POST' })).status, 405);
  });
});
