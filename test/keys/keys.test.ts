import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../helpers/app.js';

describe('API keys', () => {
  let app: TestApp;
  let user: TestUser;

  before(async () => {
    app = await startTestApp();
    user = await app.createUser();
  });
  after(() => app.stop());

  it('creates a live key by default and returns its secret exactly once', async () => {
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'Deploy bot' } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ['allowed_domains', 'id', 'key', 'name', 'prefix', 'project_id', 'type']);
    assert.equal(created.body.type, 'live');
    assert.match(created.body.key, /^sr_live_[\w-]{43}$/);
    assert.ok(created.body.key.startsWith(created.body.prefix));
    assert.equal(created.body.project_id, null);
    assert.equal(created.body.allowed_domains, null);

    const listed = await app.api('/api/v1/api-keys', { key: user.key });
    const entry = listed.body.keys.find((k: { id: string }) => k.id === created.body.id);
    assert.deepEqual(Object.keys(entry).sort(), ['allowed_domains', 'created_at', 'id', 'key_prefix', 'last_used_at', 'name', 'project_id', 'type']);
    assert.equal(entry.key_prefix, created.body.prefix);
    assert.ok(!JSON.stringify(listed.body).includes(created.body.key), 'the plaintext key is never listed');
  });

  it('stores only a SHA-256 of the key and a display prefix', async () => {
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: {} });
    const dump = JSON.stringify(await app.sql`select k.*, (select json_agg(e) from events e where e.stream_id = ${`apikey-${created.body.id}`}) as events from api_keys k where id = ${created.body.id}`);
    assert.ok(!dump.includes(created.body.key));
    assert.match(dump, /"key_hash":"[0-9a-f]{64}"/);
  });

  it('records when a key was last used', async () => {
    const created = await app.api('/api/v1/api-keys', { key: user.key, body: { name: 'Fresh' } });
    const before = (await app.api('/api/v1/api-keys', { key: user.key })).body.keys.find((k: { id: string }) => k.id === created.body.id);
    assert.equal(before.last_used_at, null);
    await app.api('/api/v1/projects', { key: created.body.key });
    const afterUse = (await app.api('/api/v1/api-keys', { key: user.key })).body.keys.find((k: { id: string }) => k.id === created.body.id);
    assert.ok(Date.parse(afterUse.last_used_at) > Date.now() - 60_000);
  });

  it('creates publishable keys with an allowlist, listed as JSON text', async () => {
    const created = await app.api('/api/v1/api-keys', {
      key: user.key,
      body: { type: 'publishable', name: 'Website', allowed_domains: ['Acme.example', 'www.acme.example'] },
    });
    assert.equal(created.status, 201);
    assert.match(created.body.key, /^sr_pub_/);
    assert.deepEqual(created.body.allowed_domains, ['acme.example', 'www.acme.example']);
    const entry = (await app.api('/api/v1/api-keys', { key: user.key })).body.keys.find((k: { id: string }) => k.id === created.body.id);
    assert.equal(entry.allowed_domains, '["acme.example","www.acme.example"]');

    // An empty list limits nothing, and says so: none, not "[]", which reads as "nowhere".
    const open = await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: [] } });
    assert.equal(open.status, 201);
    assert.equal(open.body.allowed_domains, null);
    const listed = (await app.api('/api/v1/api-keys', { key: user.key })).body.keys.find((k: { id: string }) => k.id === open.body.id);
    assert.equal(listed.allowed_domains, null);
  });

  it('keeps the host of an allowed domain pasted as a URL or with its port, and refuses what is no host', async () => {
    const created = await app.api('/api/v1/api-keys', {
      key: user.key,
      body: { type: 'publishable', allowed_domains: ['https://WWW.Acme.example/pricing?x=1', '127.0.0.1:8791', '*.Docs.Acme.example', 'shop.acme.example.', 'Bücher.example', '*.ümlaut.example'] },
    });
    assert.equal(created.status, 201, created.text);
    // An IDN as browsers send it in Origin: punycode.
    assert.deepEqual(created.body.allowed_domains, ['www.acme.example', '127.0.0.1', '*.docs.acme.example', 'shop.acme.example', 'xn--bcher-kva.example', '*.xn--mlaut-jva.example']);
    for (const entry of ['<script>alert(1)</script>', 'acme example', '*.com', 'http://', '-acme.example']) {
      const refused = await app.api('/api/v1/api-keys', { key: user.key, body: { type: 'publishable', allowed_domains: ['ok.example', entry] } });
      assert.equal(refused.status, 400, entry);
      assert.equal(refused.body.error, 'allowed_domains.1 must be a host name such as www.example.com or *.example.com.', entry);
    }
  });

  it('does not list another user’s keys', async () => {
    const other = await app.createUser();
    const listed = await app.api('/api/v1/api-keys', { key: other.key });
    assert.equal(listed.body.keys.length, 1);
  });

  describe('bad input answers 400 naming the field', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['empty name', { name: '' }, /^The name cannot be blank\.$/],
      ['blank name', { name: ' \t ' }, /^The name cannot be blank\.$/],
      ['name over 100', { name: 'k'.repeat(101) }, /name must be at most 100 characters/],
      ['tab in name', { name: 'CI\tkey' }, /name must not contain control characters/],
      ['unknown type', { type: 'secret' }, /type must be one of: live, publishable/],
      ['21 domains', { type: 'publishable', allowed_domains: Array.from({ length: 21 }, (_, i) => `d${i}.example`) }, /allowed_domains must be at most 20 items/],
      ['a domain over 253', { type: 'publishable', allowed_domains: ['a'.repeat(254)] }, /allowed_domains\.0 must be at most 253 characters/],
      ['domains not a list', { type: 'publishable', allowed_domains: 'acme.example' }, /allowed_domains must be an array/],
      ['allowlist on a live key', { type: 'live', allowed_domains: ['a.example'] }, /allowed_domains applies only to publishable keys/],
    ];
    for (const [label, body, message] of cases) {
      it(label, async () => {
        const response = await app.api('/api/v1/api-keys', { key: user.key, body });
        assert.equal(response.status, 400);
        assert.match(response.body.error, message);
      });
    }

    it('a project the caller cannot see is a 404', async () => {
      const response = await app.api('/api/v1/api-keys', { key: user.key, body: { project_id: 'not-mine' } });
      assert.equal(response.status, 404);
    });
  });
});
