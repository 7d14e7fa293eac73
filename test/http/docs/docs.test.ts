import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';

describe('GET /docs and the Redoc bundle it loads', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.stop());

  it('serves the page with a CSP that allows scripts from this origin only and nothing from elsewhere', async () => {
    const response = await fetch(`${app.url}/docs`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /https?:|unsafe-eval/);
    const page = await response.text();
    assert.doesNotMatch(page, /<script>/, 'no inline script');
    assert.doesNotMatch(page, /https?:\/\//, 'no absolute address: everything from this origin');
    assert.match(page, /<div id="redoc" data-spec-url="\/api\/v1\/openapi.json"/);
    assert.match(page, /<script src="\/docs\/redoc.standalone.js\?v=[\w-]{16}"><\/script>\n<script src="\/docs\/docs.js\?v=[\w-]{16}"><\/script>/);
    assert.match(page, /<a href="\/app\/">← Dashboard<\/a>/, 'a way back to the dashboard');
  });

  it('serves Redoc from node_modules, immutable under its content hash, without the CDN logo, with its licence', async () => {
    const page = await (await fetch(`${app.url}/docs`)).text();
    const src = /src="([^"]+)"/.exec(page)![1]!;
    const bundle = await fetch(`${app.url}${src}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(bundle.status, 200);
    assert.equal(bundle.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(bundle.headers.get('content-type')!, /^text\/javascript/);
    const code = await bundle.text();
    assert.ok(code.length > 500_000, 'the whole standalone bundle');
    assert.doesNotMatch(code, /cdn\.redoc\.ly/);
    const again = await fetch(`${app.url}${src}`, { headers: { 'if-none-match': bundle.headers.get('etag')! } });
    assert.equal(again.status, 304);
    const plain = await fetch(`${app.url}/docs/redoc.standalone.js`, { method: 'HEAD' });
    assert.equal(plain.headers.get('cache-control'), 'public, max-age=86400');
    const licence = await (await fetch(`${app.url}/docs/redoc.standalone.js.LICENSE.txt`)).text();
    assert.match(licence, /MIT License/);
    assert.match(licence, /Redoc 2\.\d+\.\d+/);
    assert.equal((await fetch(`${app.url}/docs`, { method: 'POST' })).status, 405);
  });
});
